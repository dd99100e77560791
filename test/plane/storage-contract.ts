/**
 * The StorageAdapter contract (src/plane/storage.ts), run against every adapter: each adapter's
 * test file calls {@link describeStorageContract} with a factory of fresh, empty adapters.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import type { StorageAdapter } from '../../src/plane/storage.js';
import { applyToModel, arbitraryBatch, emptyModel, makeEdge, makeNode, modelSnapshot } from './fixtures.js';

export function describeStorageContract(name: string, fresh: () => Promise<StorageAdapter>, propertyRuns = 40): void {
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
            expect(await s.load('p')).toEqual(modelSnapshot(model));
          } finally {
            await s.close();
          }
        }),
        { numRuns: propertyRuns },
      );
    });
  });
}
