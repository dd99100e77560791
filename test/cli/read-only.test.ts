/**
 * A store this process may read but not write (sqlite-read-only.ts): recall, list, history,
 * export and stats work; delete and ingest are refused at once with STORAGE_FAILED naming the
 * read-only store, and the store is left as it was. As root the CLI runs as uid 65534 (setpriv),
 * otherwise the store is made read-only with chmod.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMemory } from '../../src/node.js';
import { ROOT, SAMPLE, cli } from './helpers.js';

const ENTRY = fileURLToPath(new URL('./source-entry.ts', import.meta.url));
const root = process.getuid?.() === 0;
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
/**
 * As root the CLI must run as uid 65534 from this checkout, so that user needs to reach its
 * `node_modules` (a checkout under a 0700 folder, e.g. one made by `mktemp -d`, is out of reach:
 * the test is then skipped with the reason, since root itself ignores file modes).
 */
function reachableAsNobody(): boolean {
  if (setpriv === undefined) return false;
  const probe = `require('node:fs').accessSync(${JSON.stringify(join(ROOT, 'node_modules', 'tsx', 'package.json'))})`;
  return spawnSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', probe], { stdio: 'ignore', timeout: 30_000 }).status === 0;
}
const runnable = process.platform !== 'win32' && (!root || reachableAsNobody());
if (process.platform !== 'win32' && !runnable) console.warn(`read-only store tests skipped: as root they run the CLI as uid 65534, which cannot reach ${join(ROOT, 'node_modules')} (a folder above it is not searchable by others)`);

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-readonly-'));
const store = join(dir, 'store');
let ids: string[] = [];
let before: Buffer;

/** Runs the CLI as a user who may not write the store; returns its exit code and output. */
function asReader(args: string[]): { code: number | null; out: string; err: string } {
  const node = [process.execPath, '--import', 'tsx', ENTRY, ...args];
  const [cmd, ...rest] = root ? [setpriv as string, '--reuid=65534', '--regid=65534', '--clear-groups', ...node] : node;
  const r = spawnSync(cmd as string, rest, { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: tmpdir() } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  if (!runnable) return;
  expect((await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
  const memory = await createNodeMemory({ store, systemOne: 'heuristic' });
  try {
    ids = (await memory.list({ limit: 2 })).memories.map((m) => m.id);
  } finally {
    await memory.close();
  }
  // Readable by all, writable by none (root ignores the mode: the CLI then runs as uid 65534).
  chmodSync(dir, 0o755);
  chmodSync(store, 0o555);
  for (const n of readdirSync(store)) chmodSync(join(store, n), 0o444);
  before = readFileSync(join(store, 'jev-mem.sqlite'));
}, 60_000);
afterAll(() => {
  if (existsSync(store)) chmodSync(store, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!runnable)('a read-only store', () => {
  it('serves recall, list, history, export, check and stats', () => {
    const recall = asReader(['recall', 'What is the dog called?', '--store', store, '--system-one', 'heuristic', '--json']);
    expect(recall.err).toBe('');
    expect(recall.code).toBe(0);
    expect((JSON.parse(recall.out) as { memories: unknown[] }).memories.length).toBeGreaterThan(0);
    const list = asReader(['list', '--store', store, '--json', '--limit', '2']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.out) as { memories: { id: string }[] }).memories.map((m) => m.id)).toEqual(ids);
    const history = asReader(['history', ids[0] as string, '--store', store, '--json']);
    expect(history.code).toBe(0);
    expect((JSON.parse(history.out) as { versions: { id: string }[] }).versions.map((v) => v.id)).toEqual([ids[0]]);
    const exported = asReader(['export', '--store', store]);
    expect(exported.code).toBe(0);
    expect((JSON.parse(exported.out) as { nodes: unknown[] }).nodes.length).toBe(30);
    // check reads only: a store it may not write is clean, not damaged.
    const check = asReader(['check', '--store', store]);
    expect([check.code, check.err]).toEqual([0, '']);
    expect(JSON.parse(check.out)).toEqual({ store, clean: true, namespaces: [{ namespace: 'default', count: 0, ids: [], checkpoint: false }], sqlite: [] });
    const stats = asReader(['stats', '--store', store]);
    expect(stats.code).toBe(0);
    expect((JSON.parse(stats.out) as { nodes: number }).nodes).toBe(30);
  }, 120_000);

  it('refuses delete, ingest and repair at once with STORAGE_FAILED naming the read-only store, and changes nothing', () => {
    const refused = `jev-mem: STORAGE_FAILED: the store at ${store} is read-only for this process (no write permission, or a read-only file system): cannot write;`;
    const del = asReader(['delete', ids[0] as string, '--store', store]);
    expect(del.code).toBe(1);
    expect(del.out).toBe('');
    expect(del.err.startsWith(refused)).toBe(true);
    const ingest = asReader(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic']);
    expect(ingest.code).toBe(1);
    // First the count (nothing committed), then the cause.
    const lines = ingest.err.split('\n').filter((l) => l.startsWith('jev-mem:'));
    expect(lines[0]).toContain('ingest stopped: 0 of 30 observations committed');
    expect(lines[1]?.startsWith(refused)).toBe(true);
    const repair = asReader(['repair', '--store', store]);
    expect([repair.code, repair.out]).toEqual([1, '']);
    expect(repair.err.startsWith(`jev-mem: STORAGE_FAILED: the store at ${store} is read-only for this process (no write permission, or a read-only file system): cannot repair it;`)).toBe(true);
    expect(readFileSync(join(store, 'jev-mem.sqlite')).equals(before)).toBe(true);
    expect(readdirSync(store)).toEqual(['jev-mem.sqlite']);
    expect(statSync(store).mode & 0o777).toBe(0o555);
  }, 120_000);
});
