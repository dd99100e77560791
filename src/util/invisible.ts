/**
 * Invisible characters in user-visible text: finding them, and quoting a string so that a message
 * echoing input shows each one as an escape (`"tenant\u0000x"`) instead of printing it raw, where
 * it would be unseen (a zero-width space), reorder the line (U+202E), or end it (a NUL in a C
 * string, a line separator in a log).
 *
 * "Invisible" here is: control characters (Unicode category Cc), format characters (Cf: zero-width
 * space/joiners, the byte-order mark, bidirectional controls), line and paragraph separators
 * (Zl, Zp), the other default-ignorable code points (variation selectors, U+3164 Hangul filler,
 * …), and lone UTF-16 surrogates, which no UTF-8 text can hold.
 *
 * @module
 */

/** One invisible character (see the module note); a lone surrogate is matched by {@link LONE_SURROGATE}. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** White space other than U+0020, which a message shows as an escape (a no-break space looks like a space). */
const ODD_SPACE = /[^\S ]/u;

/** True when `text` holds an invisible character or a lone surrogate (module note). */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text) || LONE_SURROGATE.test(text);
}

/** True when `text` holds a lone UTF-16 surrogate (it cannot be written as UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * True when `text` is empty, white space only, or made only of white space and invisible
 * characters (`"\u200b\u200b"`, `" \ufeff "`): text with nothing a reader could see. (A lone
 * surrogate is not blank: it shows as a replacement character.)
 */
export function isBlankText(text: string): boolean {
  for (const ch of text) {
    if (/\s/u.test(ch) || INVISIBLE.test(ch)) continue;
    return false;
  }
  return true;
}

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

/** Every invisible character (module note) or lone surrogate, for {@link showInvisible}. */
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/**
 * `text` with each invisible character and lone surrogate written as `\uXXXX` (`\u{XXXXX}` above
 * U+FFFF), and nothing else changed: for a message made elsewhere that may echo input (a JSON
 * parser's "Unexpected token" with a byte-order mark in it).
 * @example `showInvisible('Unexpected token \ufeff')` → `Unexpected token \ufeff` written with a backslash
 */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, (ch) => {
    const code = ch.codePointAt(0) as number;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : hex4(code);
  });
}

/**
 * `text` in double quotes, as `JSON.stringify` writes it (`\n`, `\u0000`, `\"`, `\\`), and on top
 * of it every other invisible character, lone surrogate and white space other than U+0020 written
 * as `\uXXXX` (`\u{XXXXX}` above U+FFFF). Longer text is cut to `max` code points, with `…` after
 * the closing quote.
 *
 * @param text - The string to show.
 * @param max - Most code points shown (default 80; `Infinity` for all).
 * @example `quoteVisible('tenant:alice\u0000x')` → `"tenant:alice\u0000x"` (a backslash, not a NUL)
 */
export function quoteVisible(text: string, max = 80): string {
  let out = '';
  let n = 0;
  // Iterates UTF-16 units by hand so a lone surrogate is seen alone (for…of yields it too, but a
  // pair is kept whole either way).
  for (let i = 0; i < text.length; i++) {
    if (n === max) return `"${out}"…`;
    const code = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(code);
    if (code > 0xffff) i++;
    n++;
    if (code >= 0xd800 && code <= 0xdfff) out += hex4(code);
    else if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20) out += JSON.stringify(ch).slice(1, -1); // \n, \t, \u0000 as JSON writes them
    else if (INVISIBLE.test(ch) || ODD_SPACE.test(ch)) out += code > 0xffff ? `\\u{${code.toString(16)}}` : hex4(code);
    else out += ch;
  }
  return `"${out}"`;
}
