/**
 * Issue 22: the fault suites on the Durable Object store, in workerd (Miniflare). A commit cut at
 * each of its SQL statements — by `ctx.abort()` (the object is reset, as when its isolate
 * crashes), by a full store, or by an error — leaves the object exactly as before the commit
 * (records, meta, checkpoint, change log, counts), and the object writes on; a byte flipped in a
 * stored row is skipped, counted and named; concurrent requests writing one namespace of the
 * memory object get distinct seqs, and reads during them answer.
 *
 * An aborted request's writes are all discarded by the runtime (its implicit transaction), so
 * the abort cases check what a crash leaves to the restarted object: the state before the
 * commit, sound (counts, change log, checkpoint, no damage), and writable. The full-store and
 * error cases, where the object lives on, check the adapter's own transaction (they fail when
 * its statements run outside one).
 *
 * Through the storage probe (test/edge/worker.ts, crash-probe.ts: the DO adapter's API over
 * HTTP) and the public HTTP API. The byte-flip test finds the stored rows by content, in the
 * tables of the SQL store's layout (schema v4); the fault injection counts SQL statements only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint, WriteBatch } from '../../src/plane/store/storage.js';
import { makeEdge, makeNode } from '../plane/fixtures.js';
import { buildEdgeBundle, call, startEdge, type EdgeBundle, type RunningEdge } from './harness.js';

const TOKEN = 'crash-token';
let bundle: EdgeBundle;
let edge: RunningEdge;
let objects = 0;

beforeAll(async () => {
  bundle = buildEdgeBundle();
  edge = await startEdge(bundle, { bindings: { JEV_MEM_TOKEN: TOKEN } });
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  bundle?.remove();
});

interface ProbeAnswer {
  status: number;
  ok: boolean;
  value?: any;
  error?: { code: string; message: string };
}

/** One call of the probe object `name`: `{ ok, value }` or `{ ok: false, error }`; a failed request (the object aborted) as `ok: false`. */
async function probe(name: string, method: string, ...args: unknown[]): Promise<ProbeAnswer> {
  const res = await call(edge, 'POST', `/__probe/${name}`, { body: { method, args } });
  const out = res.json as { ok: boolean; value?: unknown; error?: { code: string; message: string } } | undefined;
  return { status: res.status, ok: out?.ok === true, value: out?.value, ...(out?.error ? { error: out.error } : {}) };
}

/** The value of a probe call that must succeed. */
async function must(name: string, method: string, ...args: unknown[]): Promise<any> {
  const r = await probe(name, method, ...args);
  if (!r.ok) throw new Error(`${method} on ${name} failed: ${r.status} ${JSON.stringify(r.error)}`);
  return r.value;
}

/** A checkpoint as it crosses to the probe (parts as { bytes }). */
function wireCheckpoint(cp: Checkpoint): unknown {
  return { ...cp, parts: Object.fromEntries(Object.entries(cp.parts).map(([k, v]) => [k, { bytes: Array.from(v) }])) };
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The first commit of the namespace: 3 nodes, 2 edges, meta, change 1 and its checkpoint. */
const SEED: WriteBatch = {
  change: 1,
  putNodes: [makeNode('ns', 'a', 1, 'Maya flies to Lisbon'), makeNode('ns', 'b', 2, 'Theo fixed his bike'), makeNode('ns', 'c', 3, 'Biscuit chewed the chain')],
  putEdges: [makeEdge('ns', 'a>b:temporal:precedes', 'a', 'b'), makeEdge('ns', 'b>c:temporal:precedes', 'b', 'c')],
  meta: { change: 1, cursor: { seq: 3 } },
};
const SEED_CHECKPOINT: Checkpoint = { change: 1, format: 'probe@1', parts: { 'book.json': text('{"seed":true}'), vectors: new Uint8Array([1, 2, 3, 4]) } };

/** The commit that is cut: an erasure (delete b and its edges) with a put, meta, and its checkpoint in the same transaction. */
const CUT: WriteBatch = {
  change: 2,
  deleteNodeIds: ['b'],
  deleteEdgeIds: ['a>b:temporal:precedes', 'b>c:temporal:precedes'],
  putNodes: [makeNode('ns', 'd', 4, 'Maya booked a flight to Osaka'), { ...makeNode('ns', 'a', 1, 'Maya flies to Lisbon'), status: 'superseded', supersededBy: ['d'] }],
  putEdges: [makeEdge('ns', 'a>d:temporal:precedes', 'a', 'd')],
  meta: { change: 2, cursor: { seq: 4 }, gone: null },
};
const CUT_CHECKPOINT: Checkpoint = { change: 2, format: 'probe@1', parts: { 'book.json': text('{"after":true}') } };
const cutBatch = (): unknown => ({ ...CUT, checkpoint: wireCheckpoint(CUT_CHECKPOINT) });

/** A new object holding SEED and its checkpoint. */
async function seeded(): Promise<string> {
  const name = `crash-${++objects}`;
  await must(name, 'commit', 'ns', { ...SEED, checkpoint: wireCheckpoint(SEED_CHECKPOINT) });
  return name;
}

/** What the object holds of `ns`: records, meta, checkpoint, change log after 0, counts, damage. */
async function held(name: string): Promise<unknown> {
  return {
    load: await must(name, 'load', 'ns'),
    checkpoint: await must(name, 'readCheckpoint', 'ns'),
    changes: ((await must(name, 'changesSince', 'ns', 0)) as string[] | null)?.slice().sort() ?? null,
    counts: await must(name, 'counts', 'ns'),
    damaged: await must(name, 'damaged', 'ns'),
    namespaces: await must(name, 'namespaces'),
  };
}

/** The statements of the cut commit (a run without a fault), and what the object holds after it. */
async function uncut(): Promise<{ execs: number; after: unknown }> {
  const name = await seeded();
  const out = (await must(name, 'faultCommit', 'ns', cutBatch(), Number.MAX_SAFE_INTEGER, 'throw')) as { completed: boolean; execs: number };
  expect(out.completed).toBe(true);
  return { execs: out.execs, after: await held(name) };
}

/** Up to `n` statement numbers spread over 1..execs, both ends included. */
function points(execs: number, n: number): number[] {
  if (execs <= n) return Array.from({ length: execs }, (_, i) => i + 1);
  return [...new Set(Array.from({ length: n }, (_, i) => 1 + Math.round((i * (execs - 1)) / (n - 1))))];
}

describe('a Durable Object commit cut at one of its SQL statements', () => {
  let reference: { execs: number; after: unknown };
  beforeAll(async () => {
    reference = await uncut();
  }, 60_000);

  it('runs several statements (the cut points below are inside it)', () => {
    expect(reference.execs).toBeGreaterThan(5);
    expect((reference.after as { load: { nodes: Array<{ id: string }> } }).load.nodes.map((n) => n.id)).toEqual(['a', 'c', 'd']);
  });

  it('by ctx.abort() (the object is reset, as by a crash) leaves nothing half-written, at every cut point; the object writes on', async () => {
    const cuts = points(reference.execs, 24);
    for (const at of cuts) {
      const name = await seeded();
      const before = await held(name);
      const instance = await must(name, 'instance');
      const r = await probe(name, 'faultCommit', 'ns', cutBatch(), at, 'abort');
      expect(r.ok, `cut at statement ${at}: the request must fail`).toBe(false);
      expect(await must(name, 'instance'), `cut at statement ${at}: the object was reset`).not.toBe(instance);
      expect(await held(name), `cut at statement ${at}`).toEqual(before);
      // The same commit, made again by the restarted object, gives what an uncut commit gives.
      await must(name, 'commit', 'ns', cutBatch());
      expect(await held(name), `recommitted after a cut at statement ${at}`).toEqual(reference.after);
    }
  }, 180_000);

  it('by a full store answers QUOTA_EXCEEDED and writes nothing; by another error STORAGE_FAILED and writes nothing', async () => {
    for (const [kind, code] of [['full', 'QUOTA_EXCEEDED'], ['throw', 'STORAGE_FAILED']] as const) {
      for (const at of points(reference.execs, 6)) {
        const name = await seeded();
        const before = await held(name);
        const out = (await must(name, 'faultCommit', 'ns', cutBatch(), at, kind)) as { completed: boolean; code?: string };
        expect([out.completed, out.code], `${kind} at statement ${at}`).toEqual([false, code]);
        expect(await held(name), `${kind} at statement ${at}`).toEqual(before);
        await must(name, 'commit', 'ns', cutBatch());
        expect(await held(name), `recommitted after ${kind} at statement ${at}`).toEqual(reference.after);
      }
    }
  }, 180_000);
});

describe('a byte flipped in a stored row of a Durable Object', () => {
  it('in a node record: the node is skipped, counted and named; puts are refused naming it; deleting it clears the damage', async () => {
    const name = `flip-${++objects}`;
    await must(name, 'commit', 'ns', {
      putNodes: [makeNode('ns', 'a', 1, 'kept one'), makeNode('ns', 'b', 2, 'the Flipmarker note'), makeNode('ns', 'c', 3, 'kept two')],
      putEdges: [makeEdge('ns', 'a>c:temporal:precedes', 'a', 'c')],
    });
    const flipped = (await must(name, 'flipMarker', 'Flipmarker')) as string[];
    expect(flipped.length).toBeGreaterThanOrEqual(1); // today: the node body (jev_mem_node.body)
    expect(((await must(name, 'getNodes', 'ns', ['a', 'b', 'c'])) as Array<{ id: string }>).map((n) => n.id)).toEqual(['a', 'c']);
    expect(((await must(name, 'load', 'ns')) as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id)).toEqual(['a', 'c']);
    const report = (await must(name, 'damaged', 'ns')) as { ids: string[]; checkpoint: boolean };
    expect([report.ids, report.checkpoint]).toEqual([['b'], false]);
    const refused = await probe(name, 'commit', 'ns', { putNodes: [makeNode('ns', 'e', 4, 'after the damage')] });
    expect(refused.error?.code).toBe('STORE_DAMAGED');
    expect(refused.error?.message).toContain('"b"');
    await must(name, 'commit', 'ns', { deleteNodeIds: ['b'] });
    expect(((await must(name, 'damaged', 'ns')) as { ids: string[] }).ids).toEqual([]);
    await must(name, 'commit', 'ns', { putNodes: [makeNode('ns', 'e', 4, 'after the damage')] });
    expect(((await must(name, 'load', 'ns')) as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id)).toEqual(['a', 'c', 'e']);
  });

  it('in a checkpoint part: reading it answers STORE_DAMAGED (field checkpoint), the records read on', async () => {
    const name = `flip-${++objects}`;
    await must(name, 'commit', 'ns', { change: 1, putNodes: [makeNode('ns', 'a', 1, 'kept')], meta: { change: 1 }, checkpoint: wireCheckpoint({ change: 1, format: 'probe@1', parts: { 'book.json': text('{"m":"Cpmarker"}') } }) });
    expect(((await must(name, 'flipMarker', 'Cpmarker')) as string[]).length).toBeGreaterThanOrEqual(1);
    const read = await probe(name, 'readCheckpoint', 'ns');
    expect(read.error?.code).toBe('STORE_DAMAGED');
    expect(((await must(name, 'load', 'ns')) as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id)).toEqual(['a']);
    expect(((await must(name, 'damaged', 'ns')) as { checkpoint: boolean }).checkpoint).toBe(true);
  });
});

describe('concurrent requests to one namespace of the memory object', () => {
  it('writes get distinct seqs 1..n and every one lands; reads during them answer 200', async () => {
    const ns = `crash-concurrent-${++objects}`;
    const api = (method: string, path: string, body?: unknown) => call(edge, method, `/v1/namespaces/${ns}${path}`, { token: TOKEN, ...(body !== undefined ? { body } : {}) });
    const texts = Array.from({ length: 12 }, (_, i) => `parallel write number ${i} about topic ${i * 7}`);
    const writes = texts.map((t) => api('POST', '/memories', { text: t }));
    const reads = Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? api('POST', '/recall', { query: 'parallel write topic' }) : api('GET', '/memories')));
    const [w, r] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    expect(w.map((x) => x.status)).toEqual(texts.map(() => 201));
    expect(r.map((x) => x.status)).toEqual(reads.map(() => 200));
    const exp = (await api('GET', '/export')).json as { nodes: Array<{ id: string; seq: number; text: string }> };
    expect(exp.nodes.map((n) => n.seq).sort((a, b) => a - b)).toEqual(texts.map((_, i) => i + 1));
    expect(exp.nodes.map((n) => n.text).sort()).toEqual([...texts].sort());
    expect(new Set(exp.nodes.map((n) => n.id))).toEqual(new Set(w.map((x) => x.json.results[0].id)));
  }, 60_000);
});
