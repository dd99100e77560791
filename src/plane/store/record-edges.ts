/**
 * Edge writes of the record store: deletes and puts of edges applied to the adjacency records
 * of their ends (`record-adjacency.ts`), with the `edge-ids` records of edges whose id is stored
 * and the namespace's edge counters (its {@link SpaceRecord}), inside one driver transaction.
 * Used by a commit and by the IndexedDB version 1 → 2 upgrade.
 *
 * @module
 */
import type { MemoryEdge } from '../../types.js';
import type { RecordTx } from '../drivers/record-driver.js';
import { type Adjacency, type AdjacencyRecord, decodeAdjacency, edgeIdCandidates, encodeAdjacency, isCanonicalEdge } from './record-adjacency.js';
import { appendAdjacency, hasCanonicalOut } from './record-adjacency-append.js';
import type { SpaceRecord } from './record-codec.js';

/**
 * Applies edge deletes, then edge puts, to the adjacency records of one namespace inside `tx`:
 * reads the records of the ends involved (all gets issued at once), changes them in memory and
 * puts them (an emptied record is deleted; a record that only gains edges is appended to,
 * `appendAdjacency`, not encoded again whole), with the `edge-ids` records; the counters of
 * `space` are changed in place (the caller puts it). Awaits only reads of `tx`. Cost: the degree
 * of the nodes touched (read and decoded), never the size of the store.
 * @throws Error on a malformed adjacency record (the caller's transaction then fails whole).
 */
export async function applyEdges(tx: RecordTx, namespace: string, space: SpaceRecord, deleteIds: readonly string[], puts: readonly MemoryEdge[]): Promise<void> {
  if (deleteIds.length === 0 && puts.length === 0) return;
  /** The records as read, by node (undefined: the node had no edge). */
  const stored = new Map<string, AdjacencyRecord | undefined>();
  /**
   * The adjacencies decoded so far, as changed. A record is decoded only when this call must
   * change what it holds (an edge removed or replaced there) or encode it whole; the ends of a
   * new edge are only appended to (its `from` end searched for the edge's id undecoded).
   */
  const loaded = new Map<string, Adjacency>();
  const load = async (ids: Iterable<string>): Promise<void> => {
    const list = [...new Set(ids)].filter((id) => !stored.has(id));
    const records = await Promise.all(list.map((id) => tx.get('adj', namespace, id)));
    list.forEach((id, i) => stored.set(id, records[i] as AdjacencyRecord | undefined));
  };
  const wanted: string[] = [];
  const addCandidates = (id: string): void => {
    for (const c of edgeIdCandidates(id)) wanted.push(c.from, c.to);
  };
  for (const id of deleteIds) addCandidates(id);
  for (const e of puts) {
    wanted.push(e.from, e.to);
    addCandidates(e.id);
  }
  await load(wanted);
  // Ends of edges whose id is stored; null: no such edge (or removed in this batch).
  const ends = new Map<string, [string, string] | null>();
  if (space.explicit > 0) {
    const ids = [...new Set([...deleteIds, ...puts.map((e) => e.id)])];
    const found = (await Promise.all(ids.map((id) => tx.get('edge-ids', namespace, id)))) as Array<[string, string] | undefined>;
    ids.forEach((id, i) => ends.set(id, found[i] ?? null));
    await load(found.flatMap((pair) => pair ?? []));
  }
  const idWrites = new Map<string, [string, string] | null>();
  const touched = new Set<string>();
  // Nodes whose record only GAINS edges are appended to (appendAdjacency: their old entries are
  // not decoded and encoded again, the cost that grew with the degree); a node that loses or
  // replaces an edge is encoded whole.
  const added = new Map<string, { out: MemoryEdge[]; in: MemoryEdge[] }>();
  const rewritten = new Set<string>();
  const addedTo = (node: string): { out: MemoryEdge[]; in: MemoryEdge[] } => {
    let a = added.get(node);
    if (a === undefined) {
      a = { out: [], in: [] };
      added.set(node, a);
    }
    return a;
  };
  /** The node's adjacency as this call has changed it so far (decoded now when it was not yet: the record, then the edges added to it). */
  const adjacencyOf = (node: string): Adjacency => {
    let a = loaded.get(node);
    if (a === undefined) {
      if (!stored.has(node)) throw new Error(`internal: adjacency of ${JSON.stringify(node)} was not read`);
      try {
        a = decodeAdjacency(namespace, node, stored.get(node));
      } catch {
        // A record from before the seal that does not decode: rewritten with what this batch leaves.
        a = { out: new Map(), in: new Map() };
      }
      // Until now only additions reached it (a removal decodes first).
      for (const e of added.get(node)?.out ?? []) a.out.set(e.id, e);
      for (const e of added.get(node)?.in ?? []) a.in.set(e.id, e);
      loaded.set(node, a);
    }
    return a;
  };
  const count = (view: string, by: number): void => {
    space.edges += by;
    space.byView[view] = (space.byView[view] ?? 0) + by;
  };
  const remove = (id: string): void => {
    const candidates = edgeIdCandidates(id);
    const froms = new Set(candidates.map((c) => c.from));
    const pair = ends.get(id);
    if (pair) froms.add(pair[0]);
    for (const from of froms) {
      if (!stored.has(from)) continue;
      // No edge of the namespace has `id` stored (`pair` unset): only an entry with the canonical
      // id can be it, looked for in the record without decoding it, or an edge this call added.
      if (!pair && !loaded.has(from) && !candidates.some((c) => c.from === from && hasCanonicalOut(stored.get(from), c.to, c.view, c.subtype)) && !(added.get(from)?.out.some((e) => e.id === id) ?? false)) continue;
      const edge = adjacencyOf(from).out.get(id);
      if (edge === undefined) continue;
      adjacencyOf(from).out.delete(id);
      adjacencyOf(edge.to).in.delete(id);
      touched.add(from).add(edge.to);
      rewritten.add(from).add(edge.to);
      count(edge.view, -1);
      if (!isCanonicalEdge(edge)) {
        space.explicit--;
        ends.set(id, null);
        idWrites.set(id, null);
      }
      return;
    }
  };
  for (const id of deleteIds) remove(id);
  for (const edge of puts) {
    remove(edge.id);
    loaded.get(edge.from)?.out.set(edge.id, edge); // else replayed if it is decoded later
    addedTo(edge.from).out.push(edge);
    if (edge.from !== edge.to) {
      loaded.get(edge.to)?.in.set(edge.id, edge); // else replayed if it is decoded later
      addedTo(edge.to).in.push(edge);
    }
    touched.add(edge.from).add(edge.to);
    count(edge.view, 1);
    if (!isCanonicalEdge(edge)) {
      space.explicit++;
      ends.set(edge.id, [edge.from, edge.to]);
      idWrites.set(edge.id, [edge.from, edge.to]);
    }
  }
  for (const node of touched) {
    const old = stored.get(node);
    const gained = added.get(node);
    const record =
      (old !== undefined && gained !== undefined && !rewritten.has(node) ? appendAdjacency(node, old, gained.out, gained.in) : undefined) ?? encodeAdjacency(node, adjacencyOf(node));
    if (record === undefined) tx.delete('adj', namespace, node);
    else tx.put('adj', namespace, node, record);
  }
  for (const [id, pair] of idWrites) {
    if (pair === null) tx.delete('edge-ids', namespace, id);
    else tx.put('edge-ids', namespace, id, pair);
  }
  for (const view of Object.keys(space.byView)) if ((space.byView[view] ?? 0) <= 0) delete space.byView[view];
}
