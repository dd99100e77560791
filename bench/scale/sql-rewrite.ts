/**
 * Rewrites every record of a Node SQLite store written before stop 33 in the compact formats
 * (record values format 2, `record-sql-binary.ts`; adjacency entries format 2,
 * `record-adjacency.ts`), then VACUUMs: the store as the lazy migration leaves it once every
 * record has been written again, for the byte figures of `sql-bytes.ts stat` on a store built
 * before (the 100k store of the lead's `bench scale` run). Checkpoint records (`tbl` 5) are left
 * as they are. The namespaces' kept byte counters (`spaces`) are moved by what the rewrite
 * changed in their estimate (`record-counters.ts`), so `stats().storageBytes` stays the one a
 * store written by this build would give. Each row keeps its row id (its FTS5 row).
 *
 * Run on a copy (it changes the file): `npx tsx bench/scale/sql-rewrite.ts <dir>`.
 *
 * @module
 */
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { BINARY_FORMAT } from '../../src/plane/drivers/record-sql-binary.js';
import { decodeRecordValue, encodeRecordValue, keyOfSql } from '../../src/plane/drivers/record-sql-codec.js';
import { type AdjacencyRecord, decodeAdjacency, encodeAdjacency } from '../../src/plane/store/record-adjacency.js';
import type { SpaceRecord } from '../../src/plane/store/record-codec.js';
import { recordBytes } from '../../src/plane/store/record-counters.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: sql-rewrite.ts <store dir>');
const db = new sqlite.Database(join(dir, 'jev-mem.sqlite'));
const ADJ = RECORD_TABLES.indexOf('adj');
const SPACES = RECORD_TABLES.indexOf('spaces');
const CHECKPOINTS = RECORD_TABLES.indexOf('checkpoints');
const t = performance.now();
const delta = new Map<string, number>();
let rows = 0;
let before = 0;
let after = 0;
const BATCH = 2000;
for (let last = 0; ; ) {
  const batch = db.all(`SELECT id, tbl, ns, k, v FROM jev_mem_rec WHERE id > ? AND chunk = 0 AND tbl NOT IN (?, ?) ORDER BY id LIMIT ?`, [last, CHECKPOINTS, SPACES, BATCH]);
  if (batch.length === 0) break;
  db.run('BEGIN');
  for (const r of batch) {
    last = Number(r.id);
    const v = r.v as Uint8Array;
    if (v[0] === BINARY_FORMAT) continue;
    if (v.byteLength === 1 << 20) throw new Error(`row ${last}: a chunked value, which this tool does not rewrite`);
    const ns = keyOfSql(r.ns) as string;
    const key = keyOfSql(r.k);
    let value = decodeRecordValue(v, key);
    if (Number(r.tbl) === ADJ) {
      const old = recordBytes(ns, key, value);
      value = encodeAdjacency(String(key), decodeAdjacency(ns, String(key), value as AdjacencyRecord)) as AdjacencyRecord;
      delta.set(ns, (delta.get(ns) ?? 0) + recordBytes(ns, key, value) - old);
    }
    const blob = encodeRecordValue(value, key);
    db.run(`UPDATE jev_mem_rec SET v = ? WHERE id = ?`, [blob, last]);
    rows++;
    before += v.byteLength;
    after += blob.byteLength;
  }
  db.run('COMMIT');
}
db.run('BEGIN');
for (const r of db.all(`SELECT id, ns, k, v FROM jev_mem_rec WHERE tbl = ?`, [SPACES])) {
  const ns = keyOfSql(r.ns) as string;
  const space = decodeRecordValue(r.v as Uint8Array, keyOfSql(r.k)) as SpaceRecord;
  space.bytes += delta.get(ns) ?? 0;
  db.run(`UPDATE jev_mem_rec SET v = ? WHERE id = ?`, [encodeRecordValue(space, keyOfSql(r.k)), Number(r.id)]);
}
db.run('COMMIT');
db.run('VACUUM');
db.close();
console.log(`rewrote ${rows} records: ${before} → ${after} value bytes, in ${((performance.now() - t) / 1000).toFixed(1)} s (then VACUUM)`);
