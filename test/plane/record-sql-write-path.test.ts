/**
 * The write path of the SQL record driver (issue 22, h-nodeperf). A put whose key the
 * transaction read and found absent or in one chunk skips the statement that deletes chunks a
 * longer value left (most puts: the store reads what it replaces); a value that had, or was
 * given, more than one chunk still loses the rest.
 *
 * A value is encoded once: the seal
 * is written in front of the encoded bytes (`encodeSealed`) instead of copying them behind it,
 * and a key or namespace name is bound as its UTF-8 bytes without TextEncoder when it is ASCII.
 * Both must give the very bytes the two-step forms give, or stored records would read as damaged
 * (a seal over other bytes) or be looked up under another key.
 */
import { describe, expect, it } from 'vitest';
import { RECORD_CHUNK_BYTES, createSqlRecordDriver } from '../../src/plane/drivers/record-sql.js';
import { encodeRecordValue, keyOfSql, sqlKey } from '../../src/plane/drivers/record-sql-codec.js';
import { SEALED, encodeSealed, readRecordValue, sealValue } from '../../src/plane/drivers/record-sql-seal.js';
import { makeNode } from './fixtures.js';
import { memorySqlConnection } from './sql-connection.js';

function open() {
  const conn = memorySqlConnection();
  const driver = createSqlRecordDriver(conn, { prefix: 'jev_mem_', label: 'the test SQL store', lexical: 'none', importLegacy: async () => ({ finish: () => undefined }), vacuum: false });
  const deletes = (): number => sqls.filter((q) => /^DELETE FROM jev_mem_rec WHERE .*chunk >= \?/.test(q)).length;
  const sqls: string[] = [];
  const query = conn.query.bind(conn);
  conn.query = (sql, params = []) => {
    sqls.push(sql);
    return query(sql, params);
  };
  const chunks = (key: string): number => Number(query(`SELECT COUNT(*) AS n FROM jev_mem_rec WHERE tbl = 3 AND k = ?`, [sqlKey(key)])[0]!.n);
  return { driver, deletes, chunks, sqls };
}
const big = (): Uint8Array => new Uint8Array(RECORD_CHUNK_BYTES + 10).map((_, i) => i % 251);

describe('the chunk tail of a put', () => {
  it('is not deleted for a key read in this transaction and found absent or in one chunk', async () => {
    const { driver, deletes } = open();
    await driver.transaction(['meta'], 'write', async (tx) => {
      await tx.get('meta', 'a', 'new');
      tx.put('meta', 'a', 'new', { v: 1 });
    });
    expect(deletes()).toBe(0);
    await driver.transaction(['meta'], 'write', async (tx) => {
      await tx.get('meta', 'a', 'new');
      tx.put('meta', 'a', 'new', { v: 2 });
      tx.put('meta', 'a', 'unread', { v: 3 }); // not read: its tail is deleted as before
    });
    expect(deletes()).toBe(1);
    expect(await driver.transaction(['meta'], 'read', async (tx) => [await tx.get('meta', 'a', 'new'), await tx.get('meta', 'a', 'unread')])).toEqual([{ v: 2 }, { v: 3 }]);
  });

  it('is deleted when the value read had more than one chunk', async () => {
    const { driver, chunks } = open();
    await driver.transaction(['meta'], 'write', async (tx) => tx.put('meta', 'a', 'k', { b: big() }));
    expect(chunks('k')).toBe(2);
    await driver.transaction(['meta'], 'write', async (tx) => {
      await tx.get('meta', 'a', 'k');
      tx.put('meta', 'a', 'k', { v: 'small' });
    });
    expect(chunks('k')).toBe(1);
    expect(await driver.transaction(['meta'], 'read', async (tx) => tx.get('meta', 'a', 'k'))).toEqual({ v: 'small' });
  });

  it('is deleted after this transaction put the key in more than one chunk, also when the read resolved after that put', async () => {
    const { driver, chunks } = open();
    await driver.transaction(['meta'], 'write', async (tx) => {
      await tx.get('meta', 'a', 'k');
      tx.put('meta', 'a', 'k', { b: big() });
      tx.put('meta', 'a', 'k', { v: 'small' });
    });
    expect(chunks('k')).toBe(1);
    await driver.transaction(['meta'], 'write', async (tx) => {
      const read = tx.get('meta', 'a', 'j'); // issued first, answered after the puts below
      tx.put('meta', 'a', 'j', { b: big() });
      await read;
      tx.put('meta', 'a', 'j', { v: 'small' });
    });
    expect(chunks('j')).toBe(1);
    expect(await driver.transaction(['meta'], 'read', async (tx) => [await tx.get('meta', 'a', 'k'), await tx.get('meta', 'a', 'j')])).toEqual([{ v: 'small' }, { v: 'small' }]);
  });
});

describe('encodeSealed', () => {
  const node = makeNode('alpha', '3e750364-a3d5-46ee-826d-7ec99128360f', 1);
  const values: Array<[string, unknown, string | number]> = [
    ['a node record', node, node.id],
    ['bytes', { format: 2, bytes: new Uint8Array([1, 2, 3, 250]) }, 'k'],
    ['a number key', ['x', 1.5, null, true], 7],
    ['text needing UTF-8 and UTF-16', { t: 'é \u{1F600} \ud800 x'.repeat(40) }, 'ключ'],
  ];
  it.each(values)('gives the bytes of sealValue(encodeRecordValue(…)) for %s', (_name, value, key) => {
    const once = encodeSealed(value, key);
    expect(once).toStrictEqual(sealValue(encodeRecordValue(value, key)));
    expect(once[0]).toBe(SEALED);
    expect(readRecordValue('meta', once, key)).toStrictEqual(readRecordValue('meta', sealValue(encodeRecordValue(value, key)), key));
  });
  it('a changed byte after the seal still fails it', () => {
    const once = encodeSealed({ a: 'text' }, 'k');
    once[once.length - 1] ^= 1;
    expect(readRecordValue('meta', once, 'k')).toMatchObject({ reason: 'checksum' });
  });
});

describe('sqlKey', () => {
  it.each(['', 'alpha', '3e750364-a3d5-46ee-826d-7ec99128360f', 'tenant:alice\u0000x', 'é', 'a\u{1F600}', 'lone \ud800 surrogate', 'x'.repeat(64), 'é'.repeat(65), 'y'.repeat(300)])('binds %j as its UTF-8 bytes (as TextEncoder)', (s) => {
    expect(sqlKey(s)).toStrictEqual(new TextEncoder().encode(s));
  });
  it.each(['', 'alpha', '3e750364-a3d5-46ee-826d-7ec99128360f', 'tenant:alice\u0000x', 'é', 'a\u{1F600}', 'x'.repeat(64), 'é'.repeat(65), 'y'.repeat(300)])('reads %j back from its bytes', (s) => {
    expect(keyOfSql(sqlKey(s))).toBe(s);
  });
  it('reads bytes that are not UTF-8 with U+FFFD (a changed byte of the key index: the keyed seal then finds the record damaged, h-break15 finding 1)', () => {
    expect(keyOfSql(new Uint8Array([0x61, 0xff]))).toBe('a\uFFFD');
  });
  it('binds a number as itself', () => {
    expect(sqlKey(42)).toBe(42);
  });
});
