/**
 * The one rule for namespace names, used by every store and every entry point (the Memory API,
 * the CLI's `--namespace`, the edge HTTP routes), so that two different names can never reach
 * the same data: no store truncates, folds or drops a character of a valid name.
 *
 * A valid namespace name:
 * - is a string of 1 to {@link MAX_NAMESPACE_BYTES} (256) bytes in UTF-8;
 * - holds no control character (Unicode Cc: NUL, tab, newline, DEL, C1), no format character
 *   (Cf: zero-width space and joiners, the byte-order mark, bidirectional controls), no line or
 *   paragraph separator (Zl, Zp), no other default-ignorable code point (variation selectors,
 *   fillers) and no lone UTF-16 surrogate;
 * - holds no U+FFFD REPLACEMENT CHARACTER: it is what a lossy decoding leaves of bytes that are
 *   not UTF-8 (a shell argument `a\xffb` reaches Node as `a\uFFFDb`, and so does `a\xfeb`), so
 *   two different names would reach one namespace;
 * - has no white space at either end;
 * - is in Unicode Normalization Form C (`"e\u0301"` is refused; write `"é"`), so names that look
 *   the same are the same string.
 *
 * Case, width and punctuation are kept as written: `Alice`, `alice` and `ａｌｉｃｅ` are three
 * namespaces.
 *
 * Stores written before this rule may hold names it refuses. Those stay reachable for clean-up:
 * {@link checkExistingNamespaceName} accepts any non-empty string, and the Memory API uses it for
 * `namespaces()`, `forget`, `export` and `stats` of a name the store lists; every write and
 * every name not yet in the store goes through {@link checkNamespaceName}.
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import { hasLoneSurrogate, quoteVisible } from '../../util/invisible.js';

/** Longest namespace name, in UTF-8 bytes. */
export const MAX_NAMESPACE_BYTES = 256;

/** A character a namespace name may not hold (module note), lone surrogates apart. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/** White space (or any space separator) at the start or the end. */
const EDGE_SPACE = /^[\s\p{Z}]|[\s\p{Z}]$/u;

const utf8 = new TextEncoder();

/**
 * What is wrong with `name` under the namespace rule (module note), or `undefined` when it is a
 * valid name. The reason names the first offending character as an escape (`\u0000`).
 */
export function namespaceNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'expected a non-empty name';
  if (hasLoneSurrogate(name)) return 'holds a lone UTF-16 surrogate, which UTF-8 cannot hold';
  const bytes = utf8.encode(name).length;
  if (bytes > MAX_NAMESPACE_BYTES) return `is ${bytes} bytes in UTF-8; the limit is ${MAX_NAMESPACE_BYTES}`;
  const bad = FORBIDDEN.exec(name);
  if (bad !== null) {
    return `holds the invisible character ${quoteVisible(bad[0])} at index ${bad.index} (control, format, separator and default-ignorable characters are not allowed)`;
  }
  const lost = name.indexOf('\uFFFD');
  if (lost >= 0) return `holds U+FFFD (the replacement character left by bytes that are not UTF-8) at index ${lost}; pass the name as valid UTF-8`;
  if (EDGE_SPACE.test(name)) return 'starts or ends with white space';
  if (name.normalize('NFC') !== name) return `is not in Unicode form NFC; write ${quoteVisible(name.normalize('NFC'))}`;
  return undefined;
}

/**
 * Checks a namespace name for a write or for a name the store does not hold yet.
 * @param value - Anything the caller passed.
 * @param field - The field in the error (`namespace`, `options.namespace`).
 * @returns the name, unchanged.
 * @throws JevMemError `INVALID_INPUT` naming `field`, with the name quoted and its invisible
 *   characters escaped (`"tenant:alice\u0000x"`), when it is not a string or breaks the rule.
 */
export function checkNamespaceName(value: unknown, field = 'namespace'): string {
  if (typeof value !== 'string') throw invalidInput(field, `expected a string, got ${value === null ? 'null' : typeof value}`);
  const problem = namespaceNameProblem(value);
  if (problem !== undefined) throw invalidInput(field, `namespace name ${quoteVisible(value)} ${problem}; see "Namespaces" in the README`);
  return value;
}

/**
 * Checks a name given to reach a namespace a store may already hold under an older, looser rule
 * (list, forget, export, stats): any non-empty string. Callers use it only after
 * {@link checkNamespaceName} refused the name and the store lists it.
 * @throws JevMemError `INVALID_INPUT` naming `field` unless `value` is a non-empty string.
 */
export function checkExistingNamespaceName(value: unknown, field = 'namespace'): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidInput(field, `expected a non-empty string, got ${typeof value === 'string' ? '""' : value === null ? 'null' : typeof value}`);
  return value;
}
