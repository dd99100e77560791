/**
 * The contract of a record driver (issue 22), run on both drivers: the in-memory Maps and
 * IndexedDB (fake-indexeddb). Keys in IndexedDB order, key-range scans and deletes per namespace,
 * namespaces listed per table, copies in and out, and atomic write transactions (a failure
 * leaves nothing, the failure comes back raw).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ONE, type RecordDriver } from '../../src/plane/drivers/record-driver.js';
import { openIdbRecordDriver } from '../../src/plane/drivers/record-idb.js';
import { createMemoryRecordDriver } from '../../src/plane/drivers/record-memory.js';
import { createSqlRecordDriver } from '../../src/plane/drivers/record-sql.js';
import { memorySqlConnection } from './sql-connection.js';

const DRIVERS: Array<[string, () => Promise<RecordDriver>]> = [
  ['memory', async () => createMemoryRecordDriver()],
  ['indexeddb', () => openIdbRecordDriver(new IDBFactory(), 'drivers', 4, async () => undefined)],
  ['sql', async () => createSqlRecordDriver(memorySqlConnection(), { prefix: 'jev_mem_', label: 'the test SQL store', lexical: 'fts5', importLegacy: async () => ({ finish: () => undefined }), vacuum: false })],
];

describe.each(DRIVERS)('the %s record driver', (_name, open) => {
  it('scans one namespace in key order after a key, with a limit; numbers before strings', async () => {
    const d = await open();
    await d.transaction(['node', 'changes'], 'write', async (tx) => {
      for (const id of ['b', 'a', 'é', 'Z', 'a0']) tx.put('node', 'ns', id, { id });
      tx.put('node', 'ns2', 'a', { id: 'other' });
      tx.put('node', 'n', 'zz', { id: 'prefix namespace' });
      for (const c of [10, 2, 1]) tx.put('changes', 'ns', c, [String(c)]);
    });
    const keys = await d.transaction(['node'], 'read', (tx) => tx.scan('node', 'ns', undefined, Infinity));
    // UTF-16 code unit order: 'Z' (0x5a) < 'a' < 'a0' < 'b' < 'é' (0xe9)
    expect(keys.map((r) => r[0])).toEqual(['Z', 'a', 'a0', 'b', 'é']);
    expect((await d.transaction(['node'], 'read', (tx) => tx.scan('node', 'ns', 'a', 2))).map((r) => r[0])).toEqual(['a0', 'b']);
    expect(await d.transaction(['changes'], 'read', (tx) => tx.scan('changes', 'ns', 1, Infinity))).toEqual([[2, ['2']], [10, ['10']]]);
    expect(await d.transaction(['node'], 'read', (tx) => tx.namespaces('node'))).toEqual(['n', 'ns', 'ns2']);
    d.close();
  });

  it('deletes a key range of one namespace (up to a key, or all of it) and nothing of another', async () => {
    const d = await open();
    await d.transaction(['changes', 'spaces'], 'write', async (tx) => {
      for (const c of [1, 2, 3]) tx.put('changes', 'ns', c, [String(c)]);
      tx.put('changes', 'other', 1, ['kept']);
      tx.put('spaces', 'ns', ONE, { floor: 0 });
    });
    await d.transaction(['changes'], 'write', async (tx) => tx.deleteRange('changes', 'ns', 2));
    expect(await d.transaction(['changes'], 'read', (tx) => tx.scan('changes', 'ns', undefined, Infinity))).toEqual([[3, ['3']]]);
    await d.transaction(['changes', 'spaces'], 'write', async (tx) => {
      tx.deleteRange('changes', 'ns', undefined);
      tx.deleteRange('spaces', 'ns', undefined);
    });
    const left = await d.transaction(['changes', 'spaces'], 'read', (tx) => Promise.all([tx.scan('changes', 'ns', undefined, Infinity), tx.get('spaces', 'ns', ONE), tx.scan('changes', 'other', undefined, 9)]));
    expect(left).toEqual([[], undefined, [[1, ['kept']]]]);
    d.close();
  });

  it('stores and returns copies, and a write transaction sees its own writes', async () => {
    const d = await open();
    const value = { list: [1], bytes: new Uint8Array([7]) };
    const seen = await d.transaction(['meta'], 'write', async (tx) => {
      tx.put('meta', 'ns', 'k', value);
      return tx.get('meta', 'ns', 'k');
    });
    expect(seen).toEqual(value);
    value.list.push(2);
    const back = (await d.transaction(['meta'], 'read', (tx) => tx.get('meta', 'ns', 'k'))) as typeof value;
    expect(back.list).toEqual([1]);
    back.list.push(3);
    expect(await d.transaction(['meta'], 'read', (tx) => tx.get('meta', 'ns', 'k'))).toEqual({ list: [1], bytes: new Uint8Array([7]) });
    d.close();
  });

  it('a write transaction that fails leaves nothing of it, and its failure comes back raw', async () => {
    const d = await open();
    await d.transaction(['node', 'meta'], 'write', async (tx) => {
      tx.put('node', 'ns', 'a', { v: 'kept' });
      tx.put('meta', 'ns', 'k', 1);
    });
    const thrown = await d
      .transaction(['node', 'meta'], 'write', async (tx) => {
        tx.delete('node', 'ns', 'a');
        tx.put('node', 'ns', 'b', { v: 'new' });
        tx.put('meta', 'ns', 'k', 2);
        tx.put('node', 'ns', 'c', { fn: () => 1 }); // cannot be cloned
      })
      .catch((e: unknown) => e);
    expect((thrown as Error).name).toBe('DataCloneError');
    const work = new Error('the work failed');
    await expect(
      d.transaction(['node'], 'write', async (tx) => {
        tx.put('node', 'ns', 'd', { v: 'new' });
        await tx.get('node', 'ns', 'a');
        throw work;
      }),
    ).rejects.toBe(work);
    const after = await d.transaction(['node', 'meta'], 'read', (tx) => Promise.all([tx.scan('node', 'ns', undefined, Infinity), tx.get('meta', 'ns', 'k')]));
    expect(after).toEqual([[['a', { v: 'kept' }]], 1]);
    d.close();
  });

  it('after close, a transaction is refused with CLOSED', async () => {
    const d = await open();
    d.close();
    d.close();
    await expect(d.transaction(['node'], 'read', (tx) => tx.get('node', 'ns', 'a'))).rejects.toMatchObject({ code: 'CLOSED' });
  });
});

describe('the memory record driver', () => {
  it('zeroes the bytes of a value it no longer holds once the write that replaced or removed it succeeded (erasure)', async () => {
    const d = createMemoryRecordDriver();
    await d.transaction(['checkpoints'], 'write', async (tx) => tx.put('checkpoints', 'ns', ONE, { parts: { a: new Uint8Array([1, 2, 3]) } }));
    // The driver holds its own copy (structured clone) of what is put: catch that copy on its way in.
    const held: Uint8Array[] = [];
    const clone = globalThis.structuredClone;
    globalThis.structuredClone = ((v: unknown) => {
      const c = clone(v);
      const part = (c as { parts?: { a?: Uint8Array } })?.parts?.a;
      if (part !== undefined) held.push(part);
      return c;
    }) as typeof structuredClone;
    try {
      await d.transaction(['checkpoints'], 'write', async (tx) => tx.put('checkpoints', 'ns', ONE, { parts: { a: new Uint8Array([4, 5, 6]) } }));
      expect(Array.from(held[0]!)).toEqual([4, 5, 6]);
      await d.transaction(['checkpoints'], 'write', async (tx) => tx.delete('checkpoints', 'ns', ONE));
    } finally {
      globalThis.structuredClone = clone;
    }
    expect(Array.from(held[0]!)).toEqual([0, 0, 0]);
  });
});
