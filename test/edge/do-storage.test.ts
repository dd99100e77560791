/**
 * The Durable Object SQLite adapter against the shared StorageAdapter contract, in workerd: each
 * adapter call goes over HTTP to a probe Durable Object (test/edge/worker.ts) that runs it on
 * the object's real SQLite storage. Each fresh adapter is a new object (empty storage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JevMemError, type JevMemErrorCode } from '../../src/errors.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
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
  const bytesOf = (parts: Record<string, number[]>): Record<string, Uint8Array> => Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Uint8Array.from(v)]));
  async function* batches<T>(method: string, ns: string, size: number): AsyncIterable<T[]> {
    for (const b of (await invoke(method, ns, size)) as T[][]) yield b;
  }
  return {
    kind: 'durable-object',
    load: (ns) => invoke('load', ns),
    loadMeta: (ns) => invoke('loadMeta', ns),
    // A batch's checkpoint parts cross as { bytes } (test/edge/worker.ts); a part that is not a Uint8Array as it is.
    commit: (ns, batch) =>
      invoke('commit', ns, batch.checkpoint ? { ...batch, checkpoint: { ...batch.checkpoint, parts: Object.fromEntries(Object.entries(batch.checkpoint.parts).map(([k, v]) => [k, v instanceof Uint8Array ? { bytes: Array.from(v) } : v])) } } : batch),
    namespaces: () => invoke('namespaces'),
    dropNamespace: (ns) => invoke('dropNamespace', ns),
    sizeBytes: (ns) => invoke('sizeBytes', ns),
    getNodes: (ns, ids) => invoke('getNodes', ns, ids),
    getEdges: (ns, ids, filter) => invoke('getEdges', ns, ids, filter),
    scanNodes: (ns, size) => batches('scanNodes', ns, size),
    scanEdges: (ns, size) => batches('scanEdges', ns, size),
    counts: (ns) => invoke('counts', ns),
    readCheckpoint: async (ns) => {
      const cp = (await invoke('readCheckpoint', ns)) as { change: number; format: string; parts: Record<string, number[]> } | null;
      return cp === null ? undefined : { ...cp, parts: bytesOf(cp.parts) };
    },
    writeCheckpoint: (ns, cp) => invoke('writeCheckpoint', ns, { ...cp, parts: Object.fromEntries(Object.entries(cp.parts).map(([k, v]) => [k, Array.from(v)])) }),
    dropCheckpoint: (ns) => invoke('dropCheckpoint', ns),
    changesSince: async (ns, after) => ((await invoke('changesSince', ns, after)) as string[] | null) ?? undefined,
    damaged: (ns) => invoke('damaged', ns),
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

  it('a commit that SQLite refuses half-way (a key over 2 MB) leaves every table as before and answers TOO_LARGE', async () => {
    const s = probeAdapter(`atomic-${++objects}`);
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'kept')], putEdges: [makeEdge('ns', 'e1', 'a', 'a')], meta: { cursor: 1 } });
    const before = await s.load('ns');
    // Deletes and a good put run first; the third record's key is over the Durable Object SQL value limit (2 MB)
    // (values are cut in 1 MiB chunks, keys are not).
    const err = await s
      .commit('ns', {
        deleteNodeIds: ['a'],
        deleteEdgeIds: ['e1'],
        putNodes: [makeNode('ns', 'b', 2), makeNode('ns', 'k'.repeat(2_200_000), 3)],
        meta: { cursor: 2 },
      })
      .catch((e: unknown) => e);
    expect((err as JevMemError).code).toBe('TOO_LARGE');
    expect(await s.load('ns')).toEqual(before);
  });

  it('keeps a node over 2 MB (its record in 1 MiB chunks) and gives it back whole', async () => {
    const s = probeAdapter(`big-${++objects}`);
    // One long word: its text is 2.2 MB, its FTS5 row one hashed token (a text of 500k words
    // would make an FTS5 row over the limit: the hashed tokens are ~12 bytes a word).
    const big = makeNode('ns', 'big', 1, 'x'.repeat(2_200_000));
    await s.commit('ns', { putNodes: [big] });
    expect(await s.getNodes('ns', ['big'])).toEqual([big]);
  });

  it('reports the stored size of a namespace: a text 3 UTF-8 bytes longer costs 3 bytes more, an edge more', async () => {
    const s = probeAdapter(`size-${++objects}`);
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'héllo')], meta: { k: 'v' } });
    const first = (await s.sizeBytes?.('ns')) as number;
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'héllo!é')] }); // '!é' is 3 bytes
    expect(await s.sizeBytes?.('ns')).toBe(first + 3);
    await s.commit('ns', { putEdges: [makeEdge('ns', 'a>a:temporal:precedes', 'a', 'a')] }); // canonical id: not stored
    expect(await s.sizeBytes?.('ns')).toBeGreaterThan(first + 3);
    expect(await s.sizeBytes?.('empty')).toBe(0);
  });

  it('imports a v1 database (JSON bodies) into the record table in one go at the first call', async () => {
    const name = `v1-${++objects}`;
    const a = makeNode('ns', 'a', 1, 'first');
    const b = makeNode('ns', 'b', 2, 'second');
    const other = makeNode('other', 'x', 1);
    const e = makeEdge('ns', 'e1', 'a', 'b');
    const seed = async (method: string, ...args: unknown[]): Promise<unknown> => (await call(edge, 'POST', `/__probe/${name}`, { body: { method, args } })).json;
    await seed('seedV1', {
      nodes: [['ns', 'a', 1, JSON.stringify(a)], ['ns', 'b', 2, JSON.stringify(b)], ['other', 'x', 1, JSON.stringify(other)]],
      edges: [['ns', 'e1', JSON.stringify(e)]],
      meta: [['ns', 'change', '2'], ['ns', 'cursor', '{"seq":2}']],
    });
    const s = probeAdapter(name);
    expect(await s.load('ns')).toEqual({ nodes: [a, b], edges: [e], meta: { change: 2, cursor: { seq: 2 } } });
    expect(await s.getNodes!('other', ['x'])).toEqual([other]);
    expect(await s.namespaces()).toEqual(['ns', 'other']);
    const tables = ((await seed('tables')) as { value: string[] }).value;
    expect(tables.filter((t) => ['jev_mem_nodes', 'jev_mem_edges', 'jev_mem_meta'].includes(t))).toEqual([]);
    expect(tables).toContain('jev_mem_rec');
  });
});

describe('the vector index of a Durable Object (issue 25)', () => {
  it("'auto' builds the pure-TypeScript HNSW in workerd; its checkpoint part round-trips through the object's SQLite", async () => {
    const res = await call(edge, 'POST', `/__probe/ann-${++objects}`, { body: { method: 'annIndex', args: [3000] } });
    const out = res.json as { ok: boolean; value: { kind: string; size: number; recall: number; sameAfterRestore: boolean }; error?: unknown };
    expect(out.error).toBeUndefined();
    expect(out.value.kind).toBe('ann');
    expect(out.value.size).toBe(3000);
    expect(out.value.recall).toBeGreaterThanOrEqual(0.9);
    expect(out.value.sameAfterRestore).toBe(true);
  }, 120_000);
});
