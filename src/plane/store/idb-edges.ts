/**
 * Edge writes of the IndexedDB store: deletes and puts of edges applied to the adjacency records
 * of their ends (`idb-records.ts`), with the `edge-ids` records of edges whose id is stored and
 * the namespace's edge counts (`spaces`), inside one transaction. Used by a commit and by the
 * version 1 → 2 upgrade.
 *
 * @module
 */
import type { MemoryEdge } from '../../types.js';
import { type Adjacency, decodeAdjacency, edgeIdCandidates, encodeAdjacency, isCanonicalEdge } from './idb-records.js';
import { type AnyTx, emptySpace } from './idb-schema.js';

/**
 * Applies edge deletes, then edge puts, to the adjacency records of one namespace inside `tx`:
 * reads the records of the ends involved (all gets issued at once), changes them in memory and
 * issues their puts (an emptied record is deleted), with the `edge-ids` records and the
 * namespace's counts. Awaits only requests of `tx`. Cost: the degree of the nodes touched, never
 * the size of the store. Write requests go to `ops` (the caller awaits them with the transaction).
 * @throws Error on a malformed adjacency record (the caller aborts `tx`).
 */
export async function applyEdges(tx: AnyTx, namespace: string, deleteIds: readonly string[], puts: readonly MemoryEdge[], ops: Promise<unknown>[]): Promise<void> {
  if (deleteIds.length === 0 && puts.length === 0) return;
  const adjStore = tx.objectStore('adj');
  const idStore = tx.objectStore('edge-ids');
  const spaceStore = tx.objectStore('spaces');
  const loaded = new Map<string, Adjacency>();
  const load = async (ids: Iterable<string>): Promise<void> => {
    const list = [...new Set(ids)].filter((id) => !loaded.has(id));
    const records = await Promise.all(list.map((id) => adjStore.get([namespace, id])));
    list.forEach((id, i) => loaded.set(id, decodeAdjacency(namespace, id, records[i])));
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
  const [stored] = await Promise.all([spaceStore.get(namespace), load(wanted)]);
  const space = stored ?? emptySpace();
  // Ends of edges whose id is stored; null: no such edge (or removed in this batch).
  const ends = new Map<string, [string, string] | null>();
  if (space.explicit > 0) {
    const ids = [...new Set([...deleteIds, ...puts.map((e) => e.id)])];
    const found = await Promise.all(ids.map((id) => idStore.get([namespace, id])));
    ids.forEach((id, i) => ends.set(id, found[i] ?? null));
    await load(found.flatMap((pair) => pair ?? []));
  }
  const idWrites = new Map<string, [string, string] | null>();
  const touched = new Set<string>();
  const adjacencyOf = (node: string): Adjacency => {
    const a = loaded.get(node);
    if (a === undefined) throw new Error(`internal: adjacency of ${JSON.stringify(node)} was not read`);
    return a;
  };
  const count = (view: string, by: number): void => {
    space.edges += by;
    space.byView[view] = (space.byView[view] ?? 0) + by;
  };
  const remove = (id: string): void => {
    const froms = new Set(edgeIdCandidates(id).map((c) => c.from));
    const pair = ends.get(id);
    if (pair) froms.add(pair[0]);
    for (const from of froms) {
      const edge = loaded.get(from)?.out.get(id);
      if (edge === undefined) continue;
      adjacencyOf(from).out.delete(id);
      adjacencyOf(edge.to).in.delete(id);
      touched.add(from).add(edge.to);
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
    adjacencyOf(edge.from).out.set(edge.id, edge);
    if (edge.from !== edge.to) adjacencyOf(edge.to).in.set(edge.id, edge);
    touched.add(edge.from).add(edge.to);
    count(edge.view, 1);
    if (!isCanonicalEdge(edge)) {
      space.explicit++;
      ends.set(edge.id, [edge.from, edge.to]);
      idWrites.set(edge.id, [edge.from, edge.to]);
    }
  }
  for (const node of touched) {
    const record = encodeAdjacency(node, adjacencyOf(node));
    ops.push(record === undefined ? adjStore.delete([namespace, node]) : adjStore.put(record, [namespace, node]));
  }
  for (const [id, pair] of idWrites) ops.push(pair === null ? idStore.delete([namespace, id]) : idStore.put(pair, [namespace, id]));
  for (const view of Object.keys(space.byView)) if ((space.byView[view] ?? 0) <= 0) delete space.byView[view];
  ops.push(spaceStore.put(space, namespace));
}
