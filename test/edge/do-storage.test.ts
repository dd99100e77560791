/**
 * The Durable Object SQLite adapter against the shared StorageAdapter contract, in workerd: each
 * adapter call goes over HTTP to a probe Durable Object (test/edge/worker.ts) that runs it on
 * the object's real SQLite storage. Each fresh adapter is a new object (empty storage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JevMemError, type JevMemErrorCode } from '../../src/errors.js';
import type { StorageAdapter } from '../../src/plane/storage.js';
import { makeEdge, makeNode } from '../plane/fixtures.js';
import { describeStorageContract } from '../plane/storage-contract.js';
import { buildEdgeBundle, call, startEdge, type EdgeBundle, type RunningEdge } from './harness.js';

let bundle: EdgeBundle;
let edge: RunningEdge;
let objects = 0;

beforeAll(async () => {
  bundle = buildEdgeBundle();
  edge = await startEdge(bundle);
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  bundle?.remove();
});

/** A StorageAdapter whose calls run in the probe object `name`. */
function probeAdapter(name: string): StorageAdapter {
  const invoke = async (method: string, ...args: unknown[]): Promise<any> => {
    const res = await call(edge, 'POST', `/__probe/${name}`, { body: { method, args } });
    const out = res.json as { ok: boolean; value?: unknown; error?: { code: JevMemErrorCode; message: string; field?: string } };
    if (!out.ok) {
      const e = out.error as { code: JevMemErrorCode; message: string; field?: string };
      throw new JevMemError(e.code, e.message, e.field === undefined ? {} : { field: e.field });
    }
    return out.value;
  };
  return {
    kind: 'durable-object',
    load: (ns) => invoke('load', ns),
    commit: (ns, batch) => invoke('commit', ns, batch),
    namespaces: () => invoke('namespaces'),
    dropNamespace: (ns) => invoke('dropNamespace', ns),
    sizeBytes: (ns) => invoke('sizeBytes', ns),
    close: () => invoke('close'),
  };
}

describeStorageContract('durable-object (workerd SQLite)', async () => probeAdapter(`contract-${++objects}`), 25);

describe('Durable Object SQLite storage', () => {
  it('keeps data in the object across adapters (a new adapter on the same object sees it)', async () => {
    const name = `reopen-${++objects}`;
    await probeAdapter(name).commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'kept')], meta: { k: 'v' } });
    // Every probe request builds a fresh adapter over the same object's storage.
    const snap = await probeAdapter(name).load('ns');
    expect(snap.nodes.map((n) => n.text)).toEqual(['kept']);
    expect(snap.meta).toEqual({ k: 'v' });
  });

  it('a commit that SQLite refuses half-way (a value over 2 MB) leaves every table as before and answers TOO_LARGE', async () => {
    const s = probeAdapter(`atomic-${++objects}`);
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'kept')], putEdges: [makeEdge('ns', 'e1', 'a', 'a')], meta: { cursor: 1 } });
    const before = await s.load('ns');
    // Deletes and a good put run first; the third row is over the Durable Object SQL value limit (2 MB).
    const err = await s
      .commit('ns', {
        deleteNodeIds: ['a'],
        deleteEdgeIds: ['e1'],
        putNodes: [makeNode('ns', 'b', 2), makeNode('ns', 'huge', 3, 'x'.repeat(2_200_000))],
        meta: { cursor: 2 },
      })
      .catch((e: unknown) => e);
    expect((err as JevMemError).code).toBe('TOO_LARGE');
    expect(await s.load('ns')).toEqual(before);
  });

  it('reports the stored size of a namespace as the UTF-8 bytes of its JSON bodies', async () => {
    const s = probeAdapter(`size-${++objects}`);
    const node = makeNode('ns', 'a', 1, 'héllo');
    await s.commit('ns', { putNodes: [node], meta: { k: 'v' } });
    const expected = new TextEncoder().encode(JSON.stringify(node)).length + new TextEncoder().encode(JSON.stringify('v')).length;
    expect(await s.sizeBytes?.('ns')).toBe(expected);
    expect(await s.sizeBytes?.('empty')).toBe(0);
  });
});
