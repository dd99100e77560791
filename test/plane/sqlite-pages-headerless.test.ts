/**
 * The page-by-page read of a SQLite file whose first page is zeroed (issue 22, h-damage3 item 1):
 * the header (page size, free-list) and the schema are gone; the page size is guessed from the
 * pages themselves and every leaf page of the table's shape is read. Files of five page sizes,
 * written by SQLite, each with its first page zeroed: every row comes back as SQLite stored it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { type PageValue, guessPageSize, readTablePages } from '../../src/plane/store/sqlite-pages.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-pages-headerless-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database of page size `size` with table t (3,000 rows, text and BLOBs of varied length) and an index on it; its bytes and rows. */
function written(size: number): { bytes: Uint8Array; rows: Array<[number, string, Uint8Array]> } {
  const path = join(dir, `db-${size}.sqlite`);
  const db = openNodeSqlDriver(path);
  try {
    db.query(`PRAGMA page_size = ${size}`);
    db.transaction(() => {
      db.query('CREATE TABLE other (x TEXT)');
      db.query('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b BLOB NOT NULL)');
      db.query('CREATE INDEX t_a ON t (a)');
      for (let i = 1; i <= 3000; i++) {
        db.query('INSERT INTO t (a, b) VALUES (?, ?)', [`row ${i} ${'x'.repeat(i % 50)}`, new Uint8Array(i % 300).fill(i % 251)]);
        if (i % 10 === 0) db.query('INSERT INTO other (x) VALUES (?)', [`other ${i}`]);
      }
    });
    const rows = db.query('SELECT id, a, b FROM t ORDER BY id').map((r) => [Number(r.id), String(r.a), r.b as Uint8Array] as [number, string, Uint8Array]);
    return { bytes: new Uint8Array(readFileSync(path)), rows };
  } finally {
    db.close();
  }
}

const shape = (row: PageValue[]): boolean => row.length === 4 && row[1] === null && typeof row[2] === 'string' && row[3] instanceof Uint8Array;

describe('readTablePages of a file whose first page is zeroed', () => {
  for (const size of [512, 1024, 4096, 8192, 65536]) {
    it(`guesses page size ${size} and reads every row of the table`, () => {
      const { bytes, rows } = written(size);
      expect((bytes[16]! << 8) | bytes[17]!).toBe(size === 65536 ? 1 : size);
      bytes.fill(0, 0, size);
      expect(() => readTablePages(bytes, 't', shape)).toThrow('not a SQLite database');
      expect(guessPageSize(bytes)).toBe(size === 65536 ? 1 : size);
      const read = readTablePages(bytes, 't', shape, { headerless: true });
      expect(read.header).toBe(false);
      expect(read.pageSize).toBe(size);
      const got = read.rows.map((r) => [r[0], r[2], r[3]]).sort((x, y) => (x[0] as number) - (y[0] as number));
      expect(got).toEqual(rows);
    });
  }

  it('reads nothing from a file of zeros or text (no page size makes B-tree pages of it)', () => {
    expect(() => readTablePages(new Uint8Array(8192 * 4), 't', shape, { headerless: true })).toThrow(/no page size/);
    expect(() => readTablePages(new TextEncoder().encode('hello '.repeat(5000)), 't', shape, { headerless: true })).toThrow(/no page size/);
  });
});
