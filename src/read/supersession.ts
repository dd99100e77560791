/**
 * Supersession in the final ranking (issue 24): which superseded memories are demoted for a
 * question ({@link demotesSuperseded}, {@link replacedFor}), the replacement taking the replaced
 * memory's place ({@link liftReplacements}, h-break10 finding 3), and the cap that keeps a
 * replaced memory below what replaced it ({@link supersessionCaps}). recalled.ts runs them.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import { tokenize } from '../plane/text/text.js';
import { sameStateSlot } from '../system-one/state-update.js';
import { slotsOf } from '../system-one/state-update-slots.js';
import type { MemoryNode } from '../types.js';
import type { QuestionWindow } from './when.js';

/**
 * Superseded memories keep their place in recall, their score × this factor when demoted (issue 7
 * item 1), and rank below what replaced them when it is about the same slot ({@link replacesSlot}).
 */
export const SUPERSEDED_FACTOR = 0.8;

/**
 * Whether `newer`, which replaced `older`, is about the same slot of state (system-one
 * state-update.ts `sameStateSlot`: "We moved to Berlin" and "I live in Porto"; a pair the slot
 * words cannot read counts as one). Only then does the replaced memory rank below it (h-falsesup,
 * h-break9): a memory replaced by one about another slot ("I have two cats, Mika and Tuva" by
 * "we bought a cabin near Lillehammer", a false supersession) keeps its score ×
 * {@link SUPERSEDED_FACTOR}, so the query "cats" still finds it instead of ranking it below every
 * memory the cabin outranks.
 */
export function replacesSlot(older: MemoryNode, newer: MemoryNode): boolean {
  const side = (n: MemoryNode) => ({ text: n.text, speaker: n.provenance.speaker, timeMs: 0 });
  return sameStateSlot(side(newer), side(older));
}


/**
 * Whether a superseded memory is demoted for a question (issue 24): a replaced state still
 * answers a question about the past, so it is demoted (× {@link SUPERSEDED_FACTOR}, and ranked
 * below what replaced it, {@link supersessionCaps}) only for a question about the present or with
 * no time. Never demoted: for a question about the past or the whole history (`past`: "Where did
 * I live before?", "What has Melanie painted?"), nor for one whose window ends before the
 * memory was replaced (the time of its earliest replacement, `supersededBy[0]`: "Where did I
 * live in 2019?" keeps Porto, replaced in 2023), nor when the question is asked at a time
 * (`asOfMs`, `RecallOptions.now`) before the replacement was observed. An active memory is never demoted.
 * @param nodeOf a loaded node by id (the replacement; undefined when not loaded: demoted)
 */
export function demotesSuperseded(
  node: Pick<MemoryNode, 'status' | 'supersededBy'>,
  question: { past?: boolean; window?: QuestionWindow; asOfMs?: number },
  nodeOf: (id: string) => Pick<MemoryNode, 'observedAt' | 'ingestedAt'> | undefined,
): boolean {
  if (node.status !== 'superseded') return false;
  if (question.past === true) return false;
  if (question.window === undefined && question.asOfMs === undefined) return true;
  const by = node.supersededBy[0] === undefined ? undefined : nodeOf(node.supersededBy[0]);
  if (by === undefined) return true;
  const replacedMs = Date.parse(by.observedAt ?? by.ingestedAt);
  if (!Number.isFinite(replacedMs)) return true;
  // Asked at a time before the replacement was said: the state still held then (h-break7 finding 3).
  if (question.asOfMs !== undefined && question.asOfMs < replacedMs) return false;
  return !(question.window !== undefined && question.window.endMs < replacedMs);
}


/** The slots of state a question names (state-update-slots.ts `slotsOf` on its words; "Who is my partner?": partner). */
export function questionSlots(query: string): ReadonlySet<string> {
  return slotsOf(tokenize(query));
}

/**
 * Whether a replacement answers the question for what it replaced (h-break10 finding 3): when
 * the question names slots of state ("Who is my partner?": partner) and the replaced memory
 * names one of them, the replacement must name one of them too. A message of several facts ("I'm
 * a developer at Ledgerly and I live in Lisbon with my partner Tomás") replaced by a move and a
 * new job does not answer "Who is my partner?": nothing replaced that fact, so the message is not
 * demoted for that question. A question naming no slot, or a replaced memory naming none of the
 * question's: it counts as answered (demoted as before). A replacement naming no slot at all
 * answers only when `older` is not given; given, `older` names a slot the question names, and a
 * replacement that names none ("Tiago and I broke up" for "My boyfriend Tiago and I have a dog
 * named Lua", asked "Where is my dog?") does not answer it: the message is not demoted.
 */
export function answersQuestion(newer: Pick<MemoryNode, 'text'>, slots: ReadonlySet<string>, older?: Pick<MemoryNode, 'text'>): boolean {
  if (slots.size === 0) return true;
  if (older !== undefined && !namesQuestionSlot(older, slots)) return true;
  const own = slotsOf(tokenize(newer.text));
  // The replaced memory names a slot the question asks about: a replacement that names no slot
  // ("Tiago and I broke up" for "My boyfriend Tiago and I have a dog named Lua", asked "Where is
  // my dog?") does not say that fact changed, so the message keeps its place (h-break11 finding 2),
  // unless that slot is the only one the replaced memory holds (h-break15 finding 3): "I quit
  // Acme" replacing "I work as a designer at Acme" can only have changed the job.
  if (own.size === 0) return older === undefined || holdsOnlyQuestionSlot(older, slots);
  for (const s of own) if (slots.has(s)) return true;
  return false;
}

/**
 * Whether a memory names exactly one slot of state and the question names it ("I have a cat
 * named Miso" for "Do I have a cat?": pet). A replacement the write path linked to such a memory
 * is about that slot whatever its words ("Miso died last week"), since there is no other state
 * of the memory it could have changed (h-break15 finding 3).
 */
export function holdsOnlyQuestionSlot(older: Pick<MemoryNode, 'text'>, slots: ReadonlySet<string>): boolean {
  const own = slotsOf(tokenize(older.text));
  if (own.size !== 1) return false;
  for (const s of own) return slots.has(s);
  return false;
}

/** Whether a replacement names a slot the question names (both name one; {@link questionSlots}). */
export function namesQuestionSlot(newer: Pick<MemoryNode, 'text'>, slots: ReadonlySet<string>): boolean {
  if (slots.size === 0) return false;
  for (const s of slotsOf(tokenize(newer.text))) if (slots.has(s)) return true;
  return false;
}

/**
 * The replacement links recall follows for a question. `caps`: a replacement about the replaced
 * memory's slot ({@link replacesSlot}) that answers the question ({@link answersQuestion}): the
 * replaced memory is demoted and ranked below it. `lifts`: of those, one that names a slot the
 * question names ({@link namesQuestionSlot}; "Where do I live?" and "we're moving to Ireland"):
 * it takes the replaced memory's place ({@link liftReplacements}). A replacement whose words name
 * no slot is not lifted: false supersessions between small talk ("I am planning a birthday
 * party" replaced by "I cooked curry for friends") would raise unrelated turns; except when the
 * replaced memory holds only the question's slot ({@link holdsOnlyQuestionSlot}: "I have a cat
 * named Miso" then "Miso died last week", asked "Do I have a cat?").
 */
export function questionLinks(query: string): { caps: (older: MemoryNode, newer: MemoryNode) => boolean; lifts: (older: MemoryNode, newer: MemoryNode) => boolean } {
  const slots = questionSlots(query);
  const caps = (older: MemoryNode, newer: MemoryNode): boolean => replacesSlot(older, newer) && answersQuestion(newer, slots, older);
  const lifts = (older: MemoryNode, newer: MemoryNode): boolean => caps(older, newer) && (namesQuestionSlot(newer, slots) || (slotsOf(tokenize(newer.text)).size === 0 && holdsOnlyQuestionSlot(older, slots)));
  return { caps, lifts };
}

/**
 * Whether a superseded memory has a replacement that counts for the question: one of its direct
 * replacements `links` accepts, or one not loaded (its text unknown: it counts, as before).
 */
export function replacedFor(node: MemoryNode, nodeOf: (id: string) => MemoryNode | undefined, links: (older: MemoryNode, newer: MemoryNode) => boolean): boolean {
  return node.supersededBy.some((id) => {
    const by = nodeOf(id);
    return by === undefined || links(node, by);
  });
}

/**
 * The replacement takes the replaced memory's place (h-break10 finding 3): for each memory
 * `applies` accepts (demoted for the question), every recalled memory that replaced it, directly
 * or along a chain of links `links` accepts (through versions not recalled too), and is not
 * demoted itself (the current version, for the question), is raised to at least the score the
 * replaced memory would have without the demotion, its score ÷ {@link SUPERSEDED_FACTOR}. {@link supersessionCaps} then keeps the replaced memory below it:
 * "Where do I live?" ranks "we're moving to Dublin" where "I live in Lisbon" ranked, and Lisbon
 * after it, instead of burying Lisbon under a replacement the question matched less well.
 * A replacement that was not recalled is not drawn in. Cycles are cut where met.
 * @returns the scores, in item order
 */
export function liftReplacements(
  items: ReadonlyArray<{ node: MemoryNode; score: number }>,
  nodeOf: (id: string) => MemoryNode | undefined,
  applies: (node: MemoryNode) => boolean,
  links: (older: MemoryNode, newer: MemoryNode) => boolean,
): number[] {
  const out = items.map((x) => x.score);
  const at = new Map(items.map((x, i) => [x.node.id, i]));
  items.forEach((x) => {
    if (!applies(x.node) || !(x.score > 0)) return;
    const undemoted = x.score / SUPERSEDED_FACTOR;
    const seen = new Set([x.node.id]);
    const walk = (n: MemoryNode): void => {
      if (n.status !== 'superseded') return;
      for (const id of n.supersededBy) {
        const by = nodeOf(id) ?? items[at.get(id) ?? -1]?.node;
        if (by === undefined || seen.has(id) || !links(n, by)) continue;
        seen.add(id);
        const j = at.get(id);
        if (j !== undefined && !applies(by)) out[j] = Math.max(out[j] as number, undemoted);
        walk(by);
      }
    };
    walk(x.node);
  });
  return out;
}

/** At most this many chain links beyond the recalled memories are read per recall. */
const CHAIN_READ_LIMIT = 2048;

/**
 * Loads the memories that replaced the recalled superseded ones, and those that replaced them,
 * to the ends of their chains (at most {@link CHAIN_READ_LIMIT} nodes), so that
 * {@link supersessionCaps} can follow a chain through versions that were not recalled.
 * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
 */
export async function loadChains(state: NamespaceState, nodes: readonly MemoryNode[]): Promise<void> {
  const seen = new Set(nodes.map((n) => n.id));
  let frontier = nodes;
  let read = 0;
  while (frontier.length > 0 && read < CHAIN_READ_LIMIT) {
    const next = [...new Set(frontier.flatMap((n) => (n.status === 'superseded' ? n.supersededBy : [])))].filter((id) => !seen.has(id)).slice(0, CHAIN_READ_LIMIT - read);
    if (next.length === 0) return;
    next.forEach((id) => seen.add(id));
    read += next.length;
    await state.loadNodes(next);
    frontier = next.flatMap((id) => state.nodes.get(id) ?? []);
  }
}

/** The gap a superseded memory is kept below the lowest memory that replaced it. */
const SUPERSEDED_GAP = 1e-6;

/**
 * Caps the scores of superseded memories so that each ranks below every memory that replaced it,
 * directly or through a chain (a → b → c: a below b and c, whether or not b was recalled), for
 * explicit updates and System One's supersessions alike. A memory's cap is the lowest final
 * score among the recalled memories downstream of it, less {@link SUPERSEDED_GAP} (never below 0
 * unless that score is itself negative). `depth` (how many recalled replacements lie below a
 * memory along its longest chain; 0 when none) breaks the ties the floor leaves: sorted by score,
 * then depth ascending, every replaced memory comes after its replacements. A memory `applies`
 * refuses (not demoted for the question: {@link demotesSuperseded}) keeps its score and depth 0. Cycles (never written,
 * but a damaged store could hold one) are cut where met.
 * @param items the recalled memories with their scores before the cap
 * @param nodeOf a loaded node by id (undefined when not loaded or gone): the chain's links that
 *   were not recalled are followed through it
 * @param applies whether an item's memory is capped (default: every one)
 * @param links whether a replacement link (older, newer) caps: a link it refuses is not followed
 *   ({@link replacesSlot} in recall; default: every link)
 * @returns per item, in order, the capped score and the depth
 */
export function supersessionCaps(
  items: ReadonlyArray<{ node: MemoryNode; score: number }>,
  nodeOf: (id: string) => MemoryNode | undefined,
  applies: (node: MemoryNode) => boolean = () => true,
  links: (older: MemoryNode, newer: MemoryNode) => boolean = () => true,
): Array<{ score: number; depth: number }> {
  const recalled = new Map(items.map((x) => [x.node.id, x]));
  type Downstream = { below: number; depth: number };
  const none: Downstream = { below: Infinity, depth: 0 };
  const memo = new Map<string, Downstream>();
  const visiting = new Set<string>();
  const capped = (score: number, after: Downstream): number => {
    if (score < after.below - SUPERSEDED_GAP) return score;
    return after.below - SUPERSEDED_GAP >= 0 ? after.below - SUPERSEDED_GAP : Math.min(after.below, 0);
  };
  // The lowest final score of a recalled memory downstream of `id` (Infinity: none) and its depth.
  const downstream = (id: string): Downstream => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const node = recalled.get(id)?.node ?? nodeOf(id);
    if (visiting.has(id) || node === undefined || node.status !== 'superseded') return none;
    visiting.add(id);
    let below = Infinity;
    let depth = 0;
    for (const by of node.supersededBy) {
      const next = recalled.get(by)?.node ?? nodeOf(by);
      if (next !== undefined && !links(node, next)) continue; // a replacement of another slot
      const after = downstream(by);
      const own = recalled.get(by);
      if (own !== undefined) {
        below = Math.min(below, applies(own.node) ? capped(own.score, after) : own.score);
        depth = Math.max(depth, after.depth + 1);
      } else if (after.below < Infinity) {
        below = Math.min(below, after.below);
        depth = Math.max(depth, after.depth);
      }
    }
    visiting.delete(id);
    const out = { below, depth };
    memo.set(id, out);
    return out;
  };
  return items.map((x) => {
    if (!applies(x.node)) return { score: x.score, depth: 0 };
    const after = downstream(x.node.id);
    return { score: capped(x.score, after), depth: after.depth };
  });
}
