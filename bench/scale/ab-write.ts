/**
 * Writes of one code tree, measured so that two trees compare on a loaded machine (issue 22,
 * h-nodeperf): N observations of the scale recipe (`scale.ts` `scaleObservations`) go into a
 * FRESH Node store through `<repo>`'s own `createNodeMemory` (its encoder, local System One and
 * bench helpers too), one `add` each (`add`) or one `addMany` in chunks of 64 (`many`). The
 * first observation opens the store and is not timed. Prints one JSON line: the process CPU time
 * (user + system) of the timed writes, in all and per observation; per observation, the SQL
 * statements run, their CPU time (with `--sql` only: timing each statement costs CPU) and rows, the fsyncs and the takes of node-sqlite3-wasm's lock
 * directory (`mkdir`); `stats().storageBytes`; and, after `close()`, every file of the store
 * folder with its bytes. With `--sql`, the statements by SQL text (per observation, costliest
 * first) go to stderr.
 *
 * `<repo>` may be another checkout (the filing code d9efaed in a worktree with this repo's
 * node_modules linked): run it from there so its imports resolve, e.g.
 * `cd <repo> && node --import tsx <this repo>/bench/scale/ab-write.ts <repo> <new dir> 500 add`.
 * Two trees run at the same time see the same load; compare CPU, not wall time.
 *
 * @module
 */
import fs, { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data' && all[i - 1] !== '--every');
const [repoArg, dirArg, nArg, mode = 'add'] = positional;
if (repoArg === undefined || dirArg === undefined || !['add', 'many'].includes(mode)) {
  throw new Error('usage: ab-write.ts <repo> <fresh store dir> [n=500] [add|many] [--sql] [--data locomo10.json]');
}
const repo = resolve(repoArg);
const dir = resolve(dirArg);
const n = Number(nArg ?? 500);
const dataIndex = process.argv.indexOf('--data');
const dataPath = dataIndex > 0 ? process.argv[dataIndex + 1] : undefined;

/** Whether each statement's CPU time is measured (`--sql`). */
const timing = process.argv.includes('--sql');
/** Counts kept while the writes run. */
const count = { statements: 0, sqlCpuMs: 0, rows: 0, fsync: 0, lockTakes: 0 };
const bySql = new Map<string, { n: number; ms: number }>();
let counting = false;
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

// Every statement of the driver runs through a prepared statement's `all`; wrap it once.
type Statement = { all(...a: unknown[]): unknown[] };
let wrapped = false;
const sqlOf = new WeakMap<object, string>();
const prepare = sqlite.Database.prototype.prepare;
sqlite.Database.prototype.prepare = function (this: InstanceType<typeof sqlite.Database>, sql: string) {
  const s = prepare.call(this, sql) as unknown as Statement;
  sqlOf.set(s, sql);
  if (!wrapped) {
    wrapped = true;
    const proto = Object.getPrototypeOf(s) as Statement;
    const all = proto.all;
    proto.all = function (this: Statement, ...a: unknown[]) {
      // Timed with --sql only: two process.cpuUsage() calls per statement were ~2-6 ms of CPU per
      // single add on a loaded machine, counted in the figure being measured.
      const t = timing && counting ? process.cpuUsage() : undefined;
      const rows = all.apply(this, a);
      if (counting) {
        const ms = t === undefined ? 0 : cpuMs(t);
        count.statements++;
        count.sqlCpuMs += ms;
        count.rows += rows.length;
        const key = (sqlOf.get(this) ?? '?').replace(/\?(, \?)+/g, '?…').slice(0, 120);
        const e = bySql.get(key) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += ms;
        bySql.set(key, e);
      }
      return rows;
    };
  }
  return s as unknown as ReturnType<typeof prepare>;
} as typeof prepare;
const fsMod = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
for (const [name, field] of [['fsyncSync', 'fsync'], ['mkdirSync', 'lockTakes']] as const) {
  const original = fsMod[name] as (...a: unknown[]) => unknown;
  fsMod[name] = function (this: unknown, ...a: unknown[]) {
    if (counting && (name !== 'mkdirSync' || String(a[0]).endsWith('.lock'))) count[field]++;
    return original.apply(this, a);
  };
}

const { createNodeMemory } = (await import(`${repo}/src/node.ts`)) as typeof import('../../src/node.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');
const { sharedEncoder } = (await import(`${repo}/bench/lib/jev.ts`)) as typeof import('../lib/jev.js');
const { scaleObservations } = (await import(`${repo}/bench/scale/scale.ts`)) as typeof import('./scale.js');

const data = await loadLocomo(dataPath ?? defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const observations = scaleObservations(data.conversations, n);
const memory = await createNodeMemory({ store: dir, namespace: 'scale', encoder: sharedEncoder(encoder), systemOne });
await memory.add(observations[0] as Parameters<typeof memory.add>[0]); // opens the store: not timed
counting = true;
const start = process.cpuUsage();
const t0 = performance.now();
// `--every K`: the CPU of each K timed observations to stderr (K a multiple of 64 for `many`,
// so the slices cut no chunk), to see how the cost per write grows with the store.
const everyIndex = process.argv.indexOf('--every');
const every = everyIndex > 0 ? Number(process.argv[everyIndex + 1]) : 0;
const timedObs = observations.slice(1);
let mark = process.cpuUsage();
const segment = (done: number): void => {
  if (every > 0 && (done % every === 0 || done === timedObs.length)) {
    console.error(`segment ${done}: ${(cpuMs(mark) / (done % every || every)).toFixed(2)} ms/obs`);
    mark = process.cpuUsage();
  }
};
if (mode === 'add') {
  for (let i = 0; i < timedObs.length; i++) {
    await memory.add(timedObs[i] as (typeof timedObs)[number]);
    segment(i + 1);
  }
} else if (every > 0) {
  for (let i = 0; i < timedObs.length; i += every) {
    const part = timedObs.slice(i, i + every);
    await memory.addMany(part, { chunkSize: 64 });
    segment(i + part.length);
  }
} else await memory.addMany(timedObs, { chunkSize: 64 });
const cpu = cpuMs(start);
const wallS = (performance.now() - t0) / 1000;
counting = false;
const stats = await memory.stats();
await memory.close();

const files: Record<string, number> = {};
let fileBytes = 0;
const walk = (d: string): void => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    const s = statSync(p);
    if (s.isDirectory()) walk(p);
    else {
      files[p.slice(dir.length + 1)] = s.size;
      fileBytes += s.size;
    }
  }
};
walk(dir);
const timed = n - 1;
const per = (x: number): number => Number((x / timed).toFixed(2));
console.log(
  JSON.stringify({
    repo,
    mode,
    n,
    cpuMs: Math.round(cpu),
    cpuMsPerObservation: per(cpu),
    wallS: Number(wallS.toFixed(1)),
    perObservation: { statements: per(count.statements), sqlCpuMs: per(count.sqlCpuMs), rows: per(count.rows), fsync: per(count.fsync), lockTakes: per(count.lockTakes) },
    nodes: stats.nodes,
    storageBytesPerNode: Math.round((stats.storageBytes ?? 0) / stats.nodes),
    fileBytes,
    fileBytesPerNode: Math.round(fileBytes / stats.nodes),
    files,
  }),
);
if (process.argv.includes('--sql')) {
  for (const [sql, e] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) console.error(`${per(e.n).toFixed(2).padStart(7)}/obs ${(e.ms / timed).toFixed(3).padStart(7)} ms/obs  ${sql}`);
}
