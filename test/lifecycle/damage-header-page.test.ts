/**
 * `jev-mem repair` of a store whose first page is zeroed (issue 22, h-damage3 item 1): SQLite's
 * header (page size, free-list) and the schema are gone, so SQLite cannot open the file, and
 * repair salvaged nothing ("cannot be read at all"). It now guesses the page size, reads every
 * leaf page of the record table's shape, checks each record against its own checksum, and
 * rebuilds the store; the damaged file is kept beside it (what else was lost cannot be counted).
 * With an erasure pending in the store, it refuses (STORE_DAMAGED, nothing changed): a page read
 * without the free-list could bring back what the user erased.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { PENDING_ERASURES_FILE } from '../../src/plane/store/sqlite-erasures.js';
import { cli, lifecycleFixture, writtenStoreFile } from './helpers.js';
import { DAY_TURNS, openFixed } from './zeroed-store.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-header-page', (e) => (encoder = e));

/** The store of DAY_TURNS with its first page zeroed (`dd if=/dev/zero bs=4096 count=1 conv=notrunc`). */
async function headerZeroed(dir: string): Promise<Awaited<ReturnType<typeof writtenStoreFile>>> {
  const written = await writtenStoreFile(dir, (d) => openFixed(encoder, d), DAY_TURNS);
  const damaged = Buffer.from(written.file);
  damaged.fill(0, 0, written.pageSize);
  writeFileSync(written.path, damaged);
  return { ...written, file: damaged };
}

describe('repair of a store file whose first page is zeroed', () => {
  it('salvages every memory and edge the other pages hold, as they were, and keeps the damaged file', async () => {
    const dir = tempDir();
    const { before, file } = await headerZeroed(dir);
    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(check.err.join('\n')).toContain('row(s) of its record table can still be read page by page');
    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code, repair.err.join('\n')).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { backup: string | null; namespaces: Array<{ namespace: string; nodes: number; edges: number; damaged: string[] }>; pages: { header?: boolean } };
    expect(report.pages.header).toBe(false);
    expect(report.namespaces.map((n) => [n.namespace, n.nodes, n.edges, n.damaged])).toEqual([['chat', 400, before.edges.length, []]]);
    // The damaged file is kept, as it was: what else was on the lost page cannot be counted.
    expect(report.backup).not.toBeNull();
    expect(readFileSync(report.backup!).equals(file)).toBe(true);
    expect(repair.err.join('\n')).toContain("its first page (SQLite's header and schema) was lost");
    const m = await openFixed(encoder, dir);
    try {
      const after = await m.export();
      expect(after.nodes).toEqual(before.nodes);
      expect(after.edges).toEqual(before.edges);
      expect((await m.recall(DAY_TURNS[200]!.text, { k: 1 })).memories[0]!.text).toBe(DAY_TURNS[200]!.text);
    } finally {
      await m.close();
    }
    expect((await cli(['check', '--store', dir])).code).toBe(0);
  }, 180_000);

  it('brings back no memory erased before the damage (the erasures settled: the file rewritten)', async () => {
    // h-damage4: reading every leaf page without the free-list is safe once no erasure is pending:
    // the rewrite (VACUUM) after the deletes left no page holding an erased record.
    const dir = tempDir();
    const m0 = await openFixed(encoder, dir);
    await m0.addMany(DAY_TURNS);
    const erased = (await m0.export()).nodes.filter((_, i) => i % 20 === 7); // 20 memories spread over the file
    for (const n of erased) await m0.delete(n.id);
    await m0.close();
    expect(existsSync(join(dir, PENDING_ERASURES_FILE))).toBe(false);
    const path = join(dir, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    file.fill(0, 0, file.readUInt16BE(16));
    writeFileSync(path, file);
    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code, repair.err.join('\n')).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { backup: string; namespaces: Array<{ nodes: number; damaged: string[] }>; pages: { header?: boolean } };
    expect(report.pages.header).toBe(false);
    expect(report.namespaces.map((n) => [n.nodes, n.damaged])).toEqual([[380, []]]);
    const m = await openFixed(encoder, dir);
    try {
      const ids = new Set((await m.export()).nodes.map((n) => n.id));
      expect(erased.filter((n) => ids.has(n.id))).toEqual([]);
    } finally {
      await m.close();
    }
    // Neither the repaired file nor the kept damaged one holds an erased text.
    for (const f of [path, report.backup]) {
      const bytes = readFileSync(f);
      expect(erased.filter((n) => bytes.includes(Buffer.from(n.text, 'utf8'))).map((n) => n.text)).toEqual([]);
    }
  }, 180_000);

  it('refuses while an erasure is pending, changing nothing, and says what to do', async () => {
    const dir = tempDir();
    const { path, file } = await headerZeroed(dir);
    // What a crash between an erasure's commit and the rewrite of the file leaves.
    writeFileSync(join(dir, PENDING_ERASURES_FILE), '1');
    for (const cmd of ['repair', 'check']) {
      const r = await cli([cmd, '--store', dir]);
      expect(r.code).toBe(3);
      const said = r.err.join('\n');
      expect(said).toContain(`the first page of ${path} (SQLite's header and schema) is lost, and 1 erasure(s) are pending in it`);
      expect(said).toContain('Nothing was changed. Restore the store from your latest export');
      expect(said).not.toContain('cannot be read at all');
    }
    expect(readFileSync(path).equals(file)).toBe(true);
    expect(readdirSync(dir).filter((n) => n.startsWith(`${SQLITE_FILE_NAME}.damaged-`) || n.startsWith('.repair'))).toEqual([]);
    expect(existsSync(join(dir, PENDING_ERASURES_FILE))).toBe(true);
    // So does export --skip-damaged, which reads the pages as repair does.
    const exported = await cli(['export', '--store', dir, '--namespace', 'chat', '--skip-damaged']);
    expect(exported.code).toBe(3);
    expect(exported.out).toEqual([]);
    expect(exported.err.join('\n')).toContain('1 erasure(s) are pending');
  }, 180_000);
});
