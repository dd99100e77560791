/**
 * The screened scan keeps the driver's contract (`RecordTx.scan`: fewer than `limit` records only
 * at the end of the table) when it takes damaged records out (issue 22, fresh-clone review): it
 * answered a batch short by the damaged ones, every caller (the edge scan of `jev-mem repair`,
 * the recount, the reads of a damaged adjacency record's edges at their other ends) took that
 * for the end, and the records after it were never read: repair kept 4,371 of 9,305 edges.
 */
import { describe, expect, it } from 'vitest';
import { DamagedRecord, type KeyedRecord, type RecordDriver, type RecordTx } from '../../src/plane/drivers/record-driver.js';
import { DamageLog } from '../../src/plane/store/checksum.js';
import { screenedDriver } from '../../src/plane/store/record-screen.js';

/** A read-only driver over one sorted table of `rows` (every table and namespace read the same). */
function fixedDriver(rows: readonly KeyedRecord[]): RecordDriver & { asked: number[] } {
  const asked: number[] = [];
  const tx = {
    scan: async (_t: unknown, _ns: string, after: unknown, limit: number) => {
      asked.push(limit);
      const from = after === undefined ? 0 : rows.findIndex((r) => r[0] === after) + 1;
      return rows.slice(from, from + limit);
    },
    get: async (_t: unknown, _ns: string, key: unknown) => rows.find((r) => r[0] === key)?.[1],
  } as unknown as RecordTx;
  return { asked, transaction: (_tables, _mode, work) => work(tx), close: () => undefined };
}

describe('a screened scan over damaged records', () => {
  const keys = 'abcdefghij'.split('');
  const rows: KeyedRecord[] = keys.map((k, i) => [k, k === 'b' || k === 'c' ? new DamagedRecord('checksum') : { i }]);

  it('answers `limit` sound records past the damaged ones, so a caller that stops at a short batch reads them all', async () => {
    const damage = new DamageLog();
    const driver = fixedDriver(rows);
    const screened = screenedDriver(driver, damage);
    const read: string[] = [];
    let after: string | undefined;
    for (;;) {
      const batch = await screened.transaction(['adj'], 'read', (tx) => tx.scan('adj', 'ns', after, 4));
      read.push(...batch.map((r) => String(r[0])));
      if (batch.length < 4) break;
      after = String(batch[batch.length - 1]![0]);
    }
    expect(read).toEqual(['a', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(damage.records('ns')).toEqual(['adj:b', 'adj:c']);
    // The first batch read 4 rows, 2 of them damaged, then 2 more after them.
    expect(driver.asked.slice(0, 2)).toEqual([4, 2]);
  });

  it('ends where the table ends when the damaged records are its last', async () => {
    const damage = new DamageLog();
    const screened = screenedDriver(fixedDriver(rows.slice(0, 3)), damage);
    expect((await screened.transaction(['adj'], 'read', (tx) => tx.scan('adj', 'ns', undefined, 3))).map((r) => r[0])).toEqual(['a']);
    expect((await screened.transaction(['meta'], 'read', (tx) => tx.scan('meta', 'ns', undefined, Infinity))).map((r) => r[0])).toEqual(['a']);
  });
});
