/**
 * An erasure on a store file whose pages are lost (issue 22; h-break9 finding 5): with 12 pages
 * zeroed, `jev-mem delete <id>` built the erasure as a copy that silently lost 25 other
 * memories while saying "0 damaged node(s) … left out", removed the damaged file (which repair
 * keeps when pages were lost), left the new store file 0644 (it was 0600) and `erasures-pending`
 * at 1. Now such an erasure is refused (STORE_DAMAGED, exit 3, nothing changed) and points to
 * `jev-mem repair`; after the repair (which keeps the store file's mode and clears the pending
 * count of the fresh file) the same delete erases.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { PENDING_ERASURES_FILE } from '../../src/plane/store/sqlite-erasures.js';
import { cli, lifecycleFixture } from './helpers.js';
import { DAY_TURNS, openFixed, zeroedStore } from './zeroed-store.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-erase-lost-pages', (e) => (encoder = e));

describe('jev-mem delete on a store file with zeroed pages', () => {
  it('refuses, changing nothing, and points to repair; after the repair the delete erases, the store file stays 0600', async () => {
    const dir = tempDir();
    const { before, lost } = await zeroedStore(encoder, dir, 200);
    const path = join(dir, SQLITE_FILE_NAME);
    chmodSync(path, 0o600);
    const bytes = readFileSync(path);
    // Turn 170: its record is whole, its key is on the zeroed index page, so SQLite cannot delete it.
    expect(lost).toContain(170);
    const victim = before.nodes.find((n) => n.text === DAY_TURNS[170]!.text)!.id;

    const refused = await cli(['delete', victim, '--store', dir, '--namespace', 'chat']);
    expect(refused.code, refused.err.join('\n')).toBe(3);
    expect(refused.err.join('\n')).toContain(`jev-mem repair --store ${dir}`);
    expect(refused.err.join('\n')).toContain('Nothing was changed or erased');
    // The store file is as it was: no copy took its place, no backup was made or removed.
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.startsWith(`${SQLITE_FILE_NAME}.damaged-`))).toEqual([]);

    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code, repair.err.join('\n')).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, PENDING_ERASURES_FILE))).toBe(false);
    const kept = readdirSync(dir).filter((n) => n.startsWith(`${SQLITE_FILE_NAME}.damaged-`));
    expect(kept).toHaveLength(1); // pages were lost: repair keeps the damaged file
    const repaired = await openFixed(encoder, dir);
    const count = (await repaired.export()).nodes.length;
    await repaired.close();

    const deleted = await cli(['delete', victim, '--store', dir, '--namespace', 'chat']);
    expect(deleted.code, deleted.err.join('\n')).toBe(0);
    expect(JSON.parse(deleted.out[0]!)).toEqual({ deleted: true, id: victim });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const after = await openFixed(encoder, dir);
    const left = (await after.export()).nodes;
    await after.close();
    // Exactly the one memory went.
    expect(left).toHaveLength(count - 1);
    expect(left.map((n) => n.id)).not.toContain(victim);
  }, 180_000);
});
