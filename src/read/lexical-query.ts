/**
 * The query of a recall's lexical anchor search (SPEC 6 step 3: anchors from I^lex and I^vec fused
 * by reciprocal rank, eq. (16)).
 *
 * @module
 */
import { detectLanguage, termsOf, tokenize } from '../plane/text/text.js';

/**
 * The question for the lexical index, less its terms that occur in more than `maxDf` nodes
 * (parameter `recallQueryMaxDf`, config.ts). BM25 weighs such terms least and they have the
 * longest posting lists, so leaving them out bounds the work of the lexical search as the memory
 * grows. Stop words stay (the index ignores them); the question is returned unchanged when no
 * term is left out, so a namespace of at most `maxDf` nodes always searches the whole question.
 * When every content term is left out the result holds only stop words and the lexical search
 * returns no hit: the anchors then come from the vector index alone.
 *
 * @param query - the question as the user wrote it.
 * @param keywordDf - document frequency per index term (`NamespaceState.keywordDf`: nodes whose
 *   keywords hold the term).
 * @param maxDf - most nodes a kept term may occur in (≥ 1).
 * @param language - language of a question too short to identify (the namespace's dominant one).
 * @returns the query string to give `LexicalIndex.search`. A word is left out when all its terms
 *   (`termsOf`) are that frequent.
 */
export function lexicalAnchorQuery(query: string, keywordDf: ReadonlyMap<string, number>, maxDf: number, language?: string): string {
  const words = tokenize(query);
  const lang = detectLanguage(query, language);
  const kept = words.filter((w) => {
    const terms = termsOf(w, lang);
    return terms.length === 0 || terms.some((t) => (keywordDf.get(t) ?? 0) <= maxDf);
  });
  return kept.length === words.length ? query : kept.join(' ');
}
