/**
 * What the read path reads of a node's text when it compares the node with a question, computed
 * once per node object (nodes are replaced, not mutated): the text it is matched by
 * ({@link matchText}), its distinct content terms and tokens ({@link nodeTextFacts}). Pure.
 *
 * @module
 */
import { contentTerms, tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';

/** Text all in ASCII (text.ts tokenizes such text with one regular expression). */
const ASCII = /^[\x00-\x7f]*$/;

/** Speakers that are roles, not names: never matched as a name (issue 24). */
const ROLE_SPEAKERS = new Set(['user', 'assistant', 'human', 'ai', 'system', 'bot']);

/**
 * The text a node is matched against a question by (issue 23): its text, preceded by
 * `"<speaker>: "` when the speaker is a name (not a role such as "user") that the text does not
 * already start with, so that "Where does Maya work?" meets {speaker: 'Maya', text: 'I start
 * my new job at Acme'} as it meets "Maya: I start my new job at Acme". The stored text is not
 * changed; the lexical index holds the speaker field already.
 */
export function matchText(n: Pick<MemoryNode, 'text' | 'provenance'>): string {
  const sp = n.provenance.speaker?.trim();
  if (sp === undefined || sp.length === 0 || ROLE_SPEAKERS.has(sp.toLowerCase())) return n.text;
  if (n.text.startsWith(`${sp}:`) || n.text.startsWith(`${sp} :`)) return n.text;
  return `${sp}: ${n.text}`;
}

/**
 * What `candidateSignals` (signals.ts) and the soft match (soft-query.ts) read of a node's text,
 * derived from its text and speaker alone. Each part is computed at its first read, once: a
 * node read only as a neighbour in a window needs its words, not its terms.
 */
export class NodeTextFacts {
  readonly #node: MemoryNode;
  #text: string | undefined;
  #terms: ReadonlySet<string> | undefined;
  /** The language {@link termsWith} read `#terms` in (`undefined`: identified from the text alone). */
  #termsLanguage: string | undefined;
  #words: readonly string[] | undefined;
  #wordSet: ReadonlySet<string> | undefined;
  #tokenCount: number | undefined;
  /** Content stem of each of {@link words} read so far (`false`: a stop word; `undefined`: not read yet), and the `stemOf` it came from. */
  #stems: Array<string | false | undefined> | undefined;
  #stemsOf: ((word: string) => string | false) | undefined;
  /** Word vector of each of {@link words} looked up so far (`false`: out of vocabulary; `undefined`: not looked up yet), and the lookup it came from. */
  #vectors: Array<Float32Array | false | undefined> | undefined;
  #vectorsOf: ((words: string[]) => Array<Float32Array | undefined>) | undefined;

  /** @param node The node (not copied: nodes are replaced, not mutated). */
  constructor(node: MemoryNode) {
    this.#node = node;
  }

  /** {@link matchText} of the node. */
  get text(): string {
    return (this.#text ??= matchText(this.#node));
  }

  /**
   * `tokenize(matchText(n))`, repeats kept, with what else is derived from it filled on the way
   * ({@link words}; {@link tokens} when the match text is the node's own text): a candidate's
   * text is tokenized once for its terms, words and token count, not three times. The token
   * list itself is not kept (the node cache holds thousands of facts).
   */
  #tokenize(): string[] {
    const all = tokenize(this.text);
    this.#words ??= [...new Set(all)];
    if (this.#tokenCount === undefined) {
      if (this.text === this.#node.text) this.#tokenCount = all.length;
      else if (ASCII.test(this.text)) {
        // "<speaker>: <text>" in ASCII: tokenize is lower case + /[a-z0-9]+/g, and ": " holds no
        // token character, so the tokens are the speaker's followed by the text's.
        const speaker = this.text.slice(0, this.text.length - this.#node.text.length - 2);
        this.#tokenCount = all.length - tokenize(speaker).length;
      }
    }
    return all;
  }

  /** Distinct `contentTerms(matchText(n))`. */
  get terms(): ReadonlySet<string> {
    return this.termsWith(undefined);
  }

  /**
   * {@link terms}, its English stems taken from `stemOf` (`contentTerms`' memo, the namespace's
   * `memoStem`: a recall stems the words of a few hundred candidates, most of them seen before;
   * issue 25). The same set either way.
   * @param language - the namespace's language when it is not English (h-person2, issue 24): the
   *   fallback of a text too short to identify, as the lexical index and the question read it
   *   ("Pedro: Vi um jogo incrível no estádio." was read as Italian without it, so its "vi" never
   *   met the question's "vê"). `undefined`: identified from the text alone, as before.
   */
  termsWith(stemOf: ((word: string) => string | false) | undefined, language?: string): ReadonlySet<string> {
    if (this.#terms === undefined || this.#termsLanguage !== language) {
      this.#terms = new Set(contentTerms(this.text, language, this.#tokenize(), stemOf));
      this.#termsLanguage = language;
    }
    return this.#terms;
  }

  /** Distinct `tokenize(matchText(n))`, in first-occurrence order. */
  get words(): readonly string[] {
    if (this.#words === undefined) this.#tokenize();
    return this.#words as readonly string[];
  }

  /**
   * The content stem of word `i` of {@link words} (`false` for a stop word), from `stemOf` (the
   * namespace's memo, `namespaceStemOf`), computed at its first read and kept with the node: the
   * soft match reads a node's words in every recall whose windows hold it, and a node stays
   * resident across recalls (issue 25). Asked with another `stemOf`, the kept stems are dropped.
   */
  stemAt(i: number, stemOf: (word: string) => string | false): string | false {
    if (this.#stems === undefined || this.#stemsOf !== stemOf) {
      this.#stems = new Array<string | false | undefined>(this.words.length);
      this.#stemsOf = stemOf;
    }
    let st = this.#stems[i];
    if (st === undefined) {
      st = stemOf(this.words[i] as string);
      this.#stems[i] = st;
    }
    return st;
  }

  /**
   * The word vector of word `i` of {@link words} from `lookup` (the encoder's `termVectors`;
   * `undefined` out of vocabulary), looked up at its first read and kept with the node (issue 25,
   * as {@link stemAt}). Asked with another `lookup`, the kept vectors are dropped. The vector is
   * the lookup's own (not copied).
   */
  vectorAt(i: number, lookup: (words: string[]) => Array<Float32Array | undefined>): Float32Array | undefined {
    if (this.#vectors === undefined || this.#vectorsOf !== lookup) {
      this.#vectors = new Array<Float32Array | false | undefined>(this.words.length);
      this.#vectorsOf = lookup;
    }
    let v = this.#vectors[i];
    if (v === undefined) {
      v = lookup([this.words[i] as string])[0] ?? false;
      this.#vectors[i] = v;
    }
    return v === false ? undefined : v;
  }

  /** The same words as a set. */
  get wordSet(): ReadonlySet<string> {
    return (this.#wordSet ??= new Set(this.words));
  }

  /** `tokenize(n.text).length`: tokens of the node's own text (no speaker), repeats counted. */
  get tokens(): number {
    // matchText is the node's own text unless a speaker name is put before it
    if (this.#tokenCount === undefined && this.#words === undefined) this.#tokenize();
    return (this.#tokenCount ??= tokenize(this.#node.text).length);
  }
}

const NODE_FACTS = new WeakMap<MemoryNode, NodeTextFacts>();

/**
 * The {@link NodeTextFacts} of a node, one per node object (nodes are replaced, not mutated, so
 * a node's facts never go stale): a candidate is read several times per recall (its assessment,
 * the reassessment round, the hop, and as a neighbour in other candidates' windows), and a node
 * stays resident across recalls. Held weakly: the facts go with the node.
 */
export function nodeTextFacts(n: MemoryNode): NodeTextFacts {
  let facts = NODE_FACTS.get(n);
  if (facts === undefined) {
    facts = new NodeTextFacts(n);
    NODE_FACTS.set(n, facts);
  }
  return facts;
}

/** Distinct tokens of a node's {@link matchText}, in first-occurrence order ({@link nodeTextFacts}, cached per node object). */
export function nodeWords(n: MemoryNode): readonly string[] {
  return nodeTextFacts(n).words;
}
