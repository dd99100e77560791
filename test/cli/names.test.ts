/**
 * Issue 22 at the command line: a `--namespace` the namespace rule refuses exits 1 with
 * INVALID_INPUT and the name shown with its invisible characters escaped (never printed raw);
 * a name an older store holds stays exportable and forgettable; a JSONL file with a UTF-8
 * byte-order mark is ingested.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { cli } from './helpers.js';
import { renameNamespaceAsOlderBuild } from '../helpers/older-namespace.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-names-'));
const store = join(dir, 'store');
const H = ['--system-one', 'heuristic'];
const notes = join(dir, 'notes.jsonl');
/** Invisible characters that must never reach stderr raw. */
const RAW_INVISIBLE = /[\u0000\u200b\u200d\u202e\ufeff]/;

beforeAll(async () => {
  writeFileSync(notes, '{"text":"Ann: I adopted a cat named Miso."}\n{"text":"Ben: I moved to Porto in May."}\n');
  expect((await cli(['ingest', notes, '--store', store, '--namespace', 'tenant:alice', ...H])).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a --namespace the rule refuses', () => {
  it.each([
    ['ingest', ['ingest', notes]],
    ['recall', ['recall', 'Where did Ben move?']],
    ['stats', ['stats']],
    ['export', ['export']],
    ['forget', ['forget']],
  ])('%s exits 1 with INVALID_INPUT, the name escaped, and touches nothing', async (_cmd, args) => {
    for (const bad of ['tenant:alice\u0000x', 'tenant:alice\u200bx', '\u202etenant']) {
      const r = await cli([...args, '--store', store, '--namespace', bad, ...H]);
      expect(r.code).toBe(1);
      expect(r.out).toEqual([]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^jev-mem: INVALID_INPUT: namespace: namespace name "/);
      expect(r.err[0]).toMatch(/\\u(0000|200b|202e)/);
      expect(r.err[0]).not.toMatch(RAW_INVISIBLE);
    }
    const stats = await cli(['stats', '--store', store, '--namespace', 'tenant:alice', ...H]);
    expect(JSON.parse(stats.out[0] as string)).toMatchObject({ namespace: 'tenant:alice', nodes: 2 });
  });
});

describe('ingest into a new store under a refused name', () => {
  it('leaves no store behind', async () => {
    const fresh = join(dir, 'fresh');
    const r = await cli(['ingest', notes, '--store', fresh, '--namespace', 'tenant\u200b', ...H]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^jev-mem: INVALID_INPUT: namespace: namespace name "tenant\\u200b"/);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('import of a bad export into a new store', () => {
  it('leaves no store behind, as ingest does', async () => {
    const fresh = join(dir, 'fresh-import');
    const bad = join(dir, 'bad-export.json');
    writeFileSync(bad, JSON.stringify({ format: 'jev-mem-export', nodes: [{ id: 'x' }], edges: [] }));
    const r = await cli(['import', bad, '--store', fresh, ...H]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^jev-mem: INVALID_INPUT/);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('a name from before the rule', () => {
  const OLD = 'tenant\u200dbob ';
  it('is exported and forgotten by name', async () => {
    const old = join(dir, 'old');
    expect((await cli(['ingest', notes, '--store', old, '--namespace', 'bob', ...H])).code).toBe(0);
    const db = openNodeSqlDriver(join(old, SQLITE_FILE_NAME));
    renameNamespaceAsOlderBuild(db, 'bob', OLD);
    db.close();

    const missing = await cli(['stats', '--store', old, '--namespace', 'bob', ...H]);
    expect(missing.code).toBe(1);
    // The store's listing shows the old name quoted, its invisible characters escaped.
    expect(missing.err).toEqual(['jev-mem: NOT_FOUND: namespace "bob" holds no memories; this store holds: "tenant\\u200dbob " (2 memories); choose one with --namespace']);

    const exported = await cli(['export', '--store', old, '--namespace', OLD, ...H]);
    expect(exported.code).toBe(0);
    const file = JSON.parse(exported.out[0] as string) as { namespace: string; nodes: unknown[] };
    expect(file.namespace).toBe(OLD);
    expect(file.nodes).toHaveLength(2);

    expect(await cli(['forget', '--store', old, '--namespace', OLD, ...H])).toMatchObject({ code: 0 });
    const after = await cli(['stats', '--store', old, '--namespace', OLD, ...H]);
    expect(after.code).toBe(1);
    expect(after.err[0]).toMatch(/^jev-mem: INVALID_INPUT: namespace: namespace name "tenant\\u200dbob "/);
  });
});

describe('JSONL with a byte-order mark', () => {
  it('is ingested, the BOM skipped', async () => {
    const bom = join(dir, 'bom.jsonl');
    writeFileSync(bom, '\ufeff{"text":"Cleo: I started learning the cello."}\r\n{"text":"Dan: I ran my first marathon."}\r\n');
    const r = await cli(['ingest', bom, '--store', store, '--namespace', 'tenant:bom', ...H]);
    expect(r.err.filter((l) => /INVALID|error/i.test(l))).toEqual([]);
    expect(r.code).toBe(0);
    const stats = await cli(['stats', '--store', store, '--namespace', 'tenant:bom', ...H]);
    expect(JSON.parse(stats.out[0] as string)).toMatchObject({ nodes: 2 });
  });
});

describe('ingest into a store directory this process may not create', () => {
  it.skipIf(process.platform !== 'linux')('is STORAGE_FAILED naming the directory and the reason, without a stack', async () => {
    const r = await cli(['ingest', notes, '--store', '/sys/jev-mem-no-such-store', ...H]);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/^jev-mem: STORAGE_FAILED: --store \/sys\/jev-mem-no-such-store: could not create the store directory \/sys\/jev-mem-no-such-store \((?:(?:EPERM|EACCES): permission denied|EROFS: read-only file system)\)/);
    expect(r.err.join('\n')).not.toMatch(/unexpected error|\n\s+at /);
  });
});
