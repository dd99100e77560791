/**
 * Facts that change (issue 14; SPEC 4, maintenance's obsolescence in a bounded neighbourhood): the
 * state-update decision of System One (system-one/state-update.ts, the trained state-update head)
 * asked of one newer node against a bounded set of older nodes. At P ≥ the threshold the newer
 * node gets a semantic `updates` edge to the older one, which becomes `superseded` (its
 * `supersededBy` gains the newer id; it is never deleted or rewritten).
 *
 * Asked twice, both bounded: by the write path, against the write's ≤ K_w candidates (eq. (8)),
 * so a move is linked when it is written; and by maintenance, against the node's
 * `STATE_UPDATE_NEIGHBOURS` nearest older memories by vector, which "I live in Porto" and "we
 * moved to Berlin" may need (they share few words). Pure planning: the caller commits.
 *
 * Who holds a state (issue 24): a state is held by a person, and only a statement by (or about)
 * that holder replaces it. A turn whose speaker is an assistant role ({@link ASSISTANT_ROLES}:
 * an answer, advice, a recommendation) holds no state of its own and cannot report news of the
 * user's life: it is never asked, on either side ({@link holdsNoState}). What an assistant said
 * stays what it said; the user's own turns carry the user's states.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { stateUpdateReaching, type StateReadings, type StateSide, type StateUpdateHead } from '../system-one/state-update.js';
import { stateUpdateCeiling, type StateUpdateCeiling } from '../system-one/state-update-ceiling.js';
import { sameNfc } from '../util/nfc.js';
import { passageOf } from './passage.js';
import { finishEdge } from './structure.js';

/**
 * Roles (lower-cased, trimmed) whose turns hold no state ({@link holdsNoState}): the
 * assistant of a user/assistant chat, by the names chat APIs give it (`assistant` in OpenAI and
 * Anthropic messages, `model` in Gemini's, `ai` / `bot` in others). `user`, `human`, `system`,
 * `tool` and every name are not in it.
 */
export const ASSISTANT_ROLES: ReadonlySet<string> = new Set(['assistant', 'ai', 'bot', 'model']);

/**
 * True when a node is an assistant's turn: its text is an answer or advice, not a state of a
 * holder, so the automatic state-update decision neither supersedes it nor lets it supersede
 * another node (issue 24: a long travel answer, "For a first visit to Denver, I would stay in …",
 * was marked superseded by a later checklist answer at P = 0.855). An explicit update
 * (`Memory.update`) still supersedes any node.
 *
 * The role is read where the caller carried it, `provenance.metadata.role` (`Observation.role`, the
 * `role` of a chat message, set by the AI SDK middleware and the MCP `remember` tool), so an
 * assistant with a name of its own (`{ role: 'assistant', name: 'Aria' }`, the middleware's
 * `speakers.assistant`) is recognised and a person called "Bot" with role `user` is not. Without
 * a role (LoCoMo and other transcripts, whose speakers are people, and older stores), the
 * speaker's name is compared with {@link ASSISTANT_ROLES}.
 */
export function holdsNoState(n: Pick<MemoryNode, 'provenance'>): boolean {
  const role = n.provenance.metadata?.['role'];
  const label = typeof role === 'string' ? role : n.provenance.speaker;
  return label !== undefined && ASSISTANT_ROLES.has(label.trim().toLowerCase());
}

/**
 * True when two nodes belong to one scope (the `userId` and `agentId` a memory keeps in
 * `provenance.metadata`, issue 23): both equal, an absent one equal only to an absent one. A
 * state is held within its scope, so one user's "I live in Rome" never supersedes another user's
 * "I live in Porto" in a shared namespace, nor a scoped memory an unscoped one (or the reverse).
 */
export function sameScope(a: Pick<MemoryNode, 'provenance'>, b: Pick<MemoryNode, 'provenance'>): boolean {
  const ma = a.provenance.metadata;
  const mb = b.provenance.metadata;
  return sameNfc(ma?.['userId'], mb?.['userId']) && sameNfc(ma?.['agentId'], mb?.['agentId']); // NFC: a store written before ids were stored in NFC (util/nfc.ts)
}

/**
 * The `provenance.metadata` field that names the slot a memory was written to by an explicit key
 * (`Observation.metadata.stateKey`, a string): the LangGraph store writes its item's key there.
 * A key-value store changes a key's value by an explicit update (`Memory.update`), and one key's
 * put never changes another key (issue 22, h-break9: putting `home` twice superseded the item of
 * `pet`). So the inferred state-update decision only pairs memories of one key: two keyed
 * memories of the same key, or two unkeyed ones ({@link sameStateKey}).
 */
export const STATE_KEY_METADATA = 'stateKey';

/**
 * True when two nodes may replace each other by inference: both carry the same
 * {@link STATE_KEY_METADATA} string, or neither carries one. A keyed memory and an unkeyed one,
 * or memories of two keys, are never paired (an explicit `Memory.update` still replaces any).
 */
export function sameStateKey(a: Pick<MemoryNode, 'provenance'>, b: Pick<MemoryNode, 'provenance'>): boolean {
  const ka = keyOf(a);
  const kb = keyOf(b);
  return (typeof ka === 'string' ? ka : undefined) === (typeof kb === 'string' ? kb : undefined);
}

/** A node's explicit key: `stateKey`, else `lgKey` (LangGraph items written before `stateKey` was). */
function keyOf(n: Pick<MemoryNode, 'provenance'>): unknown {
  const m = n.provenance.metadata;
  return m?.[STATE_KEY_METADATA] ?? m?.['lgKey'];
}

/** The time a node holds a state from: its observation time, else its ingestion time (epoch ms). */
export function stateTimeOf(n: MemoryNode): number {
  return Date.parse(n.observedAt ?? n.ingestedAt);
}

/** What {@link planStateUpdates} adds. */
export interface StateUpdatePlan {
  /** New `updates` edges (newer → older), not already stored. */
  edges: MemoryEdge[];
  /** Older nodes as they become: `superseded`, the newer id added to `supersededBy`. */
  superseded: MemoryNode[];
}

/**
 * The state-update decisions between `node` (just written, or pending maintenance) and the nodes
 * of `otherIds` written before it (`seq`). Time decides which side is the newer, not the order of
 * writing:
 * - an other node whose time is earlier (or equal: then the order of writing breaks the tie, the
 *   node counting as 1 ms later) is asked as the older side: does `node` update it?
 * - an other node whose time is later (a history written out of order) is asked as the newer
 *   side: does it update `node`? Then `node` itself is superseded by it.
 * Only active nodes are asked (a superseded state has been replaced already; its replacement is
 * the one a newer change updates), except an older superseded node all of whose replacements are
 * later than `node`: `node` goes in between, first in its `supersededBy`. The replacements must be
 * loaded (`superseders`). Nothing is planned for a pair where either side {@link holdsNoState}
 * (an assistant's turn), nor between nodes of different scopes ({@link sameScope}) or of different
 * explicit keys ({@link sameStateKey}). `superseded` maps ids to the latest planned form of a node
 * (read first, updated in place), so decisions of one batch accumulate; `node` is read from it too.
 * @param threshold Decision threshold in [0,1] (`maintenanceThreshold`, SPEC 8: 0.85).
 * @param head The state-update head that decides (`parameters.stateUpdateHead`).
 * @param nowIso Creation time of the edges (ISO 8601).
 * @param readings Side readings shared across calls (issue 25: a bulk write reads each text once
 *   for all its writes and its maintenance pass); a fresh map per call when absent. A reading
 *   depends on the speaker and text only, so the decisions are the same either way.
 * @param replacesNamed `node` is a version written by an explicit update (`Memory.update`; see
 *   {@link namesWhatItReplaces}): the user named the memory it replaces, so it is not asked as the
 *   newer side of any other pair (h-endgate, issue 22: `update(n1, 'note 4 changed')` superseded
 *   all seven notes). It can still be replaced by a memory later than it.
 */
export function planStateUpdates(
  state: NamespaceState,
  node: MemoryNode,
  otherIds: Iterable<string>,
  threshold: number,
  nowIso: string,
  superseded: Map<string, MemoryNode>,
  head: StateUpdateHead = 'logistic',
  readings?: StateReadings,
  replacesNamed = false,
): StateUpdatePlan {
  const out: StateUpdatePlan = { edges: [], superseded: [] };
  if (holdsNoState(node)) return out; // an assistant's answer neither replaces nor is replaced
  const t = stateTimeOf(node);
  const memo: StateReadings = readings ?? new Map(); // each text read once for all its pairs
  const seen = new Set<string>();
  let ceiling: StateUpdateCeiling | undefined; // of the node as the newer side (its text and speaker)
  // A long text is read as its passage (write/passage.ts): its reading costs O(1) in its length.
  // One side object per node and time (h-writeperf2): the head's caches know a side they saw.
  const sides = new Map<MemoryNode, StateSide>();
  const side = (n: MemoryNode, timeMs: number): StateSide => {
    const hit = sides.get(n);
    if (hit !== undefined && hit.timeMs === timeMs) return hit;
    const made: StateSide = { text: passageOf(n.text), speaker: n.provenance.speaker, timeMs };
    sides.set(n, made);
    return made;
  };
  const link = (newer: MemoryNode, older: MemoryNode, p: number, model: string): void => {
    const e = finishEdge(state.namespace, { from: newer.id, to: older.id, view: 'semantic', subtype: 'updates', weight: p, origin: { kind: 'system-one', by: model } }, nowIso);
    if (!state.hasEdge(e)) out.edges.push(e);
    // The earliest replacement first: `supersededAt` is the time of supersededBy[0].
    const next: MemoryNode = { ...older, status: 'superseded', supersededBy: [...new Set([newer.id, ...older.supersededBy])] };
    superseded.set(older.id, next);
    out.superseded.push(next);
  };
  for (const id of otherIds) {
    if (seen.has(id)) continue;
    seen.add(id);
    const self = superseded.get(node.id) ?? node;
    if (self.status !== 'active') break; // superseded by a later history line: nothing more to replace
    const other = superseded.get(id) ?? state.nodes.get(id);
    if (!other || other.id === node.id || other.seq >= node.seq || holdsNoState(other) || !sameScope(node, other) || !sameStateKey(node, other)) continue;
    const tOther = stateTimeOf(other);
    // A superseded state is asked again only when every replacement of it is later than `node`
    // (a history written out of order: Porto, replaced by Madrid, gets Lisbon in between).
    if (other.status !== 'active' && !(other.status === 'superseded' && tOther <= t && other.supersededBy.every((by) => {
      const r = superseded.get(by) ?? state.nodes.get(by);
      return r !== undefined && stateTimeOf(r) > t;
    }))) continue;
    if (tOther <= t) {
      if (replacesNamed) continue; // an explicit update replaces what it names, nothing more
      const newer = side(self, tOther === t ? t + 1 : t);
      const older = side(other, tOther);
      if (head === 'logistic') {
        // Issue 25: a pair the logistic head cannot decide at or above the threshold is not read
        // (state-update-ceiling.ts: a bound from the newer side, then from the older side's frame
        // words); every pair that could reach it is decided as before.
        ceiling ??= stateUpdateCeiling(newer, memo);
        if (ceiling.ceiling < threshold || ceiling.pair(older) < threshold) continue;
      }
      // A pair whose answer cannot reach the threshold is not read whole (stateUpdateReaching).
      const d = stateUpdateReaching(newer, older, memo, head, threshold);
      if (d !== undefined && d.probability >= threshold) link(self, other, d.probability, d.model);
    } else {
      const d = stateUpdateReaching(side(other, tOther), side(self, t), memo, head, threshold);
      if (d !== undefined && d.probability >= threshold) link(other, self, d.probability, d.model);
    }
  }
  return out;
}

/** The `origin.by` of the `updates` edge an explicit update (`Memory.update`) writes from the new version to the old. */
export const EXPLICIT_UPDATE = 'explicit-update';

/**
 * True when node `id` is a version written by an explicit update: it holds an `updates` edge
 * of origin {@link EXPLICIT_UPDATE} to the memory it replaces. The user named what it replaces,
 * so no other replacement is inferred for it (maintenance passes it as `replacesNamed` to
 * {@link planStateUpdates}). Its edges must be loaded (`state.loadEdges`).
 */
export function namesWhatItReplaces(state: NamespaceState, id: string): boolean {
  return state.edgesOf(id).some((e) => e.from === id && e.subtype === 'updates' && e.origin.kind === 'rule' && e.origin.by === EXPLICIT_UPDATE);
}

/** Ids of the nodes that replaced the superseded ones of `ids` (to load before {@link planStateUpdates}). */
export function superseders(state: NamespaceState, ids: Iterable<string>): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const n = state.nodes.get(id);
    if (n?.status === 'superseded') out.push(...n.supersededBy);
  }
  return out;
}
