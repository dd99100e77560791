/**
 * Issue 22 (h-break6 review): an edited or tampered export is never stored wrong. What no export
 * of this library holds (a `deleted` node, an id with a control character) is refused naming the
 * record, with nothing written; what holds across records (unique seqs, supersession and edge
 * ends inside the file) is rebuilt and counted in the result (memory/import-repair.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { repairImport } from '../../src/memory/import-repair.js';
import { cli, errorOf, lifecycleFixture, TURNS } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let encoder: Encoder;
let file: MemoryExport;
const { tempDir } = lifecycleFixture('import-tamper', (e) => (encoder = e));

beforeAll(async () => {
  const source = await createMemory({ encoder, namespace: 'conv' });
  const res = await source.addMany(TURNS);
  await source.update(res[8]?.id as string, { text: 'Maya: I changed the flights, I now fly to Tokyo in November.', speaker: 'Maya' });
  file = await source.export();
  await source.close();
});
const copy = (): MemoryExport => JSON.parse(JSON.stringify(file)) as MemoryExport;

/** Every memory of the namespace, paging one at a time as a client would. */
async function pageByOne(m: Memory): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const p = await m.list({ limit: 1, ...(cursor !== undefined ? { cursor } : {}) });
    seen.push(...p.memories.map((x) => x.id));
    cursor = p.cursor;
  } while (cursor !== undefined);
  return seen;
}

describe('import of a tampered export', () => {
  it('a file as exported needs no repair: no counts in the result', async () => {
    const target = await createMemory({ encoder, namespace: 'conv' });
    const r = await target.import(copy());
    expect(r).toEqual({ nodes: file.nodes.length, edges: file.edges.length, namespace: 'conv' });
    await target.close();
  });

  it('gives nodes sharing a seq the next free ones, keeping the file order, so paging by one lists every memory', async () => {
    const f = copy();
    const n = f.nodes.length; // 11: ten turns and the update
    const seq0 = f.nodes[0]?.seq as number;
    (f.nodes[1] as { seq: number }).seq = seq0;
    (f.nodes[2] as { seq: number }).seq = seq0;
    const target = await createMemory({ encoder, namespace: 'conv' });
    const r = await target.import(f);
    expect(r.seqRenumbered).toBe(2);
    const listed = await pageByOne(target);
    expect(listed).toHaveLength(n); // main: 9 of 11 (two nodes lost at page boundaries)
    expect(listed).toEqual(f.nodes.map((x) => x.id)); // the file's order
    const seqs = (await target.list({ limit: 100 })).memories.map((x) => x.seq);
    expect(new Set(seqs).size).toBe(n);
    await target.close();
  });

  it('refuses a node marked deleted, naming it, and writes nothing', async () => {
    const f = copy();
    (f.nodes[3] as { status: string }).status = 'deleted';
    const target = await createMemory({ encoder, namespace: 'conv' });
    const e = await errorOf(target.import(f));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'export.nodes[3].status' });
    expect(e.message).toMatch(/never exported/);
    expect(await target.namespaces()).toEqual([]);
    await target.close();
  });

  it('refuses ids with a control character (node id, edge id, from, to), naming the record', async () => {
    const target = await createMemory({ encoder, namespace: 'conv' });
    const cases: Array<[string, (f: MemoryExport) => void]> = [
      ['export.nodes[0].id', (f) => ((f.nodes[0] as { id: string }).id = `${f.nodes[1]?.id}\u0000evil`)],
      ['export.nodes[2].id', (f) => ((f.nodes[2] as { id: string }).id = 'line\nbreak')],
      ['export.edges[0].id', (f) => ((f.edges[0] as { id: string }).id = 'e\u0007')],
      ['export.edges[1].from', (f) => ((f.edges[1] as { from: string }).from = `${f.edges[1]?.from}\u0000`)],
      ['export.edges[2].to', (f) => ((f.edges[2] as { to: string }).to = `\u001b${f.edges[2]?.to}`)],
    ];
    for (const [field, damage] of cases) {
      const f = copy();
      damage(f);
      expect(await errorOf(target.import(f)), field).toMatchObject({ code: 'INVALID_INPUT', field, message: expect.stringMatching(/control character \(U\+00(00|0A|07|1B)\)/) });
    }
    expect(await target.namespaces()).toEqual([]);
    await target.close();
  });

  it('drops supersededBy ids of nodes the file does not hold: a superseded node left without a newer version is imported active', async () => {
    const f = copy();
    const oldIndex = f.nodes.findIndex((x) => x.status === 'superseded');
    expect(oldIndex).toBeGreaterThanOrEqual(0);
    const old = f.nodes[oldIndex] as MemoryExport['nodes'][number];
    const newer = old.supersededBy[0] as string;
    // Another node demoted by a ghost; the real superseded one names its newer version and a ghost.
    (f.nodes[0] as { status: string }).status = 'superseded';
    (f.nodes[0] as { supersededBy: string[] }).supersededBy = ['ghost'];
    old.supersededBy = [newer, 'ghost-2'];
    const target = await createMemory({ encoder, namespace: 'conv' });
    const r = await target.import(f);
    expect(r.successorsDropped).toBe(2);
    expect(await target.get(f.nodes[0]?.id as string)).toMatchObject({ status: 'active', supersededBy: [] });
    expect(await target.get(old.id)).toMatchObject({ status: 'superseded', supersededBy: [newer] });
    await target.close();
  });

  it('leaves out an edge to a node the file does not hold, and says so', async () => {
    const f = copy();
    (f.edges[0] as { to: string }).to = 'no-such-node';
    const target = await createMemory({ encoder, namespace: 'conv' });
    const r = await target.import(f);
    expect(r).toMatchObject({ edges: file.edges.length - 1, edgesDropped: 1 });
    expect((await target.stats()).edges).toBe(file.edges.length - 1);
    await target.close();
  });

  it('the CLI import prints what it rebuilt', async () => {
    const f = copy();
    (f.nodes[1] as { seq: number }).seq = f.nodes[0]?.seq as number;
    (f.edges[0] as { from: string }).from = 'gone';
    const dir = tempDir();
    const path = join(dir, 'edited.json');
    writeFileSync(path, JSON.stringify(f));
    const r = await cli(['import', path, '--store', join(dir, 'store'), '--system-one', 'heuristic']);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ seqRenumbered: 1, edgesDropped: 1 });
    expect(r.err.join('\n')).toMatch(/1 node\(s\) shared a seq .*; 1 edge\(s\) joined a node the file does not hold/);
  });
});

describe('import of a file whose first node takes the second one\'s seq', () => {
  it('the CLI says how many nodes shared a seq (1) apart from how many were moved up (all the others)', async () => {
    const f = copy();
    const n = f.nodes.length;
    const seqs = f.nodes.map((x) => x.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b)); // consecutive in file order: every later node moves up
    (f.nodes[0] as { seq: number }).seq = f.nodes[1]?.seq as number;
    const dir = tempDir();
    const path = join(dir, 'edited.json');
    writeFileSync(path, JSON.stringify(f));
    const r = await cli(['import', path, '--store', join(dir, 'store'), '--system-one', 'heuristic']);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ seqShared: 1, seqRenumbered: n - 1 });
    expect(r.err.join('\n')).toContain(`1 node(s) shared a seq with another node; ${n - 1} node(s) were given the next free seq`);
  });
});

describe('repairImport', () => {
  it('moves repeated seqs up in (seq, file) order, the next ones only as far as needed', () => {
    // Five nodes with no supersession between them (the source's state-update head may have linked
    // some to nodes outside these five): this case counts seqs only.
    const base = copy().nodes.slice(0, 5).map((n) => ({ ...n, status: 'active' as const, supersededBy: [] }));
    const seqs = [5, 5, 6, 9, 5];
    const nodes = base.map((n, i) => ({ ...n, seq: seqs[i] as number }));
    const out = repairImport(nodes, []);
    // In order: [0]=5, [1]=5→6, [4]=5→7, [2]=6→8, [3]=9 stays.
    expect(out.nodes.map((n) => n.seq)).toEqual([5, 6, 8, 9, 7]);
    // Two nodes had a seq an earlier one had ([1] and [4]); [2] only moved up to make room.
    expect(out.repairs).toEqual({ seqShared: 2, seqRenumbered: 3, successorsDropped: 0, edgesDropped: 0 });
    expect(out.nodes[0]).toBe(nodes[0]); // untouched records are the same objects
  });

  it('refuses a repeated seq that cannot move up within the safe integers', () => {
    const base = copy().nodes.slice(0, 2).map((n) => ({ ...n, seq: Number.MAX_SAFE_INTEGER }));
    expect(() => repairImport(base, [])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'export.nodes[1].seq' }));
  });
});
