/**
 * The damage file beside a Node store under concurrency (issue 22, "damage stays local", h-lock):
 * the file (`<store>/jev-mem.sqlite.damage.json`, damage-file.ts) that makes the next writer refuse
 * was read, merged and renamed into place with no lock, so two processes whose reads met damaged
 * records at once each wrote back what it had read before the other's write, and an entry was
 * lost (that record's namespace took puts again). And a process still reading the file that
 * `jev-mem repair` replaced wrote the replaced file's damage back after the repair, so the
 * repaired store refused every write.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { DAMAGE_FILE_NAME } from '../../src/plane/store/damage-file.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { makeNode } from '../plane/fixtures.js';
import { cli, lifecycleFixture } from './helpers.js';

const CHILD = fileURLToPath(new URL('./damage-reader-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { tempDir } = lifecycleFixture('damage-file-concurrency', () => undefined);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A store of `count` nodes n000… in namespace 'chat' whose node records `damaged` each have one byte changed (they fail their checksum). */
async function damagedStore(count: number, damaged: readonly string[]): Promise<{ dir: string; ids: string[] }> {
  const dir = join(tempDir(), 'store');
  const ids = Array.from({ length: count }, (_, i) => `n${String(i).padStart(3, '0')}`);
  const s = await createSqliteFileStorage({ dir, logger: () => undefined });
  await s.commit('chat', { putNodes: ids.map((id, i) => makeNode('chat', id, i + 1, `Maya said thing number ${i} about the harbour`)) });
  await s.close();
  const db = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
  try {
    for (const id of damaged) {
      const row = db.query('SELECT id, v FROM jev_mem_rec WHERE tbl = ? AND ns = ? AND k = ? AND chunk = 0', [RECORD_TABLES.indexOf('node'), utf8('chat'), utf8(id)])[0]!;
      const v = new Uint8Array(row.v as Uint8Array);
      v[v.length >> 1] ^= 0x20;
      db.query('UPDATE jev_mem_rec SET v = ? WHERE id = ?', [v, row.id as number]);
    }
  } finally {
    db.close();
  }
  return { dir, ids };
}

/** Runs damage-reader-child.ts over `ids`; resolves with its exit code and output. */
function reader(dir: string, ids: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, ...ids], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
  return new Promise((done) => child.once('close', (code) => done({ code, out, err })));
}

const keptIds = (dir: string): string[] => {
  const kept = JSON.parse(readFileSync(join(dir, DAMAGE_FILE_NAME), 'utf8')) as { namespaces: Array<{ namespace: string; ids: string[] }> };
  return kept.namespaces.flatMap((n) => n.ids).sort();
};

describe('the damage file of a Node store', () => {
  it('keeps every damaged record that two processes find at once', async () => {
    // 160 damaged records; each process reads its half one by one, so each writes the file 80
    // times while the other does too (before: a read-merge-write of one overwrote the other's).
    const all = Array.from({ length: 160 }, (_, i) => `n${String(i).padStart(3, '0')}`);
    const { dir } = await damagedStore(160, all);
    const [a, b] = await Promise.all([reader(dir, all.filter((_, i) => i % 2 === 0)), reader(dir, all.filter((_, i) => i % 2 === 1))]);
    expect([a.code, a.out.trim(), b.code, b.out.trim()], a.err + b.err).toEqual([0, 'done 0', 0, 'done 0']);
    expect(keptIds(dir)).toEqual(all);
    // The next writer refuses puts naming them (160 ids: the first ten shown).
    const w = await createSqliteFileStorage({ dir, create: false, logger: () => undefined });
    await expect(w.commit('chat', { putNodes: [makeNode('chat', 'new', 999)] })).rejects.toMatchObject({ code: 'STORE_DAMAGED' });
    await w.close();
  }, 120_000);

  it('does not get back the damage of a file that a repair replaced, from a reader still open on it', async () => {
    const { dir, ids } = await damagedStore(12, ['n004']);
    // A long-lived reader (an MCP server, say) opened the store before the repair.
    const open = await createSqliteFileStorage({ dir, create: false, logger: () => undefined });
    expect((await open.getNodes('chat', ['n001'])).map((n) => n.id)).toEqual(['n001']);
    const repair = await cli(['repair', '--store', dir, '--keep-backup']);
    expect(repair.code, repair.err.join('\n')).toBe(0);
    expect(existsSync(join(dir, DAMAGE_FILE_NAME))).toBe(false);
    // It still reads the replaced file, where n004 is damaged: that is no damage of the store.
    expect((await open.getNodes('chat', ['n004'])).map((n) => n.id)).toEqual([]);
    await open.close();
    expect(existsSync(join(dir, DAMAGE_FILE_NAME))).toBe(false);
    const w = await createSqliteFileStorage({ dir, create: false, logger: () => undefined });
    await w.commit('chat', { putNodes: [makeNode('chat', 'new', 999)] });
    expect((await w.counts('chat')).nodes).toBe(ids.length); // 11 repaired + the new one
    await w.close();
  }, 60_000);

  it('ignores a kept file that names a database file replaced since (written before a repair by a process of an older build, or cut short)', async () => {
    const { dir } = await damagedStore(3, []);
    writeFileSync(join(dir, DAMAGE_FILE_NAME), JSON.stringify({ namespaces: [{ namespace: 'chat', ids: ['n001'], records: [] }], sqlite: [], file: '1:2:3' }));
    const w = await createSqliteFileStorage({ dir, create: false, logger: () => undefined });
    expect((await w.damaged('chat', { scan: false })).ids).toEqual([]);
    await w.commit('chat', { putNodes: [makeNode('chat', 'new', 999)] });
    await w.close();
  });
});
