import { mkdtempSync, rmSync } from 'node:fs';
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

  it('exits 2 on a usage error', async () => {
    const r = await run(['recall', 'x']);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/missing --store/);
  });
});
