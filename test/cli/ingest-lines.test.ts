/**
 * An ingest of a JSONL file whose record the memory refuses by its index (a text over
 * parameters.maxTextChars is TOO_LARGE at the write, not at the parse) names the line of the
 * file, not the index among the observations (blank lines make the two differ).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ingest of a JSONL record over the text limit', () => {
  it('is TOO_LARGE naming its line number (and its index), and makes no store', async () => {
    const file = join(dir, 'big.jsonl');
    const big = JSON.stringify({ text: `Maya: ${'a'.repeat(100_000)}`, speaker: 'Maya' });
    writeFileSync(file, ['{"text":"Maya: hello"}', '', '{"text":"Theo: hi"}', '', '', big, '{"text":"Maya: bye"}'].join('\n'));
    const store = join(dir, 'store');
    const r = await cli(['ingest', file, '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      'jev-mem: TOO_LARGE: line 6.text: 100006 characters is over the limit of 100000 (parameters.maxTextChars); split the text into several observations (observation 3); or ingest again with --split-long to keep it in parts',
    ]);
    expect(existsSync(store)).toBe(false);
  });
});
