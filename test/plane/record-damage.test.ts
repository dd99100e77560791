/**
 * Issue 25 ("stats() O(1) in every store") on the record store (memory and IndexedDB drivers):
 * `damaged(ns, { scan: false })`, which `Memory.stats()` asks, answers the damage already known
 * (what reads met, what an earlier full pass found) without reading the namespace's node
 * records; plain `damaged(ns)` makes the full pass, and counts the records the kept node counter
 * holds but no read reaches (`DamageReport.unreadable`). A counting wrapper of the driver tells
 * how many node records each call read. Before the record store honoured `scan: false`, every
 * `stats()` read every node record.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory.js';
import { openIdbRecordDriver } from '../../src/plane/drivers/record-idb.js';
import { createMemoryRecordDriver } from '../../src/plane/drivers/record-memory.js';
import type { RecordDriver, RecordTx } from '../../src/plane/drivers/record-driver.js';
import type { NodeRecord } from '../../src/plane/store/record-codec.js';
import { IDB_VERSION, upgradeRecords } from '../../src/plane/store/record-idb-upgrade.js';
import { createRecordStore } from '../../src/plane/store/record-store.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { crashEncoder } from '../lifecycle/fixtures/crash-encoder.js';
import { quietLogger } from '../lifecycle/stores.js';

/** A driver over `inner` that counts the node records its transactions read; `close` is the test's. */
function counting(inner: RecordDriver): RecordDriver & { nodeReads: number } {
  const out = {
    nodeReads: 0,
    transaction<T>(tables: Parameters<RecordDriver['transaction']>[0], mode: 'read' | 'write', work: (tx: RecordTx) => Promise<T>): Promise<T> {
      return inner.transaction(tables, mode, (tx) =>
        work({
          ...tx,
          get: async (table, ns, key) => {
            const v = await tx.get(table, ns, key);
            if (table === 'node' && v !== undefined) out.nodeReads++;
            return v;
          },
          scan: async (table, ns, after, limit) => {
            const rows = await tx.scan(table, ns, after, limit);
            if (table === 'node') out.nodeReads += rows.length;
            return rows;
          },
          put: (...a) => tx.put(...a),
          delete: (...a) => tx.delete(...a),
          deleteRange: (...a) => tx.deleteRange(...a),
          namespaces: (t) => tx.namespaces(t),
        }),
      );
    },
    close: () => undefined,
  };
  return out;
}

const store = (driver: RecordDriver): StorageAdapter => createRecordStore(driver, { kind: 'memory', label: 'the test store', quotaRemedy: 'Free memory.' });

describe.each([
  ['memory', async () => createMemoryRecordDriver()],
  ['IndexedDB (fake-indexeddb)', async () => openIdbRecordDriver(new IDBFactory(), 'damage', IDB_VERSION, upgradeRecords)],
])('the record store over the %s driver', (_label, openDriver) => {
  it('stats() reads no node record, and reports the damaged record a read met', async () => {
    const raw = await openDriver();
    const driver = counting(raw);
    const storage = store(driver);
    const memory = await createMemory({ encoder: crashEncoder, storage, logger: quietLogger, namespace: 'ns', parameters: { maintenanceInterval: 0 } });
    try {
      const ids: string[] = [];
      for (const text of ['the lighthouse keeper paints the door', 'a ferry leaves the harbour at noon', 'gulls nest on the old pier']) ids.push((await memory.add({ text, source: 'a' })).id);
      const [bad] = ids as [string];
      // One stored record changed behind the store's back: its checksum no longer matches.
      await raw.transaction(['node'], 'write', async (tx) => {
        const r = (await tx.get('node', 'ns', bad)) as NodeRecord;
        tx.put('node', 'ns', bad, { ...r, text: `${r.text}!` });
      });

      driver.nodeReads = 0;
      const clean = await memory.stats();
      expect(driver.nodeReads).toBe(0);
      expect(clean.nodes).toBe(3);
      expect(clean.damaged).toEqual({ count: 0, ids: [], checkpoint: false });

      // A read meets the damaged record: it is left out and remembered.
      expect((await storage.getNodes('ns', ids)).map((n) => n.id)).toEqual(ids.slice(1));
      driver.nodeReads = 0;
      const met = await memory.stats();
      expect(driver.nodeReads).toBe(0);
      expect(met.damaged).toEqual({ count: 1, ids: [bad], checkpoint: false });

      // The full pass reads every node record once; its answer is then known without one.
      driver.nodeReads = 0;
      expect(await storage.damaged('ns')).toEqual({ ids: [bad], checkpoint: false });
      expect(driver.nodeReads).toBe(3);
      driver.nodeReads = 0;
      expect(await storage.damaged('ns')).toEqual({ ids: [bad], checkpoint: false });
      expect(driver.nodeReads).toBe(0);
    } finally {
      await memory.close();
      raw.close();
    }
  });

  it('a record the kept counter holds but no read reaches is counted as unreadable by the full pass only', async () => {
    const raw = await openDriver();
    const driver = counting(raw);
    const writer = store(driver);
    const node = (id: string, seq: number) => ({
      id,
      namespace: 'ns',
      seq,
      text: `turn ${seq}`,
      status: 'active',
      embedding: { encoder: 'test', vector: new Float32Array([1, 0, 0, 0]) },
    });
    await writer.commit('ns', { putNodes: [node('n1', 1), node('n2', 2), node('n3', 3)] as never });
    // A record removed behind the store's back (the kept counter still says 3).
    await raw.transaction(['node'], 'write', async (tx) => tx.delete('node', 'ns', 'n2'));
    const reader = store(driver);
    expect(await reader.damaged('ns', { scan: false })).toEqual({ ids: [], checkpoint: false });
    driver.nodeReads = 0;
    expect(await reader.damaged('ns')).toEqual({ ids: [], checkpoint: false, unreadable: 1 });
    expect(driver.nodeReads).toBe(2);
    driver.nodeReads = 0;
    expect(await reader.damaged('ns', { scan: false })).toEqual({ ids: [], checkpoint: false, unreadable: 1 });
    expect(driver.nodeReads).toBe(0);
    // A drop forgets the pass and what it found.
    await reader.dropNamespace('ns');
    expect(await reader.damaged('ns', { scan: false })).toEqual({ ids: [], checkpoint: false });
    raw.close();
  });
});
