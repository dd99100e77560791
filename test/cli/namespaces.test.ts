/**
 * recall, answer, stats and export on a namespace that holds no memories: exit 1 with
 * NOT_FOUND and a hint on stderr listing the store's namespaces with their counts, nothing on
 * stdout (a script with a mistyped namespace stops instead of reading an empty result).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-ns-'));
const store = join(dir, 'store');
const H = ['--system-one', 'heuristic'];

beforeAll(async () => {
  // The sample conversation (30 turns) under conv-26, and its first turn under conv-30.
  expect((await cli(['ingest', SAMPLE, '--store', store, '--namespace', 'conv-26', ...H])).code).toBe(0);
  const one = join(dir, 'one.jsonl');
  writeFileSync(one, '{"text":"Ann: I adopted a cat."}\n');
  expect((await cli(['ingest', one, '--store', store, '--namespace', 'conv-30', ...H])).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a namespace that holds no memories', () => {
  const hint = 'jev-mem: NOT_FOUND: namespace "conv-2" holds no memories; this store holds: conv-26 (30 memories), conv-30 (1 memory); choose one with --namespace';

  it.each([
    ['recall', ['recall', 'What did Theo replace on his bike?']],
    ['recall --questions', ['recall', '--questions', SAMPLE, '--json']],
    ['answer', ['answer', 'What did Theo replace on his bike?']],
    ['stats', ['stats']],
    ['export', ['export']],
  ])('%s exits 1 and lists the store’s namespaces with their counts', async (_name, args) => {
    const r = await cli([...args, '--store', store, '--namespace', 'conv-2', ...H]);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([hint]);
  });

  it('the default namespace of a store filled under another one gets the same hint', async () => {
    const r = await cli(['recall', 'cat', '--store', store, ...H]);
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['jev-mem: NOT_FOUND: namespace "default" holds no memories; this store holds: conv-26 (30 memories), conv-30 (1 memory); choose one with --namespace']);
  });

  it('a namespace that holds memories recalls as before (exit 0)', async () => {
    const r = await cli(['recall', 'What did Theo replace on his bike?', '--store', store, '--namespace', 'conv-26', '--k', '2', '--json', ...H]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out[0] as string) as { memories: unknown[] }).memories).toHaveLength(2);
  });

  it('a store emptied by forget says it holds no memories yet', async () => {
    const lone = join(dir, 'lone');
    const one = join(dir, 'one.jsonl');
    expect((await cli(['ingest', one, '--store', lone, '--namespace', 'x', ...H])).code).toBe(0);
    const forgot = await cli(['forget', '--store', lone, '--namespace', 'x', ...H]);
    expect([forgot.code, forgot.out[0], forgot.err]).toEqual([0, '{"forgotten":"x","existed":true}', []]);
    // A mistyped name is not mistaken for an erasure: exit 0 (idempotent), but said.
    const typo = await cli(['forget', '--store', lone, '--namespace', 'xx', ...H]);
    expect([typo.code, typo.out[0]]).toEqual([0, '{"forgotten":"xx","existed":false}']);
    expect(typo.err).toEqual(['jev-mem: warning: the store held no namespace "xx"; nothing was erased']);
    const r = await cli(['stats', '--store', lone, '--namespace', 'x', ...H]);
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['jev-mem: NOT_FOUND: namespace "x" holds no memories; this store holds no memories yet (jev-mem ingest <file> --store <dir> writes some)']);
  });
});
