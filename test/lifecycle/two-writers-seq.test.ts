/**
 * Issue 22 (open defect found by the crash suite): two writers of one SQL store, each with its
 * own memory, must never give two nodes the same `seq`. The race of two processes that reopen
 * the store per write is made deterministic here: writer A's store runs writer B's whole write
 * inside A's write gate (`beforeWrite`, where the Node store waits for its writer lock), that is
 * after A loaded and planned on the namespace and before A commits. On the base commit A then
 * committed the seq B had just taken; now the store refuses A's batch (its generation changed)
 * and A plans again over the store as it is.
 *
 * Run on both SQL stores: Node's (two connections to one file) and the Durable Object's (two
 * adapters over one `ctx.storage`, here a node-sqlite3-wasm database standing in for it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableObjectStorage } from '../../src/edge/do-storage.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import { CHANGED_ELSEWHERE, type StorageAdapter } from '../../src/plane/store/storage.js';
import { crashEncoder } from './fixtures/crash-encoder.js';
import { fakeDoStorage } from './fake-do-storage.js';
import { quietLogger } from './stores.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Two stores over one database; `hook` runs inside the first store's write gate. */
type Pair = (hook: () => Promise<void>) => { a: StorageAdapter; b: StorageAdapter; close: () => void };

const nodePair: Pair = (hook) => {
  const dir = mkdtempSync(join(tmpdir(), 'jev-two-writers-'));
  dirs.push(dir);
  const file = join(dir, 'jev-mem.sqlite');
  const da = openNodeSqlDriver(file);
  const db = openNodeSqlDriver(file);
  return {
    a: createSqlRecordStore(
      {
        query: (sql, params) => da.query(sql, params),
        transaction: (fn) => da.transaction(fn),
        ready: async (mode) => {
          if (mode === 'write') await hook();
          await da.ready(mode);
        },
        settle: () => da.settle(),
      },
      { kind: 'sqlite', label: 'store A', quotaRemedy: '', lexical: 'fts5', vacuum: false },
    ),
    b: createSqlRecordStore(db, { kind: 'sqlite', label: 'store B', quotaRemedy: '', lexical: 'fts5', vacuum: false }),
    close: () => {
      da.close();
      db.close();
    },
  };
};

const doPair: Pair = (hook) => {
  const db = new Database();
  const raw = fakeDoStorage(db);
  const a = createDurableObjectStorage(raw);
  // The Durable Object store has no write gate option: run the hook before A's commits.
  const gated: StorageAdapter = Object.create(a) as StorageAdapter;
  gated.commit = async (ns, batch) => {
    await hook();
    return a.commit(ns, batch);
  };
  return { a: gated, b: createDurableObjectStorage(raw), close: () => db.close() };
};

describe.each([
  ['Node SQLite (two connections to one file)', nodePair],
  ['Durable Object SQL (two adapters over one storage)', doPair],
])('two writers of one %s', (_label, pair) => {
  it('write alternately, B committing while A is between its load and its commit: every node gets its own seq, in commit order', async () => {
    let memB: Memory | undefined;
    let pendingB: string | undefined;
    const order: string[] = [];
    // B's write runs inside A's write gate, once per A write: A has loaded and planned by then.
    const hook = async (): Promise<void> => {
      const text = pendingB;
      if (text === undefined) return;
      pendingB = undefined;
      const { id } = await (memB as Memory).add({ text, source: 'b' });
      order.push(id);
    };
    const { a, b, close } = pair(hook);
    const memA = await createMemory({ encoder: crashEncoder, storage: a, logger: quietLogger, namespace: 'ns', parameters: { maintenanceInterval: 0 } });
    memB = await createMemory({ encoder: crashEncoder, storage: b, logger: quietLogger, namespace: 'ns', parameters: { maintenanceInterval: 0 } });
    try {
      for (let i = 1; i <= 3; i++) {
        pendingB = `writer b turn ${i} about the harbour`;
        const { id } = await memA.add({ text: `writer a turn ${i} about the lighthouse`, source: 'a' });
        order.push(id);
      }
      // B wrote first each time (inside A's gate), then A committed after planning again.
      expect(order).toHaveLength(6);
      const nodes = (await a.load('ns')).nodes;
      const seqOf = new Map(nodes.map((n) => [n.id, n.seq]));
      expect(nodes).toHaveLength(6);
      expect(order.map((id) => seqOf.get(id))).toEqual([1, 2, 3, 4, 5, 6]);
      // A's three commits were each refused once and planned again.
      expect((await memA.stats()).replans).toBe(3);
      // A reads B's nodes and its own (its caches follow the store).
      expect((await memA.stats()).nodes).toBe(6);
    } finally {
      await memA.close();
      await memB.close();
      close();
    }
  });

  it('the store refuses a batch whose expected generation is not the stored one, with nothing written', async () => {
    const { a, close } = pair(async () => undefined);
    try {
      await a.commit('ns', { meta: { generation: 'g1' } });
      const stale = a.commit('ns', { meta: { generation: 'g2', marker: 1 }, expectMeta: { generation: 'g0' } });
      await expect(stale).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { [CHANGED_ELSEWHERE]: 'generation' } });
      expect(await a.loadMeta('ns')).toEqual({ generation: 'g1' });
      await a.commit('ns', { meta: { generation: 'g2' }, expectMeta: { generation: 'g1' } });
      await expect(a.commit('other', { meta: { x: 1 }, expectMeta: { generation: 'g1' } })).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
      await a.commit('other', { meta: { x: 1 }, expectMeta: { generation: null } });
      expect(await a.loadMeta('ns')).toEqual({ generation: 'g2' });
    } finally {
      await a.close();
      close();
    }
  });
});
