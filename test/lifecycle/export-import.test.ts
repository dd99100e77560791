/**
 * Issue 7 item 3: one versioned export file per namespace (nodes, edges, embeddings with the
 * encoder fingerprint, the System-One model version); importing it into an empty store gives
 * the same recall; a file from another encoder is re-embedded on request or refused with a clear
 * error; damaged files are refused before anything is written. CLI export / import.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type MemoryExport } from '../../src/plane/store/export.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { SCHEMA_VERSION } from '../../src/plane/store/schema.js';
import { HEURISTIC_MODEL_ID } from '../../src/system-one/heuristic.js';
import { cli, codeOf, errorOf, keepOpen, lifecycleFixture, QUESTIONS, recallView, TURNS } from './helpers.js';
import { SHIPPED_STORES, storePlace } from './stores.js';

let encoder: Encoder;
let source: Memory;
let file: MemoryExport;
const { tempDir } = lifecycleFixture('export', (e) => (encoder = e));

beforeAll(async () => {
  source = await createMemory({ encoder, namespace: 'conv' });
  const res = await source.addMany(TURNS);
  await source.update(res[8]?.id as string, { text: 'Maya: I changed the flights, I now fly to Tokyo in November.', observedAt: '2023-05-01T10:00:00Z', speaker: 'Maya', source: 'chat' });
  await source.add(TURNS[0] as (typeof TURNS)[0]); // an exact repeat: provenance kept in `duplicates`
  file = await source.export();
});
afterAll(async () => {
  await source.close();
});
/** A deep copy of the export (as a file read back would be). */
const copy = (): MemoryExport => JSON.parse(JSON.stringify(file)) as MemoryExport;

describe('export', () => {
  it('writes one versioned, JSON-safe file with nodes, edges, embeddings, encoder and System-One version', async () => {
    expect(file).toMatchObject({ format: EXPORT_FORMAT, version: EXPORT_VERSION, namespace: 'conv', encoder: encoder.fingerprint, systemOne: HEURISTIC_MODEL_ID });
    const stats = await source.stats();
    expect(file.nodes).toHaveLength(stats.nodes);
    expect(file.edges).toHaveLength(stats.edges);
    expect(file.nodes.every((n) => n.embedding.encoder === encoder.fingerprint && n.embedding.vector.length === encoder.dimension)).toBe(true);
    expect(file.nodes.map((n) => n.seq)).toEqual([...file.nodes.map((n) => n.seq)].sort((a, b) => a - b));
    expect(file.meta.schemaVersion).toBe(SCHEMA_VERSION);
    expect(file.meta.generation).toBeUndefined(); // per-store bookkeeping stays out of the file
    expect(JSON.parse(JSON.stringify(file))).toEqual(file);
  });

  it('carries supersession and duplicate provenance', async () => {
    // The explicit update replaced S2:4, and only it: an update names what it replaces, so the
    // new Tokyo flights supersede nothing else by inference (h-endgate; before, the MLP head also
    // read them as replacing the Japan-in-autumn plan S1:5).
    const superseded = file.nodes.filter((n) => n.status === 'superseded');
    expect(superseded.map((n) => n.provenance.turnId).sort()).toEqual(['S2:4']);
    expect(superseded).toHaveLength((await source.stats()).supersededNodes);
    expect(file.nodes.find((n) => n.provenance.turnId === 'S1:1')?.duplicates).toHaveLength(1);
  });
});

describe('import', () => {
  it('gives the same recall in an empty store as in the memory that exported it', async () => {
    const target = await createMemory({ encoder });
    expect(await target.import(copy())).toEqual({ nodes: file.nodes.length, edges: file.edges.length, namespace: 'conv' });
    for (const q of QUESTIONS) expect(await recallView(target, q, 'conv')).toEqual(await recallView(source, q));
    expect(await target.export({ namespace: 'conv' })).toEqual({ ...file, exportedAt: expect.any(String) });
    await target.close();
  });

  it('imports under another namespace name when asked, rewriting every record', async () => {
    const storage = createMemoryStorage();
    const target = await createMemory({ encoder, storage: keepOpen(storage) });
    await target.import(copy(), { namespace: 'restored' });
    const snap = await storage.load('restored');
    expect(snap.nodes).toHaveLength(file.nodes.length);
    expect(snap.nodes.every((n) => n.namespace === 'restored') && snap.edges.every((e) => e.namespace === 'restored')).toBe(true);
    expect(await storage.namespaces()).toEqual(['restored']);
    await target.close();
  });

  it.each(SHIPPED_STORES)('survives a reopen of the store (%s store)', async (kind) => {
    const place = storePlace(kind, tempDir);
    const first = await createMemory({ encoder, storage: await place.open() });
    await first.import(copy());
    // The SQLite store ranks with its own FTS5 index, so the imported memory is compared with
    // itself before the reopen; its ids are the source's either way.
    const before = await Promise.all(QUESTIONS.map((q) => recallView(first, q, 'conv')));
    for (const [i, q] of QUESTIONS.entries()) expect(new Set(before[i]?.map((m) => m.id))).toEqual(new Set((await recallView(source, q)).map((m) => m.id)));
    await first.close();
    const second = await createMemory({ encoder, storage: await place.open(), namespace: 'conv' });
    expect(await Promise.all(QUESTIONS.map((q) => recallView(second, q)))).toEqual(before);
    await second.close();
  });

  it('refuses a namespace that already holds memories, and changes nothing', async () => {
    const storage = createMemoryStorage();
    const target = await createMemory({ encoder, storage: keepOpen(storage), namespace: 'conv' });
    await target.add({ text: 'Something already here.' });
    const before = await storage.load('conv');
    const e = await errorOf(target.import(copy()));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'options.namespace' });
    expect(await storage.load('conv')).toEqual(before);
    await target.close();
  });

  it('refuses embeddings of another encoder with ENCODER_MISMATCH that says how to fix it, writing nothing', async () => {
    const foreign = copy();
    foreign.encoder = 'use-lite-512@abc';
    for (const n of foreign.nodes) n.embedding = { encoder: 'use-lite-512@abc', vector: new Array<number>(512).fill(0.01) };
    const storage = createMemoryStorage();
    const target = await createMemory({ encoder, storage: keepOpen(storage) });
    const e = await errorOf(target.import(foreign));
    expect(e).toMatchObject({ code: 'ENCODER_MISMATCH', field: 'export.encoder' });
    expect((e as Error).message).toMatch(/use-lite-512@abc/);
    expect((e as Error).message).toMatch(/reembed: true/);
    expect(await storage.namespaces()).toEqual([]);
    await target.close();
  });

  it('a truncated vector of this encoder fails ENCODER_MISMATCH naming the node and its record (issue 24)', async () => {
    const cut = copy();
    const victim = cut.nodes[3]!;
    victim.embedding = { ...victim.embedding, vector: victim.embedding.vector.slice(0, 10) };
    const target = await createMemory({ encoder });
    const e = await errorOf(target.import(cut));
    expect(e).toMatchObject({ code: 'ENCODER_MISMATCH', field: 'export.nodes[3].embedding.vector', details: { ids: [victim.id] } });
    expect((e as Error).message).toContain(`node ${JSON.stringify(victim.id)} (export.nodes[3].embedding.vector) has a vector of 10 numbers where its encoder ${JSON.stringify(encoder.fingerprint)} gives ${encoder.dimension}`);
    await target.close();
  });

  it('re-embeds a foreign file on request: same vectors as a fresh embedding, same recall', async () => {
    const foreign = copy();
    for (const n of foreign.nodes) n.embedding = { encoder: 'other@1', vector: [1, 0, 0] };
    const target = await createMemory({ encoder });
    await target.import(foreign, { reembed: true });
    const node = await target.get(file.nodes[3]?.id as string, { namespace: 'conv' });
    expect(node?.embedding).toEqual(file.nodes[3]?.embedding);
    for (const q of QUESTIONS) expect(await recallView(target, q, 'conv')).toEqual(await recallView(source, q));
    await target.close();
  });

  it('refuses a newer export version or a newer schema with SCHEMA_MISMATCH, writing nothing', async () => {
    const storage = createMemoryStorage();
    const target = await createMemory({ encoder, storage: keepOpen(storage) });
    expect(await codeOf(target.import({ ...copy(), version: EXPORT_VERSION + 1 }))).toBe('SCHEMA_MISMATCH');
    const newer = copy();
    newer.meta.schemaVersion = SCHEMA_VERSION + 1;
    expect(await codeOf(target.import(newer))).toBe('SCHEMA_MISMATCH');
    expect(await storage.namespaces()).toEqual([]);
    await target.close();
  });

  it('imports a file without a schema version (written before versioning) as version 1', async () => {
    const legacy = copy();
    delete legacy.meta.schemaVersion;
    const storage = createMemoryStorage();
    const target = await createMemory({ encoder, storage: keepOpen(storage) });
    await target.import(legacy);
    expect((await storage.load('conv')).meta.schemaVersion).toBe(SCHEMA_VERSION);
    await target.close();
  });

  it('names the first bad field of a damaged file and writes nothing', async () => {
    const target = await createMemory({ encoder });
    const cases: Array<[string, (f: MemoryExport) => void]> = [
      ['export.format', (f) => ((f as { format: string }).format = 'something-else')],
      ['export.nodes[2].seq', (f) => ((f.nodes[2] as { seq: unknown }).seq = -1)],
      ['export.nodes[0].provenance', (f) => ((f.nodes[0] as { provenance: unknown }).provenance = 'chat')],
      ['export.nodes[1].embedding', (f) => ((f.nodes[1]?.embedding.vector as unknown[])[0] = 'NaN')],
      ['export.nodes[4].types', (f) => ((f.nodes[4]?.types as { semantic: number }).semantic = 3)],
      ['export.nodes[5].id', (f) => ((f.nodes[5] as { id: string }).id = f.nodes[0]?.id as string)],
      ['export.nodes[3].observedAt', (f) => ((f.nodes[3] as { observedAt: string }).observedAt = 'yesterday')],
      ['export.edges[0].view', (f) => ((f.edges[0] as { view: string }).view = 'telepathic')],
      ['export.edges[1].weight', (f) => ((f.edges[1] as { weight: number }).weight = Infinity)],
    ];
    for (const [field, damage] of cases) {
      const f = copy();
      damage(f);
      const e = await errorOf(target.import(f));
      expect(e, field).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect(await target.namespaces()).toEqual([]);
    await target.close();
  });

  it('property: a randomly damaged file either imports whole or is refused with a typed error, never half', async () => {
    const paths: Array<Array<string | number>> = [];
    const walk = (v: unknown, path: Array<string | number>): void => {
      if (path.length > 0) paths.push(path);
      if (v !== null && typeof v === 'object' && path.length < 6) for (const [k, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(k) : k]);
    };
    walk(copy(), []);
    const junk = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));
    const storage = createMemoryStorage();
    const target = await createMemory({ encoder, storage: keepOpen(storage) });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), junk, async (path, value) => {
        const f = copy() as unknown as Record<string | number, unknown>;
        let at: Record<string | number, unknown> = f;
        for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
        at[path[path.length - 1] as string | number] = value;
        try {
          const r = await target.import(f);
          const s = await target.stats({ namespace: r.namespace });
          expect(s.nodes).toBe(r.nodes);
          await target.recall('Where is Maya travelling?', { namespace: r.namespace });
          await target.forget(r.namespace);
        } catch (e) {
          expect(isJevMemError(e), String(e)).toBe(true);
          expect(['INVALID_INPUT', 'SCHEMA_MISMATCH', 'ENCODER_MISMATCH']).toContain((e as { code: string }).code);
        }
        expect(await storage.namespaces()).toEqual([]);
      }),
      { numRuns: 120, seed: 7 },
    );
    await target.close();
  });
});

describe('CLI export and import', () => {
  it('exports a namespace to stdout and imports the file into a new store with the same recall', async () => {
    const dir = tempDir();
    const storeA = join(dir, 'a');
    const storeB = join(dir, 'b');
    const setup = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir: storeA }) });
    await setup.import(copy());
    await setup.close();
    const out = await cli(['export', '--store', storeA, '--namespace', 'conv', '--system-one', 'heuristic']);
    expect(out.code).toBe(0);
    const path = join(dir, 'conv.json');
    writeFileSync(path, out.out.join('\n'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ format: EXPORT_FORMAT, namespace: 'conv', nodes: expect.any(Array) });
    const imp = await cli(['import', path, '--store', storeB, '--system-one', 'heuristic']);
    expect(imp.code).toBe(0);
    expect(JSON.parse(imp.out[0] as string)).toEqual({ nodes: file.nodes.length, edges: file.edges.length, namespace: 'conv' });
    // The source memory searches with MiniSearch: compare on the same lexical engine.
    const check = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir: storeB, lexical: 'minisearch' }), namespace: 'conv' });
    for (const q of QUESTIONS) expect(await recallView(check, q)).toEqual(await recallView(source, q));
    await check.close();
  });

  it('exits 1 with ENCODER_MISMATCH for a foreign file, and imports it with --reembed', async () => {
    const dir = tempDir();
    const foreign = copy();
    for (const n of foreign.nodes) n.embedding = { encoder: 'other@1', vector: [0, 1] };
    const path = join(dir, 'foreign.json');
    writeFileSync(path, JSON.stringify(foreign));
    const refused = await cli(['import', path, '--store', join(dir, 's'), '--system-one', 'heuristic']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/ENCODER_MISMATCH/);
    const ok = await cli(['import', path, '--store', join(dir, 's'), '--system-one', 'heuristic', '--reembed']);
    expect(ok.code).toBe(0);
  });
});
