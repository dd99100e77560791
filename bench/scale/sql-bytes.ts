/**
 * Where the bytes of the Node SQLite store go (issue 22): builds one namespace by the scale
 * recipe (`scale.ts` {@link scaleObservations}, one `addMany`, chunks of {@link SCALE_BULK_CHUNK},
 * the shipped local System One) and prints the file's bytes by table and index from SQLite's
 * `dbstat` virtual table, the record table's bytes by record table (`tbl`) and column, and the
 * time to reopen the store and answer the first recall.
 *
 * Run:
 * - `npx tsx bench/scale/sql-bytes.ts build <dir> [size] [--data locomo10.json]`: writes the store
 *   (`<dir>/jev-mem.sqlite`), then prints as `stat` does;
 * - `npx tsx bench/scale/sql-bytes.ts stat <dir>`: the byte figures of an existing store (opened
 *   through the store first, so an older layout is migrated);
 * - `npx tsx bench/scale/sql-bytes.ts reopen <dir> [rounds]`: close, open, `get` of an unknown id
 *   (the scale bench's reopen), then the first recall, `rounds` times (default 3), ms; with
 *   `--profile <file.cpuprofile>`, a V8 CPU profile of the last round (`profile-summary.ts` reads it).
 *
 * @module
 */
import { statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { sharedEncoder } from '../lib/jev.js';
import { SCALE_BULK_CHUNK, scaleObservations, scaleQuestions } from './scale.js';

const NAMESPACE = 'scale';

const post = (session: Session, method: string): Promise<unknown> =>
  new Promise((resolve, reject) => session.post(method, (e, r) => (e ? reject(e) : resolve(r))));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

async function models(): Promise<{ encoder: Encoder; systemOne: Awaited<ReturnType<typeof createSystemOneFromName>> }> {
  const encoder = await createDefaultNodeEncoder();
  const systemOne = await createSystemOneFromName('local', { env: process.env });
  return { encoder, systemOne };
}

async function build(dir: string, size: number): Promise<void> {
  const data = await loadLocomo(arg('--data') ?? defaultLocomoPath());
  const { encoder, systemOne } = await models();
  const memory = await createNodeMemory({ store: dir, namespace: NAMESPACE, encoder: sharedEncoder(encoder), systemOne });
  const t = performance.now();
  await memory.addMany(scaleObservations(data.conversations, size), { chunkSize: SCALE_BULK_CHUNK });
  console.log(`built ${size} observations in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await memory.close();
}

/** The byte figures of the store's file (see the module). */
function stat(dir: string): void {
  const file = join(dir, 'jev-mem.sqlite');
  const db = new sqlite.Database(file, { readOnly: true });
  try {
    const one = (sql: string): Record<string, unknown> => db.all(sql)[0] as Record<string, unknown>;
    const pageSize = Number(one('PRAGMA page_size').page_size);
    const pages = Number(one('PRAGMA page_count').page_count);
    const free = Number(one('PRAGMA freelist_count').freelist_count);
    const version = db.all(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]?.value;
    const nodes = Number(arg('--nodes') ?? one(`SELECT COUNT(*) AS n FROM jev_mem_rec WHERE tbl = 0 AND chunk = 0`).n);
    console.log(`file ${statSync(file).size} bytes, page ${pageSize}, ${pages} pages (${free} free), layout ${String(version)}, ${nodes} node records, ${(statSync(file).size / nodes).toFixed(0)} bytes/node`);
    console.log('\nby table / index (dbstat): bytes, payload, unused, cells');
    const rows = db.all(`SELECT name, SUM(pgsize) AS bytes, SUM(payload) AS payload, SUM(unused) AS unused, SUM(ncell) AS cells FROM dbstat GROUP BY name ORDER BY bytes DESC`);
    for (const r of rows) console.log(`  ${String(r.name).padEnd(34)} ${String(r.bytes).padStart(10)} ${String(r.payload).padStart(10)} ${String(r.unused).padStart(9)} ${String(r.cells).padStart(8)}  ${(Number(r.bytes) / nodes).toFixed(0).padStart(5)} B/node`);
    if (db.all(`SELECT name FROM sqlite_master WHERE name = 'jev_mem_rec'`).length === 0) return;
    console.log('\nrecord table by tbl: rows, sum length(ns), length(k), length(v)');
    for (const r of db.all(`SELECT tbl, COUNT(*) AS n, SUM(LENGTH(ns)) AS ns, SUM(LENGTH(k)) AS k, SUM(LENGTH(v)) AS v FROM jev_mem_rec GROUP BY tbl ORDER BY tbl`)) {
      console.log(`  tbl ${r.tbl}: ${r.n} rows, ns ${r.ns}, k ${r.k}, v ${r.v}  (${(Number(r.v) / nodes).toFixed(0)} B/node of values)`);
    }
  } finally {
    db.close();
  }
}

async function reopen(dir: string, rounds: number): Promise<void> {
  const data = await loadLocomo(arg('--data') ?? defaultLocomoPath());
  const question = scaleQuestions(data.conversations, 50)[0] ?? 'hello';
  const { encoder, systemOne } = await models();
  const profileTo = arg('--profile');
  for (let i = 0; i < rounds; i++) {
    const session = profileTo !== undefined && i === rounds - 1 ? new Session() : undefined;
    if (session) {
      session.connect();
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.start');
    }
    const t = performance.now();
    const memory = await createNodeMemory({ store: dir, namespace: NAMESPACE, encoder: sharedEncoder(encoder), systemOne });
    await memory.get('jev-mem-reopen-probe');
    const reopenMs = performance.now() - t;
    const tf = performance.now();
    await memory.recall(question, { k: 20 });
    const firstRecallMs = performance.now() - tf;
    if (session) {
      const { profile } = (await post(session, 'Profiler.stop')) as { profile: unknown };
      writeFileSync(profileTo as string, JSON.stringify(profile));
      session.disconnect();
    }
    console.log(`reopen ${reopenMs.toFixed(0)} ms, first recall ${firstRecallMs.toFixed(0)} ms`);
    await memory.close();
  }
}

const [command, dir, n] = process.argv.slice(2);
if (dir === undefined || !['build', 'stat', 'reopen'].includes(command ?? '')) {
  console.error('usage: sql-bytes.ts build|stat|reopen <dir> [size|rounds] [--data file]');
  process.exit(2);
}
if (command === 'build') await build(dir, Number(n ?? 10_000));
if (command === 'stat') {
  // Opened through the store first, so an older layout is migrated.
  const memory = await createNodeMemory({ store: dir, namespace: NAMESPACE, encoder: sharedEncoder(await createDefaultNodeEncoder()), systemOne: await createSystemOneFromName('heuristic', { env: process.env }) });
  await memory.get('jev-mem-reopen-probe');
  await memory.close();
}
if (command === 'reopen') await reopen(dir, Number(n ?? 3));
else stat(dir);
