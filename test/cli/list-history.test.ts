/**
 * `jev-mem list` and `jev-mem history` (issue 23), and what recall gained with them: the 30-turn
 * sample is paged in insertion order (JSONL, the cursor on stderr; or one JSON object), a filter
 * selects by speaker, history shows an update's versions, bad input exits as the other commands
 * do, `recall --json` prints each memory's score and calibrated relevance and `--min-score` cuts by the score.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeMemory } from '../../src/node.js';
import { SAMPLE, cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-list-'));
const store = join(dir, 'store');
const OPEN = ['--store', store, '--namespace', 'sample', '--system-one', 'heuristic'];
/** The sample's turns in file order: list must give them back in that order. */
const TURNS = readFileSync(SAMPLE, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { text: string; speaker?: string });

let oldId = '';
let newId = '';
beforeAll(async () => {
  const r = await cli(['ingest', SAMPLE, ...OPEN]);
  expect(r.code).toBe(0);
  const memory = await createNodeMemory({ store, namespace: 'sample', systemOne: 'heuristic' });
  try {
    oldId = (await memory.list({ limit: 1 })).memories[0]!.id;
    newId = (await memory.update(oldId, { text: 'Maya: I stopped the pottery class; I paint now.', observedAt: '2023-06-01T10:00:00Z' })).id;
  } finally {
    await memory.close();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Listed = { id: string; text: string; seq: number; status: string; provenance: { speaker?: string }; embedding?: unknown };

describe('jev-mem list', () => {
  it('pages the namespace in insertion order: JSONL on stdout, the next cursor on stderr', async () => {
    expect(TURNS.length).toBe(30);
    const seen: Listed[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await cli(['list', ...OPEN, '--limit', '12', ...(cursor ? ['--cursor', cursor] : [])]);
      expect(r.code).toBe(0);
      seen.push(...r.out.map((l) => JSON.parse(l) as Listed));
      const next = r.err.find((l) => l.startsWith('next page: --cursor '));
      cursor = next?.slice('next page: --cursor '.length);
      if (cursor === undefined) break;
      expect(r.out.length).toBe(12);
    }
    // 30 turns and the update's new version, each once, in insertion order.
    expect(seen.length).toBe(31);
    expect(seen.slice(0, 30).map((m) => m.text)).toEqual(TURNS.map((t) => t.text));
    expect(seen[30]?.id).toBe(newId);
    expect(seen[0]?.status).toBe('superseded');
    expect(seen.map((m) => m.seq)).toEqual([...seen.map((m) => m.seq)].sort((a, b) => a - b));
    expect(seen.every((m) => m.embedding === undefined)).toBe(true);
  });

  it('--json prints one object with the cursor; --filter selects by speaker', async () => {
    const r = await cli(['list', ...OPEN, '--limit', '5', '--json']);
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(1);
    const page = JSON.parse(r.out[0] as string) as { memories: Listed[]; cursor?: string };
    expect(page.memories.map((m) => m.text)).toEqual(TURNS.slice(0, 5).map((t) => t.text));
    expect(typeof page.cursor).toBe('string');

    const theo = await cli(['list', ...OPEN, '--limit', '1000', '--filter', '{"speaker":"Theo"}', '--json']);
    expect(theo.code).toBe(0);
    const got = JSON.parse(theo.out[0] as string) as { memories: Listed[]; cursor?: string };
    expect(got.memories.map((m) => m.text)).toEqual(TURNS.filter((t) => t.speaker === 'Theo').map((t) => t.text));
    expect(got.memories.length).toBeGreaterThan(0);
    expect(got.cursor).toBeUndefined();
  });

  it('bad input: --filter not JSON or not an object and --limit outside 1..1000 are usage errors (2); a bad operator is INVALID_INPUT (1)', async () => {
    const notJson = await cli(['list', ...OPEN, '--filter', '{speaker:Theo}']);
    expect(notJson.code).toBe(2);
    expect(notJson.err[0]).toMatch(/^jev-mem: --filter: not JSON/);
    const arr = await cli(['list', ...OPEN, '--filter', '[1]']);
    expect(arr.code).toBe(2);
    expect(arr.err[0]).toBe('jev-mem: --filter: expected a JSON object such as \'{"speaker":"Maya"}\', got [1]');
    for (const limit of ['ten', '0', '-1', '2.5', '1001', '']) {
      const bad = await cli(['list', ...OPEN, `--limit=${limit}`]);
      expect([bad.code, bad.err[0]]).toEqual([2, `jev-mem: --limit: expected an integer from 1 to 1000, got ${JSON.stringify(limit)}`]);
    }
    const op = await cli(['list', ...OPEN, '--filter', '{"speaker":{"$like":"T%"}}']);
    expect(op.code).toBe(1);
    expect(op.err[0]).toMatch(/^jev-mem: INVALID_INPUT: options\.filter\.speaker/);
    // A bad --limit is refused before the store is opened: a missing store does not hide it.
    const early = await cli(['list', '--store', join(dir, 'missing'), '--limit', '0']);
    expect([early.code, early.err[0]]).toEqual([2, 'jev-mem: --limit: expected an integer from 1 to 1000, got "0"']);
    const cursor = await cli(['list', ...OPEN, '--cursor', 'nope']);
    expect(cursor.code).toBe(1);
    expect(cursor.err[0]).toMatch(/^jev-mem: INVALID_INPUT: .*cursor/);
    // A namespace with no memories is NOT_FOUND, as for recall and stats.
    const empty = await cli(['list', '--store', store, '--namespace', 'nobody', '--system-one', 'heuristic']);
    expect(empty.code).toBe(1);
    expect(empty.err[0]).toMatch(/^jev-mem: NOT_FOUND: namespace "nobody" holds no memories; this store holds: sample \(31 memories\)/);
  });
});

describe('jev-mem history', () => {
  it('prints the versions of a memory, oldest first, from either version', async () => {
    for (const id of [oldId, newId]) {
      const r = await cli(['history', id, ...OPEN]);
      expect(r.code).toBe(0);
      const versions = r.out.map((l) => JSON.parse(l) as Listed);
      expect(versions.map((m) => [m.id, m.status, m.text])).toEqual([
        [oldId, 'superseded', TURNS[0]?.text],
        [newId, 'active', 'Maya: I stopped the pottery class; I paint now.'],
      ]);
    }
    const json = await cli(['history', newId, ...OPEN, '--json']);
    expect((JSON.parse(json.out[0] as string) as { versions: Listed[] }).versions.map((m) => m.id)).toEqual([oldId, newId]);
  });

  it('an unknown id is NOT_FOUND (exit 1); no id is a usage error (exit 2)', async () => {
    const r = await cli(['history', 'no-such-id', ...OPEN]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toBe('jev-mem: NOT_FOUND: no memory "no-such-id" in namespace "sample"');
    const none = await cli(['history', ...OPEN]);
    expect(none.code).toBe(2);
    expect(none.err[0]).toBe('jev-mem: history needs a memory id');
  });
});

describe('jev-mem recall with relevance', () => {
  type Recalled = { id: string; score: number; relevance?: number; provenance: { speaker?: string } };
  const Q = 'What did Theo replace on his bike?';

  it('--json prints each memory\'s calibrated relevance in [0,1]; --min-score keeps the memories whose score is at or above it (a prefix); --filter selects', async () => {
    const all = await cli(['recall', Q, ...OPEN, '--k', '10', '--json']);
    expect(all.code).toBe(0);
    const ms = (JSON.parse(all.out[0] as string) as { memories: Recalled[] }).memories;
    expect(ms.length).toBe(10);
    for (const m of ms) expect(m.relevance !== undefined && m.relevance >= 0 && m.relevance <= 1).toBe(true);
    const sc = ms.map((m) => m.score);
    expect(Math.max(...sc)).toBeGreaterThan(Math.min(...sc));
    const cut = (Math.max(...sc) + Math.min(...sc)) / 2;
    const some = await cli(['recall', Q, ...OPEN, '--k', '10', '--json', '--min-score', String(cut)]);
    const kept = (JSON.parse(some.out[0] as string) as { memories: Recalled[] }).memories;
    // Rounded to 4 digits in the output: the ones clearly above the cut stay, the ones clearly below go; a prefix of the ranking.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(ms.length);
    expect(kept.map((k) => k.id)).toEqual(ms.slice(0, kept.length).map((m) => m.id));
    for (const m of ms) if (Math.abs(m.score - cut) > 1e-4) expect(kept.some((k) => k.id === m.id)).toBe(m.score > cut);

    const maya = await cli(['recall', Q, ...OPEN, '--k', '5', '--json', '--filter', '{"speaker":"Maya"}']);
    const mm = (JSON.parse(maya.out[0] as string) as { memories: Recalled[] }).memories;
    expect(mm.length).toBeGreaterThan(0);
    expect(mm.every((m) => m.provenance.speaker === 'Maya')).toBe(true);

    const bad = await cli(['recall', Q, ...OPEN, '--min-score', '2']);
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe('jev-mem: --min-score: expected a number from 0 to 1, got "2"');
  });
});
