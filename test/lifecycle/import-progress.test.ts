/**
 * `Memory.import` tells each step as it begins (issue 22: a large import took minutes without a
 * word), and a callback that throws, or an abort, before the commit leaves nothing written.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { ImportProgress } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { errorOf, lifecycleFixture, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('import-progress', (e) => (encoder = e));

async function exported() {
  const source = await createMemory({ encoder, systemOne: createHeuristicSystemOne(), namespace: 'conv' });
  await source.addMany(TURNS.slice(0, 4));
  const file = await source.export();
  await source.close();
  return file;
}

describe('Memory.import progress', () => {
  it('tells checking, indexing, committing and opening, in order, with the file counts', async () => {
    const file = await exported();
    const target = await createMemory({ encoder, systemOne: createHeuristicSystemOne() });
    const seen: ImportProgress[] = [];
    expect(await target.import(file, { onProgress: (p) => seen.push(p) })).toEqual({ nodes: 4, edges: file.edges.length, namespace: 'conv' });
    expect(seen.map((p) => p.phase)).toEqual(['checking', 'indexing', 'committing', 'opening']);
    for (const p of seen) expect([p.nodes, p.edges]).toEqual([4, file.edges.length]);
    expect(seen.map((p) => p.elapsedMs)).toEqual([...seen.map((p) => p.elapsedMs)].sort((a, b) => a - b));
    // An edited text is embedded again: that step is told too.
    const edited = structuredClone(file);
    (edited.nodes[0] as { text: string }).text = 'Maya: I moved to Lisbon in March.';
    const other = await createMemory({ encoder, systemOne: createHeuristicSystemOne() });
    const steps: string[] = [];
    await other.import(edited, { onProgress: (p) => steps.push(p.phase) });
    expect(steps).toEqual(['checking', 'embedding', 'indexing', 'committing', 'opening']);
    await target.close();
    await other.close();
  });

  it('a callback that throws before the commit ends the call ABORTED with nothing written; a bad one is INVALID_OPTION', async () => {
    const file = await exported();
    const target = await createMemory({ encoder, systemOne: createHeuristicSystemOne() });
    const e = (await errorOf(
      target.import(file, {
        onProgress: (p) => {
          if (p.phase === 'indexing') throw new Error('stop');
        },
      }),
    )) as { code: string; field: string };
    expect([e.code, e.field]).toEqual(['ABORTED', 'options.onProgress']);
    expect(await target.namespaces()).toEqual([]);
    const bad = (await errorOf(target.import(file, { onProgress: 'yes' as never }))) as { code: string; field: string };
    expect([bad.code, bad.field]).toEqual(['INVALID_OPTION', 'options.onProgress']);
    // The same file imports whole afterwards.
    expect((await target.import(file)).nodes).toBe(4);
    await target.close();
  });
});
