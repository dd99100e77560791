/**
 * Later values of a state, read at recall time (issue 24, h-ku: knowledge updates asked without a
 * marker, "Where do I work?", "Which company am I working for currently?").
 *
 * The write path links a change to the state it replaces only within a bounded neighbourhood:
 * the write's ≤ K_w candidates (eq. (8)) and maintenance's nearest neighbours by vector. A job
 * change said in other words ("I accepted the offer! Starting Monday I'm a data analyst at
 * Bluefin Studios." after "I work as an account manager at Sable Energy"; cosine 0.3-0.6 with
 * this encoder) is often in neither, so the old statement stays active and the new one, which
 * holds no word of the question, is not even a candidate. A question about the present asks for
 * the current value of a slot of state; the statements that name that slot are few, so recall
 * asks the same question the write path would have asked, on them:
 *
 * 1. **Slots** S(q): the slots of state the question names (state-update-slots.ts `slotsOf`:
 *    "work" → job, "live" → home). A question naming none is left alone.
 * 2. **Seeds**: the {@link SUCCESSOR_SEEDS} best-scored candidates that are statements (not an
 *    assistant's turn, not a bare request) naming a slot of S(q).
 * 3. **Later statements**: the live memories that name a slot of S(q), found by the lexical
 *    index over the slots' words ({@link SUCCESSOR_HITS} hits) and among the candidates, of the
 *    seed's speaker and scope, observed after it and not after the question's time; the
 *    {@link SUCCESSOR_POOL} newest.
 * 4. **The update test**: the state-update head's P(u updates v) (system-one/state-update.ts,
 *    the head the memory writes with) ≥ θ_s ({@link SUCCESSOR_THRESHOLD}). For a seed the write
 *    path already superseded, its replacements are its successors (supersession.ts lifts them).
 *
 * The newest successor of each seed is scored into the candidates; the final ranking
 * ({@link successorLift}) raises it to just above its seed when the seed is among the
 * {@link SUCCESSOR_TOP} best, the seed keeping its score: the new value first, the old one next
 * (a question about the present is answered by the new value; benchmarks of this kind count the
 * old statement as evidence too). Nothing is written: the store keeps what the write path decided.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import { tokenize } from '../plane/text/text.js';
import { stateUpdateReaching, type StateReadings, type StateSide, type StateUpdateHead } from '../system-one/state-update.js';
import { SLOT_WORDS, slotsOf } from '../system-one/state-update-slots.js';
import type { MemoryNode } from '../types.js';
import { passageOf } from '../write/passage.js';
import { holdsNoState, sameScope, stateTimeOf } from '../write/state-updates.js';
import { isRequest } from './request.js';
import { questionSlots } from './supersession.js';
import { PRESENT_BOOST } from './when.js';

/** How many of the best-scored candidates naming the question's slots are read for later values. */
export const SUCCESSOR_SEEDS = 10;
/** Lexical hits of the slots' words read for later statements. */
export const SUCCESSOR_HITS = 200;
/** At most this many later statements (the newest) are asked against each seed. */
export const SUCCESSOR_POOL = 50;
/**
 * θ_s, the least P(u updates v) for u to count as the later value of v's slot at recall time.
 * Lower than the write path's 0.85 (SPEC 8): a link written is kept and makes the old state
 * `superseded` for every later question, while this one only orders two statements of the
 * question's slot for this question, and the old one keeps its place right after the new.
 * Chosen on the chats dev part (0.85, 0.7, 0.5).
 */
export const SUCCESSOR_THRESHOLD = 0.5;
/** A seed among this many best (final scores) lifts its successor. */
export const SUCCESSOR_TOP = 10;

/** A later value found for a seed: `newer` states a new value of `older`'s slot with probability `p`. */
export interface SuccessorPair {
  older: string;
  newer: string;
  p: number;
}

/** What the step did (`RecallTrace.successors`). */
export interface TraceSuccessors {
  /** The question's slots of state. */
  slots: string[];
  /** Seeds read. */
  seeds: string[];
  /** The pairs found (newest successor of each seed), newer drawn into the candidates. */
  pairs: SuccessorPair[];
}

/** What {@link successorStep} needs of the recall. */
export interface SuccessorInput {
  query: string;
  /** The question asks about the present (when.ts `asksPresent`); otherwise the step does not run. */
  present: boolean;
  /** The time the question is asked at, epoch ms (`RecallOptions.now`): later memories are not the present. */
  asOfMs?: number;
  /** The window and filter test. */
  passes: (n: MemoryNode) => boolean;
  /** The state-update head and threshold of the memory (`parameters.stateUpdateHead`). */
  head: StateUpdateHead;
  threshold?: number;
}

/** Words that name one of `slots` (the slot words of state-update-slots.ts). */
export function slotWordsOf(slots: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [w, ss] of SLOT_WORDS) if (ss.some((s) => slots.has(s))) out.push(w);
  return out;
}

/** True when a memory is a statement (not an assistant's turn, not a bare request) naming one of `slots`. */
function statesSlot(n: MemoryNode, slots: ReadonlySet<string>): boolean {
  if (n.status === 'deleted' || holdsNoState(n) || isRequest(n)) return false;
  for (const s of slotsOf(tokenize(n.text))) if (slots.has(s)) return true;
  return false;
}

/**
 * Finds, for a question about the present, the later value of the best candidates' slot of state
 * (see the module comment) and scores it into the candidates with `draw`.
 * @returns the trace, or undefined when the step did not run (not a present question, no slot named).
 * @throws JevMemError `STORAGE_FAILED` and the adapter's errors (loading nodes).
 */
export async function successorStep(state: NamespaceState, input: SuccessorInput, scored: ReadonlyMap<string, { node: MemoryNode; score: number }>, draw: (nodes: MemoryNode[]) => Promise<void>): Promise<TraceSuccessors | undefined> {
  if (!input.present) return undefined;
  const slots = questionSlots(input.query);
  if (slots.size === 0) return undefined;
  const seeds = [...scored.values()]
    .filter((s) => statesSlot(s.node, slots) && input.passes(s.node))
    .sort((a, b) => b.score - a.score)
    .slice(0, SUCCESSOR_SEEDS)
    .map((s) => s.node);
  const trace: TraceSuccessors = { slots: [...slots], seeds: seeds.map((n) => n.id), pairs: [] };
  if (seeds.length === 0) return trace;
  await state.lexical.ready?.();
  const hits = state.lexical.search(slotWordsOf(slots).join(' '), SUCCESSOR_HITS);
  await state.loadNodes(hits.map((h) => h.id));
  const asOf = input.asOfMs ?? Infinity;
  const later = new Map<string, MemoryNode>();
  for (const n of [...hits.map((h) => state.nodes.get(h.id)), ...[...scored.values()].map((s) => s.node)]) {
    if (n === undefined || later.has(n.id) || n.status !== 'active' || !input.passes(n) || stateTimeOf(n) > asOf || !statesSlot(n, slots)) continue;
    later.set(n.id, n);
  }
  const pool = [...later.values()].sort((a, b) => stateTimeOf(b) - stateTimeOf(a) || b.seq - a.seq);
  const memo: StateReadings = new Map();
  const sides = new Map<string, StateSide>();
  const side = (n: MemoryNode): StateSide => {
    let s = sides.get(n.id);
    if (s === undefined) sides.set(n.id, (s = { text: passageOf(n.text), speaker: n.provenance.speaker, timeMs: stateTimeOf(n) }));
    return s;
  };
  const threshold = input.threshold ?? SUCCESSOR_THRESHOLD;
  const drawn: MemoryNode[] = [];
  for (const v of seeds) {
    if (v.status !== 'active') continue; // superseded: its replacements are known (supersession.ts)
    const tv = stateTimeOf(v);
    const mine = pool.filter((u) => u.id !== v.id && u.provenance.speaker === v.provenance.speaker && sameScope(u, v) && stateTimeOf(u) > tv).slice(0, SUCCESSOR_POOL);
    // newest first: the first that updates v is its current value
    for (const u of mine) {
      const d = stateUpdateReaching(side(u), side(v), memo, input.head, threshold);
      if (d === undefined || d.probability < threshold) continue;
      trace.pairs.push({ older: v.id, newer: u.id, p: d.probability });
      drawn.push(u);
      break;
    }
  }
  // the write path's own replacements of superseded seeds, so that supersession.ts can lift them
  const replacements = seeds.flatMap((v) => (v.status === 'superseded' ? v.supersededBy : []));
  await state.loadNodes(replacements);
  for (const id of replacements) {
    const n = state.nodes.get(id);
    if (n !== undefined && n.status !== 'deleted' && input.passes(n) && stateTimeOf(n) <= asOf) drawn.push(n);
  }
  if (drawn.length > 0) await draw(drawn);
  return trace;
}

/**
 * Raises each found successor to just above its seed (score × (1 + {@link PRESENT_BOOST}), as
 * when.ts `presentLift` does) when the seed is among the {@link SUCCESSOR_TOP} best by score; the
 * seed keeps its score, so it ranks right after its later value.
 * @param items the candidates with their scores
 * @param pairs the step's pairs ({@link TraceSuccessors.pairs})
 * @returns the new scores, in item order
 */
export function successorLift(items: ReadonlyArray<{ id: string; score: number }>, pairs: readonly SuccessorPair[]): number[] {
  const out = items.map((x) => x.score);
  if (pairs.length === 0) return out;
  const at = new Map(items.map((x, i) => [x.id, i]));
  const top = new Set(
    items
      .map((_, i) => i)
      .sort((a, b) => (items[b]?.score as number) - (items[a]?.score as number))
      .slice(0, SUCCESSOR_TOP),
  );
  for (const p of pairs) {
    const i = at.get(p.older);
    const j = at.get(p.newer);
    if (i === undefined || j === undefined || !top.has(i)) continue;
    const s = items[i]?.score as number;
    out[j] = Math.max(out[j] as number, s >= 0 ? s * (1 + PRESENT_BOOST) : s);
  }
  return out;
}
