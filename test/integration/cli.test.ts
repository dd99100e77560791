import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const SAMPLE = fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-'));
const store = join(dir, 'store');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out, err };
}

describe('jev-mem CLI', () => {
  it('ingests a JSONL file into a store directory and reports counts', async () => {
    const r = await run(['ingest', SAMPLE, '--store', store, '--namespace', 'sample', '--system-one', 'heuristic']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out[0] as string) as { ingested: number; nodes: number };
    expect(s.ingested).toBe(30);
    expect(s.nodes).toBe(30);
    expect(r.err.at(-1)).toMatch(/30\/30 observations · \d+ turns\/s/);
  });

  it('recalls from the same store in a later run, as JSON with provenance and trace', async () => {
    const r = await run(['recall', 'What did Theo replace on his bike?', '--store', store, '--namespace', 'sample', '--k', '3', '--json', '--system-one', 'heuristic']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0] as string) as { memories: Array<{ id: string; text: string; score: number; provenance: { turnId: string } }>; trace: { stopReason: string } };
    expect(j.memories).toHaveLength(3);
    expect(j.memories.map((m) => m.provenance.turnId)).toContain('S1:6');
    expect(typeof j.trace.stopReason).toBe('string');
  });

  it('exits 1 with the error code for a missing store when reading', async () => {
    const r = await run(['ingest', join(dir, 'missing.jsonl'), '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/NOT_FOUND/);
  });

  it('refuses to read a store that does not exist (STORE_MISSING), instead of creating an empty one', async () => {
    const r = await run(['recall', 'anything', '--store', join(dir, 'typo'), '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/STORE_MISSING/);
  });

  it('reports a JSONL file given as --format locomo as INVALID_INPUT, not an unexpected error', async () => {
    const r = await run(['ingest', SAMPLE, '--format', 'locomo', '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/INVALID_INPUT: file: not a LoCoMo JSON file/);
  });

  it('refuses a LoCoMo file of several conversations without --sample, and ingests the one named', async () => {
    const conv = (id: string, text: string) => ({
      sample_id: id,
      conversation: { speaker_a: 'Ann', speaker_b: 'Bo', session_1_date_time: '10:15 am on 2 March, 2024', session_1: [{ speaker: 'Ann', dia_id: 'D1:1', text }] },
      qa: [],
    });
    const file = join(dir, 'two.json');
    writeFileSync(file, JSON.stringify([conv('a-1', 'I adopted a cat.'), conv('b-2', 'I sold my boat.')]));
    const refused = await run(['ingest', file, '--store', join(dir, 'two-store'), '--system-one', 'heuristic']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/INVALID_OPTION: .*holds 2 conversations; choose one with --sample <id> \(a-1, b-2\)/);
    const r = await run(['ingest', file, '--sample', 'b-2', '--store', join(dir, 'two-store'), '--system-one', 'heuristic']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ namespace: 'b-2', ingested: 1 });
  });

  it('a refused ingest into a new store leaves no store behind', async () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, '{"text":"ok"}\n{"text":5}\n');
    const target = join(dir, 'never-made');
    const r = await run(['ingest', file, '--store', target, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/INVALID_INPUT: line 2\.text/); // named by its line in the file
    expect(existsSync(target)).toBe(false);
  });

  it('exits 2 on a usage error', async () => {
    const r = await run(['recall', 'x']);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/missing --store/);
  });
});
