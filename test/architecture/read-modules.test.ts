/**
 * The read path is split by job (recall.ts was 705 lines): recall.ts runs the steps in order,
 * gather.ts builds the query context and anchor pools, assess.ts asks System One and scores
 * (eq. (23)), expand.ts expands the graph, recalled.ts ranks and assembles the result. Every
 * module of src/read stays at 400 lines or fewer, as the stores, drivers and resident state do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 400;
const root = join(import.meta.dirname, '../..');

describe('the read path modules', () => {
  it(`are each ${MAX_LINES} lines or fewer`, () => {
    const files = readdirSync(join(root, 'src/read')).filter((n) => n.endsWith('.ts')).map((n) => `src/read/${n}`);
    expect(files).toEqual(expect.arrayContaining(['src/read/recall.ts', 'src/read/gather.ts', 'src/read/assess.ts', 'src/read/expand.ts', 'src/read/recalled.ts']));
    const over = files.map((f) => ({ f, lines: readFileSync(join(root, f), 'utf8').split('\n').length })).filter((x) => x.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
