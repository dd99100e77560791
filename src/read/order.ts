/**
 * Questions about what held **before or after** another fact (issue 24, review finding 5):
 * "Where did I live before Berlin?", "Which car did we have before the Tesla?", "What happened
 * after the wedding?", "Where did Caroline go after the support group?". The answer often shares
 * no word with the question but the anchor ("Berlin"), so neither the anchors of eq. (16) nor the
 * hop reach it; the read path finds it through time and the state it replaced:
 *
 * 1. {@link orderQuestion}: a question that asks *what / which / where / who* (not how, why,
 *    when, how long, nor yes/no) with a cue (`before`, `prior to`, `until`, `after`, `following`,
 *    `since`; es/pt `antes de` / `después de` / `depois de`, fr `avant` / `après`, it `prima di` /
 *    `dopo`) followed by an anchor phrase that is not a date (a date is a time window: when.ts).
 * 2. {@link findOrderAnchors}: the anchor evidence, the holder's memories that the lexical index
 *    finds for the anchor phrase and that hold its most specific term (lowest document frequency);
 *    the anchor a is the earliest of them (a state holds from when it is first told), at t_a
 *    (observation time, else ingestion time).
 * 3. {@link orderNeighbours}: memories of the **same kind of state** on the asked side of t_a, of
 *    the same holder (the speaker the question names; for a first-person question, anyone but an
 *    assistant), drawn from the anchor's and the question's nearest memories by vector and from
 *    the supersession chain (semantic `updates` edges of the write path's state-update decision:
 *    the states the anchor replaced, or that replaced it). The same kind is a score, κ(v) =
 *    cos(v, a) + w(v) + ½·cos(v, q) + β_c·[on the chain] ≥ {@link KIND_FLOOR}: w(v) the value
 *    similarity by word vectors ("Madrid" to "Berlin", "clarinet" to "cello": values of one slot
 *    lie close), because places lived, jobs, cars … are said in alike words but not always. They
 *    are ranked by κ(v) − λ_t·ln(1 + rank_t(v)), rank_t the place by temporal proximity
 *    |t_v − t_a| (0 the nearest), at most {@link ORDER_NEIGHBOURS}, and drawn into the candidates
 *    (scored by eq. (23) against the question, as the hop's).
 * 4. {@link orderLift} (final ranking): the first neighbour is raised just above the best memory
 *    naming the anchor (score × (1 + β_o)), the others just below the anchor evidence, never
 *    lowered; so the anchor stays next to its answer and nothing else moves.
 *
 * The parser decides whether the question is one (as for a window, when.ts); System One's
 * route.temporal p_temporal(q) is recorded beside it in the trace.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { LanguageCode } from '../plane/text/language.js';
import { contentTerms, STOP_WORDS, termsOf, tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';
import { extractTimeRefs } from '../util/time.js';
import { holdsNoState } from '../write/state-updates.js';
import { lexicalAnchorQuery } from './lexical-query.js';
import { answersItself } from './order-self.js';
import type { TermVectorLookup } from './signals.js';

/** Which side of the anchor a question asks about. */
export type OrderRelation = 'before' | 'after';

/** A before/after question as {@link orderQuestion} reads it. */
export interface OrderQuestion {
  relation: OrderRelation;
  /** The cue word(s) as written ("before", "prior to", "después de"). */
  cue: string;
  /** The anchor phrase after the cue ("the Tesla", "I joined Northloop"). */
  anchor: string;
  /** The question before the cue ("Which car did we have"). */
  frame: string;
  /** True when the question speaks of its asker (I, my, we, our, …). */
  firstPerson: boolean;
}

/** Cues and their side, longest first within a language. */
const CUES: ReadonlyArray<[RegExp, OrderRelation]> = [
  [/^(?:prior to|up until|until|till|before|antes de|antes del|avant|prima di|prima del|prima della)$/i, 'before'],
  [/^(?:after|following|since|después de|despues de|después del|depois de|depois do|depois da|après|apres|dopo)$/i, 'after'],
];
const CUE = /(?:^|\s)(prior to|up until|until|till|before|antes del?|avant|prima d(?:i|el|ella)|after|following(?=\s+(?:the|a|an|my|our|his|her|their|your)\s)|since|despu[ée]s del?|depois d[eoa]|apr[èe]s|dopo)\s+(.+?)\s*[?？.!]*\s*$/i;
/** Anchors that are a length of time, not a fact ("after a long day", "before long"). */
const SPAN = /^(?:(?:a|an|the|that|this|one|some)\s+)?(?:(?:long|short|few|couple|busy|hard|while)\s+)*(?:time|times|day|days|week|weeks|month|months|year|years|while|hour|hours|long|ages|that|this|then|now)(?:\s+of\s+\w+)?$/i;
/** Words that open a question asking for a thing, a place or a person. */
const WH = /^[¿¡\s]*(?:qu['’]|(?:what|which|where|who|whom|whose|qu[ée]|cu[aá]l(?:es)?|d[oó]nde|qui[eé]n(?:es)?|qual|quais|onde|quem|o que|o[uù]|quel(?:le)?s?|que|qui|cosa|che|quale|quali|dove|chi)(?=[\s,'’-]|$))/i;
/** Frames that ask a duration, an amount, a manner or a reason, though they open with a wh-word. */
const NOT_STATE = /\b(?:how|why|when|how long|how many|how much)\b/i;
/** Words that measure the gap ("the week before", "right after", "two weeks before"): dropped from the frame's end. */
const GAP = /\s+(?:the\s+)?(?:(?:right|just|shortly|soon|long|immediately|directly|not long|a\s+(?:day|week|month|year)|(?:\w+\s+)?(?:days?|weeks?|months?|years?|morning|evening|night|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)))$/i;
const FIRST_PERSON = new Set(['i', 'my', 'me', 'mine', 'we', 'our', 'us', 'ours', "i'm", "i've", 'yo', 'mi', 'mis', 'nosotros', 'je', "j'", 'mon', 'ma', 'mes', 'nous', 'io', 'mio', 'mia', 'eu', 'meu', 'minha']);

/**
 * Reads a before/after question, or undefined when the question is not one: no cue followed by
 * an anchor phrase, a frame that does not ask what/which/where/who (how, why, when, how long,
 * yes/no questions ask of the anchor itself), an anchor that holds no content word, or an anchor
 * that is a date ("before August 11, 2023": a time window, when.ts).
 */
export function orderQuestion(query: string): OrderQuestion | undefined {
  const m = CUE.exec(query.normalize('NFC'));
  if (m === null) return undefined;
  const cue = (m[1] as string).toLowerCase();
  const relation = CUES.find(([re]) => re.test(cue))?.[1];
  const anchor = (m[2] as string).trim();
  const frame = query.slice(0, m.index).replace(GAP, '').trim();
  if (relation === undefined || !WH.test(frame) || NOT_STATE.test(frame)) return undefined;
  if (contentTerms(anchor).length === 0 || SPAN.test(anchor)) return undefined;
  // a date as the anchor names a time, not a fact (chrono-node through extractTimeRefs): "before
  // August 3, 2023 involving his kids" is a window (when.ts); "after getting his car fixed on 7 July" is not
  const bare = anchor.replace(/^(?:the|a|an)\s+/i, '');
  if (extractTimeRefs(bare, 0).some((t) => bare.startsWith(t.text))) return undefined;
  const firstPerson = tokenize(query).some((w) => FIRST_PERSON.has(w));
  return { relation, cue: m[1] as string, anchor, frame, firstPerson };
}

/**
 * Least kind score κ(v) for a memory to count as the same kind of state as the anchor. Chosen on
 * the order bench's dev part (bench/order, shipped encoder): κ of the answers has its 10th
 * percentile at 0.97, the other memories of the holder their median at 0.83.
 */
export const KIND_FLOOR = 0.9;
/**
 * μ_κ: how far above the median κ of the pool (the holder's memories on the asked side) a memory's
 * κ must lie. Chosen on the order bench's dev part (R@1 / R@5 47.2 / 78.7 with 0, 46.3 / 75.9 with
 * 0.1, 36.1 / 67.6 with 0.2); on LoCoMo dev (conversations 0-4) 0.2 leaves every triggered
 * question's evidence where it was, 0 moves one from 9th to 12th.
 */
export const KIND_MARGIN = 0;
/** β_c: what a link on the supersession chain adds to κ(v) (System One's state-update decision, which can err). */
export const CHAIN_BONUS = 0.1;
/** λ_t: the weight of temporal proximity, κ(v) − λ_t·ln(1 + rank_t(v)). Chosen on the order bench's dev part. */
export const TIME_WEIGHT = 0.02;
/** How many content words of a memory the value similarity reads, at most. */
const VALUE_WORDS = 40;
/** How many neighbours are drawn and lifted, at most. */
export const ORDER_NEIGHBOURS = 3;
/** How many of the neighbours are lifted (the others are drawn and keep their eq. (23) score). Order bench dev: R@5 78.7 lifting 3, 64.8 lifting 1. */
export const ORDER_LIFTED = 3;
/** β_o: the nearest neighbour is raised to the anchor evidence's score × (1 + β_o). */
export const ORDER_BOOST = 0.01;
/** How many lexical hits of the anchor phrase are read for the anchor evidence. */
const ANCHOR_HITS = 10;
/** How deep the anchor's vector neighbours are searched. */
const KIND_DEPTH = 80;

/** What the before/after step reads of the recall. */
export interface OrderInput {
  query: string;
  /** Canonical speakers the question names (gather.ts). */
  speakers: ReadonlySet<string>;
  /** The recall's window and filter test. */
  passes: (n: MemoryNode) => boolean;
  /** The namespace's language (lexical query). */
  language: string;
  /** `recallQueryMaxDf`. */
  maxDf: number;
  /** The question's vector, unit norm, when it carries evidence (gather.ts); absent: not used. */
  queryVector?: Float32Array | undefined;
  /** Word vectors of the encoder (`Encoder.termVectors`); absent: the value similarity is 0. */
  termVectors?: TermVectorLookup | undefined;
}

/** Canonical form of a speaker name (as `NamespaceState.speakers` keys it). */
function canon(s: string | undefined): string | undefined {
  return s?.normalize('NFC').trim().toLowerCase();
}

/**
 * Whether a memory is held by the question's holder: spoken by a speaker the question names, or
 * (no speaker named) by anyone but an assistant for a first-person question; else every memory.
 */
export function holderOf(oq: Pick<OrderQuestion, 'firstPerson'>, speakers: ReadonlySet<string>): (n: MemoryNode) => boolean {
  if (speakers.size > 0) return (n) => speakers.has(canon(n.provenance.speaker) ?? '');
  if (oq.firstPerson) return (n) => !holdsNoState(n);
  return () => true;
}

/** The time a memory's state holds from, epoch ms: its observation time, else its ingestion time. */
export function orderTime(n: Pick<MemoryNode, 'observedAt' | 'ingestedAt'>): number {
  return Date.parse(n.observedAt ?? n.ingestedAt);
}

/**
 * The anchor evidence: among the first {@link ANCHOR_HITS} lexical hits of the anchor phrase,
 * the holder's live memories that `passes` keeps and that hold the phrase's most specific term
 * (the content term in the fewest memories). Loads their bodies.
 * @returns the memories, best lexical hit first; the ids of every hit that holds the term, of any
 *   speaker (the talk of the anchor: "Congratulations on the cello!"); and that term (undefined: none found).
 */
export async function findOrderAnchors(state: NamespaceState, oq: OrderQuestion, input: OrderInput, holder: (n: MemoryNode) => boolean): Promise<{ nodes: MemoryNode[]; named: string[]; term: string | undefined }> {
  const terms = contentTerms(oq.anchor, input.language as LanguageCode);
  if (terms.length === 0) return { nodes: [], named: [], term: undefined };
  const df = (t: string): number => state.keywordDf.get(t) ?? Infinity;
  const term = [...terms].sort((a, b) => df(a) - df(b))[0] as string;
  await state.lexical.ready?.();
  const hits = state.lexical.search(lexicalAnchorQuery(oq.anchor, state.keywordDf, input.maxDf, input.language), ANCHOR_HITS, input.language);
  await state.loadNodes(hits.map((h) => h.id));
  const named = hits.map((h) => state.nodes.get(h.id)).filter((n): n is MemoryNode => n !== undefined && n.status !== 'deleted' && input.passes(n) && namesTerm(n, term, input.language));
  return { nodes: named.filter(holder), named: named.map((n) => n.id), term };
}

/** True when a memory's text holds the term (by the same analysis as the index: `termsOf` of its words). */
function namesTerm(n: MemoryNode, term: string, language: string): boolean {
  return n.keywords.includes(term) || tokenize(n.text).some((w) => termsOf(w, language as LanguageCode).includes(term));
}

/** A memory the before/after step drew (`TraceOrder.neighbours`). */
export interface OrderNeighbour {
  id: string;
  /** |t_v − t_a| in days. */
  days: number;
  /** The kind score κ(v) (see {@link orderNeighbours}) and the ranking score κ(v) − λ_t·ln(1 + rank_t(v)). */
  kind: number;
  score: number;
  /** True when the supersession chain links it to the anchor. */
  chain: boolean;
}

/** Unit copy of a vector (undefined for a zero one). */
function unit(v: Float32Array | undefined): Float32Array | undefined {
  if (v === undefined) return undefined;
  let n = 0;
  for (let i = 0; i < v.length; i++) n += (v[i] as number) * (v[i] as number);
  if (n === 0) return undefined;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) / Math.sqrt(n);
  return out;
}

function dot(a: Float32Array | undefined, b: Float32Array | undefined): number {
  if (a === undefined || b === undefined || a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/**
 * The value similarity of a memory to the anchor: the best cosine between the word vectors of its
 * content words (not the anchor's own) and those of the anchor phrase's ("Madrid" for "Berlin",
 * "clarinet" for "cello": values of one slot lie close in word-vector space); 0 without vectors.
 */
function valueSimilarity(text: string, anchorWords: readonly string[], anchorVectors: ReadonlyArray<Float32Array | undefined>, lookup: TermVectorLookup | undefined): number {
  if (lookup === undefined || anchorVectors.every((v) => v === undefined)) return 0;
  const words = [...new Set(tokenize(text))].filter((w) => !STOP_WORDS.has(w) && !anchorWords.includes(w) && w.length > 2).slice(0, VALUE_WORDS);
  let best = 0;
  for (const v of lookup(words)) for (const a of anchorVectors) best = Math.max(best, dot(unit(v), a));
  return best;
}

/**
 * The neighbours of the anchor a on the asked side of t_a (module comment, step 3), at most
 * {@link ORDER_NEIGHBOURS}, best first. The pool: the anchor's and the question's nearest memories
 * by vector ({@link KIND_DEPTH} each) and the supersession chain; kept: the holder's, live, kept by
 * `passes`, on the asked side, not naming the anchor unless on the chain. Each gets the kind score
 * κ(v) = cos(v, a) + w(v) + ½·cos(v, q) + β_c·[chain], w(v) the value similarity (word vectors)
 * and q the question; κ < {@link KIND_FLOOR} is not the same kind of state. The ranking score
 * subtracts λ_t·ln(1 + rank_t(v)), rank_t the place by temporal proximity |t_v − t_a| (0 nearest),
 * so among alike memories the nearest in time comes first. Loads what it reads.
 */
export async function orderNeighbours(state: NamespaceState, oq: OrderQuestion, anchors: readonly MemoryNode[], term: string, input: OrderInput, holder: (n: MemoryNode) => boolean): Promise<OrderNeighbour[]> {
  const first = anchors.reduce((a, b) => (orderTime(b) < orderTime(a) ? b : a), anchors[0] as MemoryNode);
  const ta = orderTime(first);
  const ids = new Set(anchors.map((a) => a.id));
  const chain = new Set<string>();
  await state.loadEdgesOfKind([first.id], 'updates');
  if (oq.relation === 'after') first.supersededBy.forEach((id) => chain.add(id));
  else for (const e of state.edgesOfKind(first.id, 'updates')) if (e.from === first.id) chain.add(e.to);
  const av = state.vectors.get(first.id);
  const pool = new Set(chain);
  if (state.vector.size > 0) {
    if (av !== undefined) for (const h of state.vector.search(av, KIND_DEPTH)) pool.add(h.id);
    if (input.queryVector !== undefined) for (const h of state.vector.search(input.queryVector, KIND_DEPTH)) pool.add(h.id);
  }
  await state.loadNodes(pool);
  const anchorWords = tokenize(oq.anchor).filter((w) => !STOP_WORDS.has(w));
  const anchorVectors = input.termVectors === undefined ? [] : input.termVectors(anchorWords).map(unit);
  const found: Array<Omit<OrderNeighbour, 'score'>> = [];
  for (const id of pool) {
    const n = state.nodes.get(id);
    if (n === undefined || id === first.id || n.status === 'deleted' || !input.passes(n) || !holder(n)) continue;
    const t = orderTime(n);
    if (!Number.isFinite(t) || (oq.relation === 'before' ? t >= ta : t <= ta)) continue;
    const onChain = chain.has(id);
    const v = state.vectors.get(id);
    const kind = dot(v, av) + valueSimilarity(n.text, anchorWords, anchorVectors, input.termVectors) + 0.5 * dot(v, input.queryVector) + (onChain ? CHAIN_BONUS : 0);
    found.push({ id, days: Math.abs(t - ta) / 86_400_000, kind, chain: onChain });
  }
  // the same kind stands out of the holder's other memories: κ at least the pool's median + μ_κ
  const kinds = found.map((x) => x.kind).sort((a, b) => a - b);
  const floor = Math.max(KIND_FLOOR, (kinds[Math.floor((kinds.length - 1) / 2)] ?? 0) + KIND_MARGIN);
  const kept = found.filter((x) => x.kind >= floor);
  kept.sort((a, b) => a.days - b.days);
  return kept
    .map((x, rank) => ({ ...x, score: x.kind - TIME_WEIGHT * Math.log1p(rank) }))
    .sort((a, b) => b.score - a.score || a.days - b.days)
    .slice(0, ORDER_NEIGHBOURS);
}

/**
 * Raises the neighbours around the anchor (step 4): the first to max(own, r₁·(1 + β_o)), r₁ the
 * best score among `items` of the memories that name the anchor (`named`: {@link TraceOrder.named},
 * an assistant's "Congratulations on the cello!" too); the i-th (i ≥ 1) to max(own, r₂·(1 − β_o·i)),
 * r₂ the best score of the anchor evidence itself (`anchors`, the holder's), so they stay below
 * it. Without such a memory among the items, r₁ or r₂ is the best score of all.
 * When anchor evidence answers by itself (`answers`, order-self.ts), the best of it is raised
 * to max(own, r₁·(1 + β_o)) instead and every neighbour i (from 0) only to max(own, r_s·(1 −
 * β_o·(i + 1))), r_s that raised score: a barely relevant neighbour never passes the message
 * that answers. Never lowers a score, then divides every score by the largest when that exceeds
 * 1 (scores stay in [0, 1], their order kept).
 * @returns the new scores, in order.
 */
export function orderLift(items: ReadonlyArray<{ id: string; score: number }>, order: { named: readonly string[]; anchors: readonly string[]; neighbours: readonly string[]; answers?: readonly string[] | undefined }): number[] {
  const out = items.map((x) => x.score);
  const best = (ids: readonly string[]): number => {
    const own = items.filter((x) => ids.includes(x.id)).map((x) => x.score);
    return own.length > 0 ? Math.max(...own) : Math.max(0, ...out);
  };
  const r1 = best(order.named);
  let r2 = best(order.anchors);
  let shift = 0;
  const answers = items.map((x, j) => ({ x, j })).filter(({ x }) => order.answers?.includes(x.id) === true);
  if (answers.length > 0) {
    const self = answers.reduce((a, b) => (b.x.score > a.x.score ? b : a));
    out[self.j] = Math.max(self.x.score, r1 * (1 + ORDER_BOOST));
    r2 = out[self.j] as number;
    shift = 1;
  }
  order.neighbours.forEach((id, i) => {
    const j = items.findIndex((x) => x.id === id);
    if (i >= ORDER_LIFTED || answers.some(({ x }) => x.id === id)) return;
    const ref = i + shift === 0 ? r1 * (1 + ORDER_BOOST) : r2 * (1 - ORDER_BOOST * (i + shift));
    if (j >= 0 && ref > 0) out[j] = Math.max(out[j] as number, ref);
  });
  const top = Math.max(0, ...out);
  return top > 1 ? out.map((x) => x / top) : out;
}

/** Why the before/after step ran or did not (`TraceOrder.reason`). */
export type OrderReason = 'ran' | 'switched-off' | 'not-order' | 'no-anchor' | 'no-neighbour';

/** The before/after step in the recall trace (`RecallTrace.order`). */
export interface TraceOrder {
  reason: OrderReason;
  /** The question as read (absent: not a before/after question). */
  question?: OrderQuestion;
  /** System One's route.temporal p_temporal(q), for comparison: the parser decides. */
  temporal: number;
  /** The anchor evidence (ids), best lexical hit first, and the anchor's most specific term. */
  anchors: string[];
  /** Every memory among the anchor phrase's hits that names that term, of any speaker: the neighbours are lifted around the best of them. */
  named: string[];
  /** The anchor evidence that answers by itself (order-self.ts: the other state told in the same message); the neighbours are lifted below the best of it. */
  answers: string[];
  term?: string;
  /** The neighbours drawn and lifted, nearest in time first. */
  neighbours: OrderNeighbour[];
}

/**
 * The before/after step of one recall (steps 1-3): reads the question, finds the anchor evidence
 * and its neighbours. `draw` scores the given memories with eq. (23) into the recall's candidates
 * (those already scored are left as they are). Never throws on its own; `draw`'s errors pass.
 */
export async function orderStep(state: NamespaceState, input: OrderInput & { on: boolean; temporal: number }, draw: (nodes: MemoryNode[]) => Promise<void>): Promise<TraceOrder> {
  const trace: TraceOrder = { reason: 'ran', temporal: input.temporal, anchors: [], named: [], answers: [], neighbours: [] };
  if (!input.on) return { ...trace, reason: 'switched-off' };
  const oq = orderQuestion(input.query);
  if (oq === undefined) return { ...trace, reason: 'not-order' };
  trace.question = oq;
  const holder = holderOf(oq, input.speakers);
  const { nodes, named, term } = await findOrderAnchors(state, oq, input, holder);
  if (term !== undefined) trace.term = term;
  trace.anchors = nodes.map((n) => n.id);
  trace.named = named;
  if (nodes.length === 0 || term === undefined) return { ...trace, reason: 'no-anchor' };
  const names = new Set([...state.speakers.keys(), ...input.speakers, ...nodes.map((n) => canon(n.provenance.speaker) ?? '')].flatMap((x) => x.split(/\s+/)).filter((x) => x !== ''));
  trace.answers = nodes.filter((n) => answersItself(n, oq, term, { language: input.language, names, termVectors: input.termVectors })).map((n) => n.id);
  trace.neighbours = await orderNeighbours(state, oq, nodes, term, input, holder);
  if (trace.neighbours.length === 0) return { ...trace, reason: 'no-neighbour' };
  await draw([...nodes, ...trace.neighbours.map((x) => state.nodes.get(x.id) as MemoryNode)]);
  return trace;
}
