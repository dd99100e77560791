/**
 * A node record read from sealed bytes (layout 7) is checked by its seal, over the stored bytes,
 * and not serialised again to check its `sum` (issue 22, the read path's cost: `record-codec.ts`
 * SEAL_HELD); a record without the seal (layouts 5 and 6) is still checked against its `sum`, and
 * a changed byte under a seal is still a damaged record. The same for a checkpoint record and
 * the sums of its parts (issue 25: a second CRC-32 over the checkpoint at every open).
 */
import { describe, expect, it } from 'vitest';
import { ONE, RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { encodeRecordValue } from '../../src/plane/drivers/record-sql-codec.js';
import { readRecordValue, sealValue } from '../../src/plane/drivers/record-sql-seal.js';
import { checkpointHeadSum, checkpointRecord } from '../../src/plane/store/record-checkpoint.js';
import { SEAL_HELD, nodeRecordSound, sealHeld, toNodeRecord } from '../../src/plane/store/record-codec.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { makeNode } from './fixtures.js';
import { memorySqlConnection } from './sql-connection.js';

const A = 'alpha';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
type Conn = ReturnType<typeof memorySqlConnection>;

function storeOn(conn: Conn): StorageAdapter {
  return createSqlRecordStore(conn, { kind: 'sqlite', label: 'the test store', quotaRemedy: 'Free space.', lexical: 'fts5', vacuum: false });
}

/** Replaces the stored value of node `id` with `value`. */
function setNodeValue(conn: Conn, id: string, value: Uint8Array): void {
  const rows = conn.query('SELECT id FROM jev_mem_rec WHERE tbl = ? AND ns = ? AND k = ?', [RECORD_TABLES.indexOf('node'), utf8(A), utf8(id)]);
  expect(rows).toHaveLength(1);
  conn.query('UPDATE jev_mem_rec SET v = ? WHERE id = ?', [value, rows[0]!.id as number]);
}

/** A store holding nodes a and b, with b's stored value replaced by `bValue(record of b)`. */
async function withB(bValue: (record: ReturnType<typeof toNodeRecord>) => Uint8Array): Promise<StorageAdapter> {
  const conn = memorySqlConnection();
  const first = storeOn(conn);
  await first.commit(A, { putNodes: [makeNode(A, 'a', 1), makeNode(A, 'b', 2)], change: 1 });
  await first.close();
  // The record as the store writes it, with a sum that does not match its fields.
  setNodeValue(conn, 'b', bValue({ ...toNodeRecord(makeNode(A, 'b', 2)), sum: 12345 }));
  return storeOn(conn);
}

describe('node records under a seal', () => {
  it('a sealed record is checked by its seal: the reader does not recompute its sum (a record whose sum was wrong before sealing reads)', async () => {
    const store = await withB((r) => sealValue(encodeRecordValue(r, 'b')));
    expect((await store.getNodes(A, ['a', 'b'])).map((n) => n.id)).toEqual(['a', 'b']);
    expect((await store.damaged(A)).ids).toEqual([]);
    await store.close();
  });

  it('an unsealed record (layouts 5 and 6) is still checked against its sum', async () => {
    const store = await withB((r) => encodeRecordValue(r, 'b'));
    expect((await store.getNodes(A, ['a', 'b'])).map((n) => n.id)).toEqual(['a']);
    expect((await store.damaged(A)).ids).toEqual(['b']);
    await store.close();
  });

  it('a changed byte under the seal is a damaged record', async () => {
    const store = await withB((r) => {
      const v = sealValue(encodeRecordValue({ ...r, sum: toNodeRecord(makeNode(A, 'b', 2)).sum }, 'b'));
      v[v.length - 3] = v[v.length - 3]! ^ 0x01;
      return v;
    });
    expect((await store.getNodes(A, ['a', 'b'])).map((n) => n.id)).toEqual(['a']);
    expect((await store.damaged(A)).ids).toEqual(['b']);
    await store.close();
  });

  it('the mark is set only on node records of sealed bytes, and no copy or JSON of the record carries it', () => {
    const record = toNodeRecord(makeNode(A, 'n', 1));
    const sealed = readRecordValue('node', sealValue(encodeRecordValue(record, 'n')), 'n') as Record<PropertyKey, unknown>;
    const unsealed = readRecordValue('node', encodeRecordValue(record, 'n'), 'n') as Record<PropertyKey, unknown>;
    const meta = readRecordValue('meta', sealValue(encodeRecordValue({ x: 1 }, 'k')), 'k') as Record<PropertyKey, unknown>;
    expect([sealed[SEAL_HELD], unsealed[SEAL_HELD], meta[SEAL_HELD]]).toEqual([true, undefined, undefined]);
    expect({ ...sealed }[SEAL_HELD]).toBeUndefined();
    expect(JSON.stringify(sealed)).toBe(JSON.stringify(unsealed));
    // The mark stands for the sum only when the record carries one.
    const { sum: _sum, ...noSum } = sealed;
    Object.defineProperty(noSum, SEAL_HELD, { value: true });
    expect(nodeRecordSound(noSum as never)).toBe(false);
    expect(nodeRecordSound(sealed as never)).toBe(true);
  });
});

describe('checkpoint records under a seal', () => {
  const checkpoint = { change: 1, format: 'test@1', parts: { 'a.bin': new Uint8Array([1, 2, 3, 4]), 'b.bin': utf8('{"x":1}') } };

  /** A store holding the checkpoint of namespace A, stored as `value(record)` (the record as the store writes it, its sum of part a.bin set to `sumA`, its head sum recomputed). */
  async function withCheckpoint(sumA: number | undefined, value: (record: ReturnType<typeof checkpointRecord>) => Uint8Array): Promise<StorageAdapter> {
    const conn = memorySqlConnection();
    const first = storeOn(conn);
    await first.commit(A, { putNodes: [makeNode(A, 'a', 1)], change: 1 });
    await first.writeCheckpoint?.(A, checkpoint);
    await first.close();
    const record = checkpointRecord(checkpoint);
    record.sums = { ...record.sums };
    if (sumA === undefined) delete record.sums['a.bin'];
    else record.sums['a.bin'] = sumA;
    record.head = checkpointHeadSum(record);
    const rows = conn.query('SELECT id FROM jev_mem_rec WHERE tbl = ? AND ns = ? AND k = ?', [RECORD_TABLES.indexOf('checkpoints'), utf8(A), new Uint8Array(0)]);
    expect(rows).toHaveLength(1);
    conn.query('UPDATE jev_mem_rec SET v = ? WHERE id = ?', [value(record), rows[0]!.id as number]);
    return storeOn(conn);
  }

  it('a sealed checkpoint is checked by its seal: its parts are not summed again (a part sum wrong before sealing reads), while an unsealed one, a part without a sum or a changed byte is damaged', async () => {
    const sealed = await withCheckpoint(12345, (r) => sealValue(encodeRecordValue(r, ONE)));
    expect((await sealed.readCheckpoint?.(A))?.parts['a.bin']).toEqual(new Uint8Array([1, 2, 3, 4]));
    await sealed.close();
    const damaged = [
      await withCheckpoint(12345, (r) => encodeRecordValue(r, ONE)), // layouts 5 and 6: each part is summed
      await withCheckpoint(undefined, (r) => sealValue(encodeRecordValue(r, ONE))),
      await withCheckpoint(checkpointRecord(checkpoint).sums!['a.bin'], (r) => {
        const v = sealValue(encodeRecordValue(r, ONE));
        v[v.length - 2] = v[v.length - 2]! ^ 0x01;
        return v;
      }),
    ];
    for (const store of damaged) {
      await expect(store.readCheckpoint?.(A)).rejects.toMatchObject({ code: 'STORE_DAMAGED', field: 'checkpoint' });
      await store.close();
    }
  });

  it('the mark is set on checkpoint records of sealed bytes only', () => {
    const record = checkpointRecord(checkpoint);
    expect(sealHeld(readRecordValue('checkpoints', sealValue(encodeRecordValue(record, ONE)), ONE))).toBe(true);
    expect(sealHeld(readRecordValue('checkpoints', encodeRecordValue(record, ONE), ONE))).toBe(false);
  });
});
