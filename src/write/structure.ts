/**
 * Write path stage 3: deterministic structure (SPEC 4 step 3). Edges that timestamps, sessions
 * and exact entity identifiers already answer, with no model call: consecutive turns of a
 * session (`precedes`), the first turn of a session (`same_session`), the previous session
 * (`precedes`, weaker), turns close in time across sessions (`close_in_time`), and exact shared
 * entities (`same_entity`, weight 1). Reads only bookkeeping maps of the namespace: O(1) per write.
 *
 * Scopes (issue 22/24): the rules that look at "the last node" (consecutive observations, the
 * previous session, close in time) read the last node of the new node's own scope
 * (`NamespaceState.lastIdOf`: same `userId` / `agentId`), so in a namespace shared by several
 * users each user's turns get the consecutive edges they would get in a namespace of their own;
 * in a namespace of one scope that is the namespace's last node, as before.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { EdgeSubtype, MemoryEdge, MemoryNode, View } from '../types.js';

/** An edge before ids and timestamps are given to it. */
export interface EdgeDraft {
  from: string;
  to: string;
  view: View;
  subtype: EdgeSubtype;
  weight: number;
  origin: { kind: 'rule' | 'system-one'; by: string };
}

/** How many latest mentions of an entity get an entity edge. */
export const ENTITY_LINKS_PER_ENTITY = 2;
/** Upper bound of deterministic entity edges per write. */
export const MAX_ENTITY_EDGES = 6;

/** Ids whose bodies {@link deterministicEdges} reads to test their scope: the session's ends, the scope's last node, and the latest {@link MENTION_WINDOW} mentions of each entity of `node`. */
export function structureReads(node: MemoryNode, state: NamespaceState): string[] {
  const ids: string[] = [];
  const sid = node.provenance.sessionId;
  const session = sid !== undefined ? state.sessions.get(sid) : undefined;
  if (session !== undefined) ids.push(session.lastId, session.firstId);
  const last = state.scopes.lastIdOf(node.provenance.metadata);
  if (last !== undefined) ids.push(last);
  for (const ent of node.entities) ids.push(...(state.mentions.get(ent) ?? []).slice(-MENTION_WINDOW));
  return ids;
}

/**
 * In a namespace of several scopes, loads older mentions of each entity of `node` (after
 * {@link structureReads}), {@link MENTION_WINDOW} at a time, until {@link MENTION_WINDOW} of the
 * loaded ones are in `node`'s scope or the kept mentions (`MENTIONS_KEPT`, book.ts) run out, so
 * the entity walk of {@link deterministicEdges} sees as many of the scope's own mentions as it
 * would alone (issue 22/24). A no-op in a namespace of one scope.
 * @param inScope As for {@link deterministicEdges}; called on loaded ids only.
 */
export async function loadScopeMentions(node: MemoryNode, state: NamespaceState, inScope: (id: string) => boolean): Promise<void> {
  if (state.scopes.only(node.provenance.metadata)) return;
  for (const ent of node.entities) {
    const ids = state.mentions.get(ent) ?? [];
    let from = Math.max(0, ids.length - MENTION_WINDOW);
    let found = ids.slice(from).filter((id) => state.nodes.has(id) && inScope(id)).length;
    while (found < MENTION_WINDOW && from > 0) {
      const next = Math.max(0, from - MENTION_WINDOW);
      const more = ids.slice(next, from);
      await state.loadNodes(more);
      found += more.filter((id) => state.nodes.has(id) && inScope(id)).length;
      from = next;
    }
  }
}

/**
 * How many latest mentions of an entity {@link structureReads} loads (8). Enough for the
 * unscoped walk, which takes {@link ENTITY_LINKS_PER_ENTITY} after skipping fewer than
 * {@link MAX_ENTITY_EDGES} ids linked already, so its edges are the same as without scopes; a
 * scoped write whose entity's latest mentions in this window are all another scope's gets no
 * entity edge for it (candidate discovery may still relate them). Bounded: O(1) loads per entity.
 */
export const MENTION_WINDOW = ENTITY_LINKS_PER_ENTITY + MAX_ENTITY_EDGES;

/**
 * Deterministic edges for `node` (not yet in `state`).
 * @param closeInTimeMs Turns of different sessions closer than this get `close_in_time`.
 * @param inScope Whether the node of an id is in `node`'s scope (same `userId` and `agentId`,
 *   `sameScope` of write/state-updates.ts): no edge joins `node` to a node it rejects, so two
 *   users' interleaved observations in one namespace are never linked (a rejected session turn
 *   or mention is skipped, the next mention of the entity taken instead; the last node read is
 *   the scope's own, see the module note). Default:
 *   every id (an unscoped namespace, where every node is in one scope).
 */
export function deterministicEdges(node: MemoryNode, state: NamespaceState, closeInTimeMs: number, inScope: (id: string) => boolean = () => true): EdgeDraft[] {
  const out: EdgeDraft[] = [];
  const rule = (by: string) => ({ kind: 'rule' as const, by });
  const t = node.observedAt !== undefined ? Date.parse(node.observedAt) : undefined;
  const sid = node.provenance.sessionId;
  const session = sid !== undefined ? state.sessions.get(sid) : undefined;
  // The last node of `node`'s scope (the namespace's last in a namespace of one scope).
  const lastId = state.scopes.lastIdOf(node.provenance.metadata);
  if (session !== undefined) {
    if (inScope(session.lastId)) out.push({ from: session.lastId, to: node.id, view: 'temporal', subtype: 'precedes', weight: 1, origin: rule('consecutive-turns') });
    if (session.firstId !== session.lastId && inScope(session.firstId)) {
      out.push({ from: node.id, to: session.firstId, view: 'temporal', subtype: 'same_session', weight: 0.5, origin: rule('session-start') });
    }
  } else if (lastId !== undefined && inScope(lastId)) {
    const last = state.nodes.get(lastId) as MemoryNode;
    const lastT = last.observedAt !== undefined ? Date.parse(last.observedAt) : undefined;
    if (sid === undefined && last.provenance.sessionId === undefined) {
      // A stream without sessions: consecutive observations precede each other.
      out.push({ from: last.id, to: node.id, view: 'temporal', subtype: 'precedes', weight: 1, origin: rule('consecutive-observations') });
    } else if (sid !== undefined && (t === undefined || lastT === undefined || lastT <= t)) {
      // First turn of a new session: the previous session's last turn precedes it.
      out.push({ from: last.id, to: node.id, view: 'temporal', subtype: 'precedes', weight: 0.5, origin: rule('previous-session') });
    }
  }
  if (t !== undefined && lastId !== undefined && inScope(lastId)) {
    const last = state.nodes.get(lastId) as MemoryNode;
    if (last.provenance.sessionId !== sid && last.observedAt !== undefined && !out.some((e) => e.from === last.id)) {
      const gap = Math.abs(t - Date.parse(last.observedAt));
      if (gap <= closeInTimeMs) {
        out.push({ from: last.id, to: node.id, view: 'temporal', subtype: 'close_in_time', weight: closeInTimeMs === 0 ? 1 : 1 - gap / closeInTimeMs / 2, origin: rule('close-in-time') });
      }
    }
  }
  const linked = new Set<string>();
  for (const ent of node.entities) {
    const ids = state.mentions.get(ent);
    if (!ids) continue;
    for (let i = ids.length - 1, n = 0; i >= 0 && n < ENTITY_LINKS_PER_ENTITY; i--) {
      const id = ids[i] as string;
      if (id === node.id || linked.has(id) || !inScope(id)) continue;
      linked.add(id);
      n++;
      out.push({ from: node.id, to: id, view: 'entity', subtype: 'same_entity', weight: 1, origin: rule('shared-entity') });
      if (linked.size >= MAX_ENTITY_EDGES) return out;
    }
  }
  return out;
}

/** Gives an edge draft its id and creation time. Ids are deterministic: one edge per (from, to, view, subtype). */
export function finishEdge(namespace: string, d: EdgeDraft, nowIso: string): MemoryEdge {
  return { id: `${d.from}>${d.to}:${d.view}:${d.subtype}`, namespace, from: d.from, to: d.to, view: d.view, subtype: d.subtype, weight: d.weight, origin: d.origin, createdAt: nowIso };
}
