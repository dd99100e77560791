/**
 * The `language` option of a memory (issue 24): the language of a namespace's text, as a BCP 47
 * tag, which the lexical index reads a text or question in when it is too short to tell its
 * language from its own words ("Insegno storia in un liceo." is Italian in an Italian namespace,
 * English without one). Stored with the namespace (meta key {@link LANGUAGE_META_KEY}) by its
 * first write, so a later memory opened without the option reads it the same way.
 *
 * @module
 */
import { describeValue, invalidOption } from '../errors.js';
import { RESOURCES, type LanguageCode } from '../plane/text/language-resources.js';

/** Meta key of the namespace's language: the canonical BCP 47 tag it was given. */
export const LANGUAGE_META_KEY = 'language' as const;

/** A namespace's language: the tag as stored and the code the text pipeline reads. */
export interface NamespaceLanguage {
  /** Canonical BCP 47 tag (`Intl.getCanonicalLocales`), e.g. `"pt-BR"`. */
  tag: string;
  /** The primary language subtag, a code of the text pipeline (`"no"` → `"nb"`). */
  code: LanguageCode;
}

/** Primary subtags the text pipeline has resources for (English, and every language of `RESOURCES`). */
export const SUPPORTED_LANGUAGES: readonly string[] = ['en', ...RESOURCES.keys()].sort();

/**
 * The language of BCP 47 tag `tag`, checked.
 * @throws JevMemError `INVALID_OPTION` (field `field`) when `tag` is not a well-formed BCP 47 tag,
 *   or its language has no resources here ({@link SUPPORTED_LANGUAGES}).
 */
export function parseLanguageTag(tag: unknown, field: string): NamespaceLanguage {
  if (typeof tag !== 'string') throw invalidOption(field, `expected a BCP 47 language tag such as "it" or "pt-BR", got ${describeValue(tag)}`);
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] as string;
  } catch {
    throw invalidOption(field, `${JSON.stringify(tag)} is not a well-formed BCP 47 language tag (e.g. "it", "pt-BR")`);
  }
  const primary = (canonical.split('-')[0] as string).toLowerCase();
  const code = primary === 'no' ? 'nb' : primary;
  if (!SUPPORTED_LANGUAGES.includes(code)) {
    throw invalidOption(field, `language ${JSON.stringify(primary)} of ${JSON.stringify(tag)} is not one the text pipeline reads; expected one of ${SUPPORTED_LANGUAGES.join(', ')}`);
  }
  return { tag: canonical, code };
}

/**
 * The `language` option checked: a tag for every namespace, or one per namespace name.
 * Returns the language the option gives namespace `ns` (undefined: none).
 * @throws JevMemError `INVALID_OPTION` (field `language`, or `language.<namespace>`).
 */
export function checkLanguageOption(option: unknown): (ns: string) => NamespaceLanguage | undefined {
  if (option === undefined) return () => undefined;
  if (typeof option === 'string') {
    const one = parseLanguageTag(option, 'language');
    return () => one;
  }
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw invalidOption('language', `expected a BCP 47 tag or { [namespace]: tag }, got ${describeValue(option)}`);
  }
  const byNs = new Map<string, NamespaceLanguage>();
  for (const [ns, tag] of Object.entries(option)) byNs.set(ns, parseLanguageTag(tag, `language.${ns}`));
  return (ns) => byNs.get(ns);
}

/**
 * The language namespace `ns` is read in: the option's when it gives one, else the one stored in
 * its meta (a stored value this build cannot read counts as none).
 */
export function namespaceLanguage(fromOption: NamespaceLanguage | undefined, meta: Readonly<Record<string, unknown>>): NamespaceLanguage | undefined {
  if (fromOption !== undefined) return fromOption;
  const stored = meta[LANGUAGE_META_KEY];
  if (typeof stored !== 'string') return undefined;
  try {
    return parseLanguageTag(stored, LANGUAGE_META_KEY);
  } catch {
    return undefined;
  }
}
