/**
 * The `language` option of a memory (issue 24): the language of a namespace's text, as a BCP 47
 * tag, which the lexical index reads a text or question in when it is too short to tell its
 * language from its own words ("Insegno storia in un liceo." is Italian in an Italian namespace,
 * English without one). Stored with the namespace (meta key {@link LANGUAGE_META_KEY}) by its
 * first write, so a later memory opened without the option reads it the same way.
 *
 * @module
 */
import { JevMemError, describeValue, invalidOption } from '../errors.js';
import { RESOURCES, type LanguageCode } from '../plane/text/language-resources.js';

/** Meta key of the namespace's language: the canonical BCP 47 tag it was given. */
export const LANGUAGE_META_KEY = 'language' as const;

/** A namespace's language: the tag as stored and the code the text pipeline reads. */
export interface NamespaceLanguage {
  /** Canonical BCP 47 tag (`Intl.getCanonicalLocales`), e.g. `"pt-BR"`. */
  tag: string;
  /** The primary language subtag, a code of the text pipeline (`"no"` → `"nb"`). */
  code: LanguageCode;
  /** The option that gave it (`language`, `language.<namespace>`); absent for a stored one. */
  field?: string;
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
    const one = { ...parseLanguageTag(option, 'language'), field: 'language' };
    return () => one;
  }
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw invalidOption('language', `expected a BCP 47 tag or { [namespace]: tag }, got ${describeValue(option)}`);
  }
  const byNs = new Map<string, NamespaceLanguage>();
  for (const [ns, tag] of Object.entries(option)) byNs.set(ns, { ...parseLanguageTag(tag, `language.${ns}`), field: `language.${ns}` });
  return (ns) => byNs.get(ns);
}

/**
 * The language namespace `ns` is read in: the one stored in its meta when there is one (a stored
 * value this build cannot read counts as none), else the option's. The stored one wins (one
 * language per namespace, whichever process opens it): an option of another language is refused,
 * unless `change` (the memory's `changeLanguage`), which makes the option's the namespace's; an
 * option of the same language (another tag of it) reads it as stored.
 * @throws JevMemError `LANGUAGE_MISMATCH` (field: the option's, `details.namespace`,
 *   `details.stored`, `details.given`: the tags) when the option's language differs from the
 *   stored one and `change` is not set.
 */
export function namespaceLanguage(fromOption: NamespaceLanguage | undefined, meta: Readonly<Record<string, unknown>>, ns: string, change = false): NamespaceLanguage | undefined {
  const tag = meta[LANGUAGE_META_KEY];
  let stored: NamespaceLanguage | undefined;
  try {
    stored = typeof tag === 'string' ? parseLanguageTag(tag, LANGUAGE_META_KEY) : undefined;
  } catch {
    stored = undefined;
  }
  if (fromOption === undefined || stored === undefined || change) return fromOption ?? stored;
  if (fromOption.code === stored.code) return stored;
  const field = fromOption.field ?? 'language';
  throw new JevMemError(
    'LANGUAGE_MISMATCH',
    `option ${field}: namespace ${JSON.stringify(ns)} is stored in language ${JSON.stringify(stored.tag)}, the option gives ${JSON.stringify(fromOption.tag)}; ` +
      `open it without the option (or with ${JSON.stringify(stored.tag)}) to read it as stored, or pass changeLanguage: true to change its language (its lexical index is rebuilt in ${JSON.stringify(fromOption.tag)}, stored at its next write). Nothing was rebuilt or written`,
    { field, namespace: ns, stored: stored.tag, given: fromOption.tag },
  );
}
