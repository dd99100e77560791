/**
 * Damage one process's reads find is remembered for the next (h-break14 finding 3; issue 22: "a
 * damaged store refuses writes with a clear error instead of writing on"): after a byte flip in
 * a stored text, a `recall` that meets the record warns RECORDS_DAMAGED and keeps what it found
 * beside the store (damage-file.ts), so a following `ingest` (another open of the store) is
 * refused with STORE_DAMAGED and writes nothing, without a `check` in between; `repair` clears it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DAMAGE_FILE_NAME, storeFileIdentity } from '../../src/plane/store/damage-file.js';
import { SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { cli, SAMPLE } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-damage-kept-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('damage found by a recall', () => {
  it('is kept beside the store, so the next ingest is refused; repair clears it', async () => {
    const store = join(root, 'store');
    expect((await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
    const before = JSON.parse((await cli(['export', '--store', store])).out[0]!) as { nodes: Array<{ id: string; text: string }> };
    const victim = before.nodes[3]!;
    // Flip the case of one letter of the victim's stored text (record-sql-binary.ts: key 4, tag 6, length, text).
    const path = join(store, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const utf8 = Buffer.from(victim.text, 'utf8');
    const at = file.indexOf(Buffer.concat([Buffer.from([4, 6, utf8.length]), utf8])) + 5;
    expect(at).toBeGreaterThan(5);
    file[at] = file[at]! ^ 0x20;
    writeFileSync(path, file);
    expect(existsSync(join(store, DAMAGE_FILE_NAME))).toBe(false);

    const recall = await cli(['recall', victim.text, '--store', store, '--system-one', 'heuristic']);
    expect(recall.code).toBe(0);
    // What the recall met is kept, as a check keeps it: the node's id under its namespace.
    // With the database file it was found in (h-lock: a repair's new file is another one).
    expect(JSON.parse(readFileSync(join(store, DAMAGE_FILE_NAME), 'utf8'))).toEqual({ namespaces: [{ namespace: 'default', ids: [victim.id], records: [] }], sqlite: [], file: storeFileIdentity(path) });

    const counts = async (): Promise<unknown> => {
      const s = JSON.parse((await cli(['stats', '--store', store])).out[0]!) as Record<string, unknown>;
      return [s.nodes, s.edges, s.storageBytes, s.damaged];
    };
    const statsBefore = await counts();
    const extra = join(root, 'extra.jsonl');
    writeFileSync(extra, '{"text":"Maya: written after the damage was seen"}\n');
    const ingest = await cli(['ingest', extra, '--store', store, '--system-one', 'heuristic']);
    expect(ingest.code).toBe(3); // EXIT_DAMAGED, as for a store a check found damaged
    expect(ingest.err.join('\n')).toContain('STORE_DAMAGED');
    expect(ingest.err.join('\n')).toContain(`holds damaged record(s) "${victim.id}"; writes are refused (nothing was written)`);
    expect(await counts()).toEqual(statsBefore);

    expect((await cli(['repair', '--store', store])).code).toBe(0);
    expect(existsSync(join(store, DAMAGE_FILE_NAME))).toBe(false);
    expect((await cli(['ingest', extra, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
  });
});
