/**
 * `recall --after D1 --before D2` with dates alone: each date is UTC midnight (not the speaker's
 * local one) and the window is half-open, [after, before), as the help and the README say.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandUsage } from '../../src/cli/commands.js';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-window-'));
const store = join(dir, 'store');
const OPEN = ['--store', store, '--system-one', 'heuristic'];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TURNS: Array<[string, string]> = [
  ['red', '2024-04-30T23:59:59Z'], // one second before the window
  ['green', '2024-05-01T00:00:00Z'], // at --after: in
  ['yellow', '2024-05-01T01:00:00+02:00'], // May 1 for the speaker, 23:00 UTC on April 30: out
  ['baked', '2024-05-01T23:59:59.999Z'], // the last millisecond of the UTC day: in
  ['sour', '2024-05-02T00:00:00Z'], // at --before: out
];

beforeAll(async () => {
  const file = join(dir, 'apples.jsonl');
  writeFileSync(file, TURNS.map(([c, at]) => JSON.stringify({ text: `Maya: I ate a ${c} apple.`, speaker: 'Maya', observedAt: at })).join('\n'));
  expect((await cli(['ingest', file, ...OPEN])).code).toBe(0);
}, 60_000);

describe('recall --after / --before with dates alone', () => {
  it('keeps [after, before) in UTC: the memory at --after and the day\'s last millisecond, not the one at --before nor a local May 1 that is April 30 in UTC', async () => {
    const all = await cli(['recall', 'Which apple did Maya eat?', ...OPEN, '--json']);
    expect((JSON.parse(all.out[0] as string) as { memories: unknown[] }).memories.length).toBe(5);
    const r = await cli(['recall', 'Which apple did Maya eat?', ...OPEN, '--json', '--after', '2024-05-01', '--before', '2024-05-02']);
    expect(r.code).toBe(0);
    const texts = (JSON.parse(r.out[0] as string) as { memories: { text: string }[] }).memories.map((m) => m.text).sort();
    expect(texts).toEqual(['Maya: I ate a baked apple.', 'Maya: I ate a green apple.']);
  });

  it('says so in the help of recall', () => {
    const help = commandUsage('recall');
    expect(help).toContain('a date alone, 2024-05-01, is UTC midnight');
    expect(help).toContain('the window is half-open, [after, before): --after 2024-05-01 --before 2024-05-02 is the UTC day of May 1');
  });

  it('refuses a date that does not exist as a usage error naming the flag, exit 2, before the store is read', async () => {
    const r = await cli(['recall', 'Which apple did Maya eat?', ...OPEN, '--after', '2024-02-30']);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/^jev-mem: --after: /);
    expect(r.err[0]).toContain('2024-02-30');
    expect(r.err.join('\n')).not.toContain('options.after');
    const b = await cli(['recall', 'Which apple did Maya eat?', ...OPEN, '--before', 'yesterday']);
    expect(b.code).toBe(2);
    expect(b.err[0]).toMatch(/^jev-mem: --before: expected an ISO-8601 date/);
    expect(b.err[0]).toContain('"yesterday"');
  });
});
