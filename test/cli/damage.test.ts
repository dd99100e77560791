/**
 * `jev-mem check`, `jev-mem repair` and `jev-mem export` on a damaged store (issue 22): check
 * exits 3 naming the damaged node, export exits 3 unless --skip-damaged, repair salvages every
 * other node into a fresh file and check is clean after. The damaged file is removed once the
 * repaired store checks clean (--keep-backup keeps it): no file repair leaves holds a text the
 * user erases, before or after the repair.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { cli, SAMPLE } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Offset of the stored text of the node with this text (record-sql-binary.ts: member key `text`
 * (dictionary word 1: varint 4), string tag 6, the UTF-8 length under 128, the text).
 */
function textOffset(file: Buffer, text: string): number {
  const utf8 = Buffer.from(text, 'utf8');
  expect(utf8.length).toBeLessThan(128);
  const needle = Buffer.concat([Buffer.from([4, 6, utf8.length]), utf8]);
  const at = file.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  expect(file.indexOf(needle, at + 1)).toBe(-1);
  return at + 3;
}

describe('jev-mem check / repair / export on a damaged store', () => {
  it('check exits 3 naming the damaged node, export exits 3 unless --skip-damaged, repair keeps every other node and check is clean after', async () => {
    const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-damage-'));
    dirs.push(root);
    const store = join(root, 'store');
    expect((await cli(['ingest', SAMPLE, '--store', store])).code).toBe(0);
    const clean = await cli(['check', '--store', store]);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.out[0]!)).toEqual({ store, clean: true, namespaces: [{ namespace: 'default', count: 0, ids: [], checkpoint: false }], sqlite: [] });

    const before = JSON.parse((await cli(['export', '--store', store])).out[0]!) as { nodes: Array<{ id: string; text: string }>; edges: Array<{ from: string; to: string }> };
    const victim = before.nodes[3]!;
    const victimEdges = before.edges.filter((e) => e.from === victim.id || e.to === victim.id).length;
    expect(victimEdges).toBeGreaterThan(0);
    const path = join(store, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const at = textOffset(file, victim.text) + 2;
    file[at] = file[at]! ^ 0x20; // flips the case of a letter: the value still decodes
    writeFileSync(path, file);

    const check = await cli(['check', '--store', store]);
    expect(check.code).toBe(3);
    expect(JSON.parse(check.out[0]!)).toEqual({ store, clean: false, namespaces: [{ namespace: 'default', count: 1, ids: [victim.id], checkpoint: false }], sqlite: [] });
    expect(check.err.join('\n')).toContain(victim.id);
    // The hint says what repair below does: it removes the damaged file (unless --keep-backup).
    expect(check.err.at(-1)).toBe(
      `jev-mem: the store is damaged; jev-mem repair --store ${store} copies every readable record into a fresh file and removes the damaged one once the repaired store checks clean (pass --keep-backup to keep it beside the store as jev-mem.sqlite.damaged-<time>)`,
    );

    const refused = await cli(['export', '--store', store]);
    expect(refused.code).toBe(3);
    expect(refused.out).toEqual([]);
    expect(refused.err.join('\n')).toContain(victim.id);
    // It says how many, names them, and what --skip-damaged would write (issue 22, h-damage3 item 3).
    expect(refused.err[0]).toBe(`jev-mem: namespace "default" holds 1 damaged memory record(s): ${victim.id}; the ${victimEdges} edge(s) joining them`);
    expect(refused.err[1]).toContain(`nothing was printed (a backup without them would be silently partial); jev-mem export --skip-damaged writes the other ${before.nodes.length - 1} memories and ${before.edges.length - victimEdges} edges`);

    const skipped = await cli(['export', '--store', store, '--skip-damaged']);
    expect(skipped.code).toBe(0);
    const partial = JSON.parse(skipped.out[0]!) as { nodes: Array<{ id: string }>; damaged: string[]; edges: Array<{ id: string; from: string; to: string }>; edgesLeftOut?: number };
    expect(partial.damaged).toEqual([victim.id]);
    expect(partial.nodes.map((n) => n.id)).toEqual(before.nodes.map((n) => n.id).filter((id) => id !== victim.id));
    // The edges of the damaged node are left out with it (repair drops them too) and counted.
    expect(partial.edges.filter((e) => e.from === victim.id || e.to === victim.id)).toEqual([]);
    expect(partial.edges).toHaveLength(before.edges.length - victimEdges);
    expect(partial.edgesLeftOut).toBe(victimEdges);
    expect(skipped.err).toContain(`jev-mem: 1 damaged node record(s) left out of the export, with the ${victimEdges} edge(s) joining them: ${victim.id}`);

    const repair = await cli(['repair', '--store', store]);
    expect(repair.code).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { backup: string | null; removed: string | null; namespaces: Array<{ namespace: string; nodes: number; damaged: string[] }> };
    expect(report.namespaces).toEqual([expect.objectContaining({ namespace: 'default', nodes: before.nodes.length - 1, damaged: [victim.id], edges: before.edges.length - victimEdges, edgesDropped: victimEdges })]);
    expect(report.backup).toBeNull();
    expect(report.removed).toMatch(new RegExp(`^${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/jev-mem\\.sqlite\\.damaged-`));
    expect(existsSync(report.removed!)).toBe(false);
    expect(repair.err).toEqual([`jev-mem: repaired ${store}: ${before.nodes.length - 1} node(s) and ${before.edges.length - victimEdges} edge(s) kept, 1 damaged node(s) left out with their ${victimEdges} edge(s); the damaged file ${report.removed} was removed (the repaired store checks clean; pass --keep-backup to keep it)`]);
    expect(readdirSync(store).filter((n) => n.includes('.damaged-') || n === '.repair')).toEqual([]);

    const after = await cli(['check', '--store', store]);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.out[0]!).clean).toBe(true);
    const exported = await cli(['export', '--store', store]);
    expect(exported.code).toBe(0);
    const repaired = JSON.parse(exported.out[0]!) as { nodes: Array<{ id: string; text: string }>; damaged?: string[] };
    expect(repaired.damaged).toBeUndefined();
    expect(repaired.nodes.map((n) => [n.id, n.text])).toEqual(before.nodes.filter((n) => n.id !== victim.id).map((n) => [n.id, n.text]));
    // No edge of the repaired store points at the node left out, and stats counts what export holds.
    const edges = (repaired as unknown as { edges: Array<{ from: string; to: string }> }).edges;
    expect(edges).toHaveLength(before.edges.length - victimEdges);
    expect(edges.filter((e) => e.from === victim.id || e.to === victim.id)).toEqual([]);
    // What export --skip-damaged printed is what the repaired store holds.
    expect((edges as Array<{ id: string }>).map((e) => e.id).sort()).toEqual(partial.edges.map((e) => e.id).sort());
    const stats = await cli(['stats', '--store', store]);
    expect(JSON.parse(stats.out[0]!)).toMatchObject({ nodes: before.nodes.length - 1, edges: before.edges.length - victimEdges });
    // The repaired store takes writes again.
    const recall = await cli(['recall', 'pottery class', '--store', store, '--json']);
    expect(recall.code).toBe(0);
    expect((await cli(['delete', before.nodes[0]!.id, '--store', store])).code).toBe(0);
  });

  it('no file repair leaves holds a text erased before the repair or after it (every byte of every file scanned)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-damage-'));
    dirs.push(root);
    const store = join(root, 'store');
    const input = join(root, 'secrets.jsonl');
    const early = 'Maya: my Quxlocker code is 4417093.';
    const late = 'Theo: the Zorbatine vault pin is 9923871.';
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n').slice(0, 8);
    lines.push(JSON.stringify({ text: early, speaker: 'Maya', observedAt: '2024-03-02T10:20:00Z' }), JSON.stringify({ text: late, speaker: 'Theo', observedAt: '2024-03-02T10:21:00Z' }));
    writeFileSync(input, `${lines.join('\n')}\n`);
    expect((await cli(['ingest', input, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
    const nodes = (JSON.parse((await cli(['export', '--store', store])).out[0]!) as { nodes: Array<{ id: string; text: string }> }).nodes;
    const idOf = (text: string): string => nodes.find((n) => n.text === text)!.id;
    expect((await cli(['delete', idOf(early), '--store', store])).code).toBe(0); // erased before the damage
    // A damaged record, then the repair.
    const victim = nodes[3]!;
    const path = join(store, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const at = textOffset(file, victim.text) + 2;
    file[at] = file[at]! ^ 0x20;
    writeFileSync(path, file);
    expect((await cli(['check', '--store', store])).code).toBe(3);
    expect((await cli(['repair', '--store', store])).code).toBe(0);
    const del = await cli(['delete', idOf(late), '--store', store]); // erased after the repair
    expect(del.code).toBe(0);
    expect(del.err).toEqual([]); // no backup to warn about
    // Needles no random id can hold (a UUID v4 can read …-4417-…: test/lifecycle/expiry-open.test.ts).
    const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]));
    const left = files(store);
    expect(left.map((f) => f.slice(store.length + 1)).filter((f) => f !== 'lock')).toEqual([SQLITE_FILE_NAME]);
    for (const f of left) {
      const bytes = readFileSync(f);
      for (const needle of ['Quxlocker', 'quxlocker', '4417093', 'Zorbatine', 'zorbatine', '9923871']) expect(bytes.includes(Buffer.from(needle)), `${needle} in ${f}`).toBe(false);
    }
    expect((await cli(['check', '--store', store])).code).toBe(0);
  });

  it("repair --keep-backup keeps the damaged file, and delete and forget warn that it still holds the erased text", async () => {
    const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-damage-'));
    dirs.push(root);
    const store = join(root, 'store');
    expect((await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
    const before = JSON.parse((await cli(['export', '--store', store])).out[0]!) as { nodes: Array<{ id: string; text: string }>; edges: Array<{ from: string; to: string }> };
    const victim = before.nodes[3]!;
    const victimEdges = before.edges.filter((e) => e.from === victim.id || e.to === victim.id).length;
    expect(victimEdges).toBeGreaterThan(0);
    const repair = await cli(['repair', '--store', store, '--keep-backup']);
    expect(repair.code).toBe(0);
    const backups = readdirSync(store).filter((n) => n.startsWith(`${SQLITE_FILE_NAME}.damaged-`));
    expect(backups).toHaveLength(1);
    expect(JSON.parse(repair.out[0]!)).toMatchObject({ backup: join(store, backups[0]!), removed: null });

    const del = await cli(['delete', victim.id, '--store', store]);
    expect(del.code).toBe(0);
    expect(readFileSync(join(store, SQLITE_FILE_NAME)).includes(Buffer.from(victim.text))).toBe(false);
    expect(readFileSync(join(store, backups[0]!)).includes(Buffer.from(victim.text))).toBe(true); // what the warning is about
    expect(del.err).toEqual([`jev-mem: warning: ${join(store, backups[0]!)} (the backup jev-mem repair kept) still holds the records as they were at the repair, the erased text included; remove it once you have checked the store`]);

    const forget = await cli(['forget', '--store', store, '--namespace', 'default']);
    expect(forget.code).toBe(0);
    expect(forget.err).toEqual(del.err);
  });

  it('repair of a file SQLite cannot open at all exits 3 and says it can salvage nothing (not "run jev-mem check and jev-mem repair" alone)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-damage-'));
    dirs.push(root);
    const store = join(root, 'store');
    expect((await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
    const path = join(store, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    expect(file[100]).toBe(0x0d); // page 1 (sqlite_schema) is a table leaf page
    file[100] = 0x42; // no page type: SQLite cannot read the schema
    writeFileSync(path, file);
    const hint = `jev-mem: ${path} cannot be read at all (SQLite cannot open it or list its namespaces), so repair can salvage nothing from it; restore the store from an export, or try SQLite's own \`sqlite3 ${path} .recover\``;
    for (const cmd of ['repair', 'check']) {
      const r = await cli([cmd, '--store', store]);
      expect(r.code).toBe(3);
      expect(r.err[r.err.length - 1]).toBe(hint);
    }
    expect(readdirSync(store).filter((n) => n.includes('.damaged-'))).toEqual([]); // the file is left as it was
  });
});
