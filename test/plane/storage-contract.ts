/**
 * The StorageAdapter contract (src/plane/store/storage.ts), run against every adapter: each adapter's
 * test file calls {@link describeStorageContract} with a factory of fresh, empty adapters.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import type { MemoryEdge } from '../../src/types.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { applyToModel, arbitraryBatch, emptyModel, makeEdge, makeNode, modelSnapshot } from './fixtures.js';

/**
 * @param port Whether the adapter implements the storage port (issue 13: getNodes, getEdges,
 *   scans, counts, checkpoint, change log); only the legacy v1 file store does not.
 */
export function describeStorageContract(name: string, fresh: () => Promise<StorageAdapter>, propertyRuns = 40, port = true): void {
  const portIt = port ? it : it.skip;
  describe(`${name}: StorageAdapter contract`, () => {
    const open: StorageAdapter[] = [];
    const make = async (): Promise<StorageAdapter> => {
      const s = await fresh();
      open.push(s);
      return s;
    };
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close();
    });

    it('loads an unknown namespace as empty', async () => {
      const s = await make();
      expect(await s.load('nobody')).toEqual({ nodes: [], edges: [], meta: {} });
    });

    it('applies deletes before puts within one batch', async () => {
      const s = await make();
      await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'old')] });
      await s.commit('ns', { deleteNodeIds: ['a'], putNodes: [makeNode('ns', 'a', 1, 'new')] });
      const { nodes } = await s.load('ns');
      expect(nodes.map((n) => n.text)).toEqual(['new']);
    });

    it('returns nodes by seq and edges by id', async () => {
      const s = await make();
      await s.commit('ns', {
        putNodes: [makeNode('ns', 'x', 3), makeNode('ns', 'y', 1), makeNode('ns', 'z', 2)],
        putEdges: [makeEdge('ns', 'e2', 'x', 'y'), makeEdge('ns', 'e1', 'y', 'z')],
      });
      const snap = await s.load('ns');
      expect(snap.nodes.map((n) => n.id)).toEqual(['y', 'z', 'x']);
      expect(snap.edges.map((e) => e.id)).toEqual(['e1', 'e2']);
    });

    it('sets meta keys and removes them with null', async () => {
      const s = await make();
      await s.commit('ns', { meta: { encoder: 'glove@1', count: 2 } });
      await s.commit('ns', { meta: { count: null, cursor: { seq: 7 } } });
      expect((await s.load('ns')).meta).toEqual({ cursor: { seq: 7 }, encoder: 'glove@1' });
    });

    it('keeps namespaces apart', async () => {
      const s = await make();
      await s.commit('alice', { putNodes: [makeNode('alice', 'a', 1)] });
      await s.commit('bob', { putNodes: [makeNode('bob', 'a', 1, 'bob text')], meta: { k: 1 } });
      const alice = await s.load('alice');
      expect(alice.nodes.map((n) => n.text)).toEqual(['text of a']);
      expect(alice.meta).toEqual({});
      expect(await s.namespaces()).toEqual(['alice', 'bob']);
    });

    it('drops one namespace and nothing else', async () => {
      const s = await make();
      await s.commit('alice', { putNodes: [makeNode('alice', 'a', 1)], meta: { k: 1 } });
      await s.commit('bob', { putNodes: [makeNode('bob', 'b', 1)], putEdges: [makeEdge('bob', 'e', 'b', 'b')] });
      await s.dropNamespace('alice');
      expect(await s.load('alice')).toEqual({ nodes: [], edges: [], meta: {} });
      expect((await s.load('bob')).nodes.map((n) => n.id)).toEqual(['b']);
      expect(await s.namespaces()).toEqual(['bob']);
    });

    it('refuses a node of another namespace with INVALID_INPUT naming the field', async () => {
      const s = await make();
      const err = await s.commit('alice', { putNodes: [makeNode('alice', 'a', 1), makeNode('bob', 'b', 2)] }).catch((e: unknown) => e);
      expect(isJevMemError(err, 'INVALID_INPUT')).toBe(true);
      expect((err as { field?: string }).field).toBe('batch.putNodes[1].namespace');
      expect((await s.load('alice')).nodes).toEqual([]);
    });

    it('refuses an empty namespace name', async () => {
      const s = await make();
      await expect(s.load('')).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'namespace' });
    });

    it('reports CLOSED after close()', async () => {
      const s = await make();
      await s.close();
      await s.close(); // idempotent
      await expect(s.load('ns')).rejects.toMatchObject({ code: 'CLOSED' });
    });

    // ---- the storage port (issue 13); `portIt` skips them for the legacy v1 file store: point reads, scans, counts, checkpoint, change log ----

    portIt('getNodes returns the asked nodes in the order asked, leaving unknown ids out', async () => {
      const s = await make();
      await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2), makeNode('ns', 'c', 3)] });
      await s.commit('ns', { deleteNodeIds: ['b'], putNodes: [makeNode('ns', 'c', 3, 'c replaced')] });
      const got = await s.getNodes!('ns', ['c', 'zz', 'b', 'a']);
      expect(got.map((n) => [n.id, n.text])).toEqual([
        ['c', 'c replaced'],
        ['a', 'text of a'],
      ]);
      expect(await s.getNodes!('ns', [])).toEqual([]);
      expect(await s.getNodes!('other', ['a'])).toEqual([]);
    });

    portIt('getNodes returns copies: changing one does not change the store', async () => {
      const s = await make();
      await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
      const [a] = await s.getNodes!('ns', ['a']);
      a!.text = 'mutated';
      a!.embedding.vector[0] = 9;
      const [again] = await s.getNodes!('ns', ['a']);
      expect(again!.text).toBe('text of a');
      expect(again!.embedding.vector).toEqual([0.6, 0.8]);
    });

    portIt('keeps every vector exactly: int8-grid vectors and arbitrary ones', async () => {
      const s = await make();
      const grid = quantizeVector([0.12, -0.5, 0.33, 0.0071, -0.25]);
      const odd = [0.123456, -1e-7, 3.5, 0, -0.999999];
      const a = makeNode('ns', 'a', 1);
      a.embedding = { encoder: 'e', vector: grid };
      const b = makeNode('ns', 'b', 2);
      b.embedding = { encoder: 'e', vector: odd };
      await s.commit('ns', { putNodes: [a, b] });
      const got = await s.getNodes!('ns', ['a', 'b']);
      expect(got[0]!.embedding.vector).toEqual(grid);
      expect(got[1]!.embedding.vector).toEqual(odd);
    });

    portIt('getEdges returns each edge touching the asked nodes once, from either end', async () => {
      const s = await make();
      await s.commit('ns', {
        putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2), makeNode('ns', 'c', 3), makeNode('ns', 'd', 4)],
        putEdges: [makeEdge('ns', 'ab', 'a', 'b'), makeEdge('ns', 'bc', 'b', 'c'), makeEdge('ns', 'cd', 'c', 'd'), makeEdge('ns', 'aa', 'a', 'a')],
      });
      const ids = async (nodeIds: string[]): Promise<string[]> => (await s.getEdges!('ns', nodeIds)).map((e) => e.id).sort();
      expect(await ids(['b'])).toEqual(['ab', 'bc']);
      expect(await ids(['a', 'b'])).toEqual(['aa', 'ab', 'bc']);
      expect(await ids(['d', 'zz'])).toEqual(['cd']);
      await s.commit('ns', { deleteEdgeIds: ['bc'], putEdges: [{ ...makeEdge('ns', 'ab', 'a', 'b'), weight: 0.25 }] });
      const edges = await s.getEdges!('ns', ['b']);
      expect(edges.map((e) => [e.id, e.weight])).toEqual([['ab', 0.25]]);
      expect(edges[0]).toEqual({ ...makeEdge('ns', 'ab', 'a', 'b'), weight: 0.25 });
      expect(await s.getEdges!('other', ['b'])).toEqual([]);
    });

    portIt('getEdges with a subtype filter returns only the edges of that subtype, from either end', async () => {
      const s = await make();
      const typed = (id: string, from: string, to: string, view: MemoryEdge['view'], subtype: MemoryEdge['subtype']): MemoryEdge => ({ ...makeEdge('ns', id, from, to), view, subtype });
      // b has one precedes edge out (b→c), one in (a→b), a same_session edge and a contradicts edge.
      await s.commit('ns', {
        putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2), makeNode('ns', 'c', 3), makeNode('ns', 'd', 4)],
        putEdges: [
          typed('ab', 'a', 'b', 'temporal', 'precedes'),
          typed('bc', 'b', 'c', 'temporal', 'precedes'),
          typed('bd', 'b', 'd', 'temporal', 'same_session'),
          typed('db', 'd', 'b', 'semantic', 'contradicts'),
          typed('cd', 'c', 'd', 'temporal', 'precedes'),
        ],
      });
      const ids = async (nodeIds: string[], subtype?: MemoryEdge['subtype']): Promise<string[]> =>
        (await s.getEdges!('ns', nodeIds, subtype === undefined ? undefined : { subtype })).map((e) => e.id).sort();
      expect(await ids(['b'])).toEqual(['ab', 'bc', 'bd', 'db']);
      expect(await ids(['b'], 'precedes')).toEqual(['ab', 'bc']);
      expect(await ids(['b'], 'contradicts')).toEqual(['db']);
      expect(await ids(['b', 'c'], 'precedes')).toEqual(['ab', 'bc', 'cd']);
      expect(await ids(['a'], 'same_session')).toEqual([]);
      const [edge] = await s.getEdges!('ns', ['d'], { subtype: 'contradicts' });
      expect(edge).toEqual(typed('db', 'd', 'b', 'semantic', 'contradicts'));
    });

    portIt('getEdges of many nodes (more than one statement\'s bindings) returns each edge once', async () => {
      const s = await make();
      // 200 nodes in a ring plus chords i → i+100: asked all, each of the 400 edges comes back once.
      const n = 200;
      const nodes = Array.from({ length: n }, (_, i) => makeNode('ns', `n${i}`, i + 1));
      const ring = Array.from({ length: n }, (_, i) => makeEdge('ns', `r${i}`, `n${i}`, `n${(i + 1) % n}`));
      const chords = Array.from({ length: n }, (_, i) => makeEdge('ns', `c${i}`, `n${i}`, `n${(i + 100) % n}`));
      await s.commit('ns', { putNodes: nodes, putEdges: [...ring, ...chords] });
      const all = (await s.getEdges!('ns', nodes.map((x) => x.id).reverse())).map((e) => e.id).sort();
      expect(all).toEqual([...ring, ...chords].map((e) => e.id).sort());
      // Asking the even nodes: every ring edge touches one; the chords join even to even (100 is even).
      const even = nodes.filter((_, i) => i % 2 === 0).map((x) => x.id);
      const got = (await s.getEdges!('ns', even)).map((e) => e.id).sort();
      expect(got).toEqual([...ring, ...chords.filter((_, i) => i % 2 === 0)].map((e) => e.id).sort());
    });

    portIt('scans every node and edge once, in batches of at most the asked size', async () => {
      const s = await make();
      const nodes = Array.from({ length: 23 }, (_, i) => makeNode('ns', `n${i}`, i + 1));
      const edges = Array.from({ length: 17 }, (_, i) => makeEdge('ns', `e${i}`, `n${i}`, `n${i + 1}`));
      await s.commit('ns', { putNodes: nodes, putEdges: edges });
      await s.commit('other', { putNodes: [makeNode('other', 'x', 1)] });
      const seenNodes: string[] = [];
      for await (const batch of s.scanNodes!('ns', 5)) {
        expect(batch.length).toBeGreaterThan(0);
        expect(batch.length).toBeLessThanOrEqual(5);
        seenNodes.push(...batch.map((n) => n.id));
      }
      expect(seenNodes.sort()).toEqual(nodes.map((n) => n.id).sort());
      const seenEdges: string[] = [];
      for await (const batch of s.scanEdges!('ns', 4)) {
        expect(batch.length).toBeLessThanOrEqual(4);
        seenEdges.push(...batch.map((e) => e.id));
      }
      expect(seenEdges.sort()).toEqual(edges.map((e) => e.id).sort());
      const none: unknown[] = [];
      for await (const batch of s.scanNodes!('nobody', 5)) none.push(...batch);
      expect(none).toEqual([]);
    });

    portIt('counts nodes, edges and edges per view', async () => {
      const s = await make();
      expect(await s.counts!('ns')).toEqual({ nodes: 0, edges: 0, edgesByView: {} });
      const semantic = { ...makeEdge('ns', 'e3', 'a', 'c'), view: 'semantic' as const, subtype: 'related' as const };
      await s.commit('ns', {
        putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2), makeNode('ns', 'c', 3)],
        putEdges: [makeEdge('ns', 'e1', 'a', 'b'), makeEdge('ns', 'e2', 'b', 'c'), semantic],
      });
      await s.commit('ns', { deleteNodeIds: ['c'], deleteEdgeIds: ['e2'] });
      const c = await s.counts!('ns');
      expect({ nodes: c.nodes, edges: c.edges, temporal: c.edgesByView.temporal, semantic: c.edgesByView.semantic }).toEqual({ nodes: 2, edges: 2, temporal: 1, semantic: 1 });
    });

    portIt('keeps one checkpoint per namespace: written, read back, replaced, dropped', async () => {
      const s = await make();
      expect(await s.readCheckpoint!('ns')).toBeUndefined();
      const cp = { change: 3, format: 'test@1', parts: { a: new Uint8Array([1, 2, 3]), empty: new Uint8Array(0), big: new Uint8Array(70_000).fill(7) } };
      await s.writeCheckpoint!('ns', cp);
      const back = await s.readCheckpoint!('ns');
      expect(back?.change).toBe(3);
      expect(back?.format).toBe('test@1');
      expect(Object.keys(back?.parts ?? {}).sort()).toEqual(['a', 'big', 'empty']);
      expect(Array.from(back!.parts.a!)).toEqual([1, 2, 3]);
      expect(back!.parts.empty!.length).toBe(0);
      expect(back!.parts.big!.length).toBe(70_000);
      expect(back!.parts.big![69_999]).toBe(7);
      expect(await s.readCheckpoint!('other')).toBeUndefined();
      await s.writeCheckpoint!('ns', { change: 5, format: 'test@1', parts: { b: new Uint8Array([9]) } });
      const replaced = await s.readCheckpoint!('ns');
      expect([replaced?.change, Object.keys(replaced?.parts ?? {})]).toEqual([5, ['b']]);
      await s.dropCheckpoint!('ns');
      expect(await s.readCheckpoint!('ns')).toBeUndefined();
      await s.writeCheckpoint!('ns', cp);
      await s.dropNamespace('ns');
      expect(await s.readCheckpoint!('ns')).toBeUndefined();
    });

    it('damaged() reports no damage for records and a checkpoint it wrote itself (issue 22)', async () => {
      const s = await make();
      expect(await s.damaged('ns')).toEqual({ ids: [], checkpoint: false });
      await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'alpha'), makeNode('ns', 'b', 2, 'ünïcødé 🙂')], putEdges: [makeEdge('ns', 'e1', 'a', 'b')] });
      if (s.writeCheckpoint) await s.writeCheckpoint('ns', { change: 1, format: 'test@1', parts: { a: new Uint8Array([1, 2, 3]), big: new Uint8Array(70_000).fill(7) } });
      expect(await s.damaged('ns')).toEqual({ ids: [], checkpoint: false });
      await s.commit('ns', { putNodes: [makeNode('ns', 'a', 3, 'alpha again')], deleteNodeIds: ['b'] });
      expect(await s.damaged('ns')).toEqual({ ids: [], checkpoint: false });
      expect(await s.damaged('other')).toEqual({ ids: [], checkpoint: false });
    });

    portIt('logs the node ids of each numbered commit until a checkpoint covers it', async () => {
      const s = await make();
      expect(await s.changesSince!('ns', 0)).toEqual([]);
      await s.commit('ns', { change: 1, putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2)], meta: { change: 1 } });
      await s.commit('ns', { change: 2, deleteNodeIds: ['a'], putEdges: [makeEdge('ns', 'e', 'b', 'b')], meta: { change: 2 } });
      await s.commit('ns', { change: 3, putNodes: [makeNode('ns', 'c', 3), makeNode('ns', 'b', 2, 'b again')], meta: { change: 3 } });
      expect((await s.changesSince!('ns', 0))?.sort()).toEqual(['a', 'b', 'c']);
      expect((await s.changesSince!('ns', 1))?.sort()).toEqual(['a', 'b', 'c']);
      expect((await s.changesSince!('ns', 2))?.sort()).toEqual(['b', 'c']);
      expect(await s.changesSince!('ns', 3)).toEqual([]);
      expect(await s.changesSince!('other', 0)).toEqual([]);
      await s.writeCheckpoint!('ns', { change: 2, format: 'test@1', parts: {} });
      expect(await s.changesSince!('ns', 1)).toBeUndefined();
      expect((await s.changesSince!('ns', 2))?.sort()).toEqual(['b', 'c']);
      await s.commit('ns', { change: 4, deleteNodeIds: ['c'], meta: { change: 4 } });
      expect((await s.changesSince!('ns', 2))?.sort()).toEqual(['b', 'c']);
      expect(await s.changesSince!('ns', 3)).toEqual(['c']);
    });

    portIt('a batch carries a checkpoint change in its commit: replace (log pruned) or null (dropped); a bad one refuses the whole batch (issue 22)', async () => {
      const s = await make();
      await s.commit('ns', { change: 1, putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2)], meta: { change: 1 }, checkpoint: { change: 1, format: 'test@1', parts: { p: new Uint8Array([1]) } } });
      const first = await s.readCheckpoint!('ns');
      expect([first?.change, first?.format, Array.from(first?.parts.p ?? [])]).toEqual([1, 'test@1', [1]]);
      expect(await s.changesSince!('ns', 0)).toBeUndefined(); // the log up to 1 is covered
      await s.commit('ns', { change: 2, deleteNodeIds: ['a'], meta: { change: 2 }, checkpoint: { change: 2, format: 'test@1', parts: { q: new Uint8Array([2, 2]) } } });
      const second = await s.readCheckpoint!('ns');
      expect([second?.change, Object.keys(second?.parts ?? {}), Array.from(second?.parts.q ?? [])]).toEqual([2, ['q'], [2, 2]]);
      expect(await s.changesSince!('ns', 1)).toBeUndefined();
      expect(await s.changesSince!('ns', 2)).toEqual([]);
      // A bad checkpoint: the node delete of the same batch is not applied either.
      const bad = { change: 3, format: 'test@1', parts: { r: [1, 2] as unknown as Uint8Array } };
      await expect(s.commit('ns', { change: 3, deleteNodeIds: ['b'], meta: { change: 3 }, checkpoint: bad })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'batch.checkpoint.parts.r' });
      expect((await s.getNodes!('ns', ['b'])).map((n) => n.id)).toEqual(['b']);
      expect((await s.readCheckpoint!('ns'))?.change).toBe(2);
      await s.commit('ns', { change: 3, putNodes: [makeNode('ns', 'c', 3)], meta: { change: 3 }, checkpoint: null });
      expect(await s.readCheckpoint!('ns')).toBeUndefined();
      expect(await s.changesSince!('ns', 2)).toEqual(['c']);
      // Absent: the checkpoint is left as it is.
      await s.writeCheckpoint!('ns', { change: 3, format: 'test@1', parts: {} });
      await s.commit('ns', { change: 4, putNodes: [makeNode('ns', 'd', 4)], meta: { change: 4 } });
      expect((await s.readCheckpoint!('ns'))?.change).toBe(3);
    });

    portIt('a refused batch leaves no trace in the change log', async () => {
      const s = await make();
      await s.commit('ns', { change: 1, putNodes: [makeNode('ns', 'a', 1)], meta: { change: 1 } });
      await s.commit('ns', { change: 2, putNodes: [makeNode('ns', 'b', 2), makeNode('bob', 'x', 3)] }).catch(() => undefined);
      expect(await s.changesSince!('ns', 0)).toEqual(['a']);
      expect((await s.getNodes!('ns', ['b'])).length).toBe(0);
    });

    it('load after random batches equals the model', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(arbitraryBatch('p'), { minLength: 1, maxLength: 8 }), async (batches) => {
          const s = await fresh();
          try {
            const model = emptyModel();
            for (const batch of batches) {
              await s.commit('p', batch);
              applyToModel(model, batch);
            }
            const expected = modelSnapshot(model);
            expect(await s.load('p')).toEqual(expected);
            if (!port) return;
            const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
            expect(await s.getNodes!('p', ids)).toEqual(ids.map((id) => model.nodes.get(id)).filter((n) => n !== undefined));
            const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
            expect((await s.getEdges!('p', ids)).sort(byId)).toEqual(expected.edges.filter((e) => ids.includes(e.from) || ids.includes(e.to)));
            const counts = await s.counts!('p');
            expect([counts.nodes, counts.edges]).toEqual([expected.nodes.length, expected.edges.length]);
          } finally {
            await s.close();
          }
        }),
        { numRuns: propertyRuns },
      );
    });
  });
}
