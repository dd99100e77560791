/**
 * An export whose text was edited in the file (after the export) and imported without
 * --reembed: the export carries a hash per node text (textHashes), so the import finds the
 * edited nodes and derives their embedding, keywords, entities and time references again from
 * the new text (only theirs; the others keep the file's), counting them in textEdited; the CLI
 * notes it on stderr. Before, the stale vectors of the old text were silently kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { keywordsOf, storedVector } from '../../src/write/plan.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';
import { cli } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('import-edited', (e) => (encoder = e));

const OLD = 'Maya: my cat Biscuit knocked a vase off the shelf.';
const NEW = 'Maya: I moved to Lisbon for a job at a bakery on 3 March 2024.';
let file: MemoryExport;

beforeAll(async () => {
  const source = await createMemory({ encoder, namespace: 'conv' });
  await source.addMany([
    { text: 'Theo: I replaced the chain on my bike.', speaker: 'Theo', observedAt: '2024-01-02T10:00:00Z' },
    { text: OLD, speaker: 'Maya', observedAt: '2024-01-03T10:00:00Z' },
    { text: 'Theo: I want to learn to bake sourdough bread.', speaker: 'Theo', observedAt: '2024-01-04T10:00:00Z' },
  ]);
  file = await source.export();
  await source.close();
});
afterAll(() => undefined);

/** A copy of the export with node 1's text edited, as a user would in the file. */
function edited(): MemoryExport {
  const copy = JSON.parse(JSON.stringify(file)) as MemoryExport;
  (copy.nodes[1] as { text: string }).text = NEW;
  return copy;
}

describe('import of an export whose text was edited', () => {
  it('carries a hash per node text', () => {
    expect(Object.keys(file.textHashes ?? {})).toEqual(file.nodes.map((n) => n.id));
  });

  it('derives the edited node again from its new text, the others as in the file, and counts it', async () => {
    const target = await createMemory({ encoder, namespace: 'conv' });
    expect(await target.import(edited())).toEqual({ nodes: 3, edges: file.edges.length, namespace: 'conv', textEdited: 1 });
    const out = await target.export();
    const [fresh] = await encoder.embed([NEW]);
    expect(out.nodes[1]?.embedding.vector).toEqual(storedVector(fresh as Float32Array));
    expect(out.nodes[1]?.keywords).toEqual(keywordsOf(NEW));
    expect(out.nodes[1]?.entities).toContain('lisbon');
    expect(out.nodes[1]?.timeRefs.length).toBe(1);
    expect(out.nodes[1]?.types).toEqual(file.nodes[1]?.types);
    expect(out.nodes[0]?.embedding.vector).toEqual(file.nodes[0]?.embedding.vector);
    expect(out.nodes[2]?.embedding.vector).toEqual(file.nodes[2]?.embedding.vector);
    // Its hash now matches: the next export of it reads as unedited.
    expect(out.textHashes?.[out.nodes[1]!.id]).not.toBe(file.textHashes?.[file.nodes[1]!.id]);
    const again = await createMemory({ encoder, namespace: 'conv' });
    expect(await again.import(out)).toEqual({ nodes: 3, edges: out.edges.length, namespace: 'conv' });
    expect((await target.recall('Which city did Maya move to?', { k: 1 })).memories.map((m) => m.text)).toEqual([NEW]);
    await again.close();
    await target.close();
  });

  it('an export without textHashes (older) cannot tell and is imported as is; a malformed one is refused', async () => {
    const older = edited();
    delete older.textHashes;
    const target = await createMemory({ encoder, namespace: 'conv' });
    expect(await target.import(older)).toEqual({ nodes: 3, edges: file.edges.length, namespace: 'conv' });
    expect((await target.export()).nodes[1]?.embedding.vector).toEqual(file.nodes[1]?.embedding.vector);
    const bad = { ...edited(), textHashes: ['x'] };
    const e = (await errorOf(createMemory({ encoder }).then((m) => m.import(bad)))) as { code: string; field: string };
    expect([e.code, e.field]).toEqual(['INVALID_INPUT', 'export.textHashes']);
    await target.close();
  });

  it('jev-mem import prints the count and notes it on stderr', async () => {
    const dir = tempDir();
    const path = join(dir, 'edited.json');
    writeFileSync(path, JSON.stringify(edited()));
    const r = await cli(['import', path, '--store', join(dir, 'store')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toEqual({ nodes: 3, edges: file.edges.length, namespace: 'conv', textEdited: 1 });
    // Besides the progress lines (`import: …`, import-progress.test.ts), the note alone.
    expect(r.err.filter((l) => !l.startsWith('import: '))).toEqual([
      `jev-mem: note: 1 node(s) of ${path} were edited since the export (their text differs from the export's textHashes); their embeddings, keywords, entities and time references were derived again from the new text (no --reembed needed); their memory types and edges were kept`,
    ]);
  });
});
