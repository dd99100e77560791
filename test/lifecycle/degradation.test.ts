/**
 * Issue 12, "no error swallowed": failures the memory recovers from without failing the call
 * (a vector index that cannot switch to its approximate kind, a failed automatic maintenance pass) reach the
 * injected logger and `stats()`. (The v1 file store and its compaction are gone: issue 22.)
 */
import { describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { AUTO_HNSW_FROM, AUTO_HNSW_WORK, autoHnswFrom, createMemory, MAINTENANCE_PENDING_META_KEY, type Logger } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { SCHEMA_META_KEY, SCHEMA_VERSION } from '../../src/plane/store/schema.js';
import type { MemoryNode } from '../../src/types.js';
import { prng } from '../helpers/prng.js';
import { faulty, keepOpen, lifecycleFixture, TURNS } from './helpers.js';

// As in Cloudflare Workers: hnswlib-wasm cannot be instantiated. `auto` does not need it: it
// switches to the pure-TypeScript index (issue 25).
vi.mock('hnswlib-wasm/dist/hnswlib.js', () => ({
  __tla: undefined,
  loadHnswlib: () => Promise.reject(new Error('Wasm code generation disallowed by embedder')),
}));

/** When `on`, creating the pure-TypeScript index fails (to see how a failed switch is reported). */
const annFails = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/plane/indexes/vector-ann.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/plane/indexes/vector-ann.js')>();
  return {
    ...real,
    createAnnVectorIndex: (o: Parameters<typeof real.createAnnVectorIndex>[0]) => {
      if (annFails.on) throw new Error('injected: the index could not be allocated');
      return real.createAnnVectorIndex(o);
    },
  };
});

let encoder: Encoder;
lifecycleFixture('degradation', (e) => (encoder = e));

/** A logger that keeps `[level, code, namespace]` of each report. */
function recording(): Logger & { seen: Array<[string, string, string | undefined]> } {
  const seen: Array<[string, string, string | undefined]> = [];
  return Object.assign((level: string, _message: string, entry: { code: string; namespace?: string }) => void seen.push([level, entry.code, entry.namespace]), { seen });
}

/** A 768-dimensional encoder: the vector of a text is one of the axes, by its length. */
const wide: Encoder = {
  fingerprint: 'test/axes@768',
  dimension: 768,
  embed: async (texts) => texts.map((t) => Float32Array.from({ length: 768 }, (_, i) => (i === t.length % 768 ? 1 : 0))),
};

function seeded(i: number): MemoryNode {
  return {
    id: `n${i}`,
    namespace: 'default',
    text: `note ${i}`,
    ingestedAt: '2024-01-01T00:00:00.000Z',
    provenance: {},
    entities: [],
    keywords: ['note'],
    timeRefs: [],
    types: { episodic: 0.5, semantic: 0.5, procedural: 0.5, preference: 0.5 },
    embedding: { encoder: wide.fingerprint, vector: Array.from({ length: 768 }, (_, k) => (k === 0 ? 1 : 0)) },
    status: 'active',
    supersededBy: [],
    seq: i,
  };
}

/** A 16-dimensional encoder: a seeded random vector per text (the same text, the same vector). */
const narrow: Encoder = {
  fingerprint: 'test/hash@16',
  dimension: 16,
  embed: async (texts) =>
    texts.map((t) => {
      let h = 2166136261;
      for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
      const r = prng(h >>> 0);
      return Float32Array.from({ length: 16 }, () => r() * 2 - 1);
    }),
};

/** Node `i` of the narrow encoder's namespace, with its own random vector. */
function narrowSeeded(i: number): MemoryNode {
  const r = prng(i);
  const n = seeded(i);
  return { ...n, embedding: { encoder: narrow.fingerprint, vector: Array.from({ length: 16 }, () => r() * 2 - 1) } };
}

describe('the switch to the approximate index at AUTO_HNSW_FROM nodes', () => {
  it('a namespace opens on the exact index below autoHnswFrom(dimension): the same exact-search cost (AUTO_HNSW_WORK entries) at any dimension', () => {
    expect(autoHnswFrom(768)).toBe(5000);
    expect(autoHnswFrom(1536)).toBe(5000);
    expect(autoHnswFrom(384)).toBe(10_000);
    expect(autoHnswFrom(100)).toBe(38_400);
    expect(AUTO_HNSW_WORK).toBe(3_840_000);
  });

  it('where hnswlib-wasm cannot load (Workers), the first write at the threshold switches to the pure-TypeScript index', async () => {
    const storage = createMemoryStorage();
    await storage.commit('default', { putNodes: Array.from({ length: AUTO_HNSW_FROM }, (_, i) => narrowSeeded(i + 1)), meta: { [SCHEMA_META_KEY]: SCHEMA_VERSION } });
    const logger = recording();
    const memory = await createMemory({ encoder: narrow, storage, logger, vectorIndex: 'auto' });
    const first = await memory.add({ text: 'the namespace is at the threshold now' });
    const stats = await memory.stats();
    expect(stats.vectorIndex).toBe('ann');
    expect(stats.vectorIndexError).toBeUndefined();
    expect(logger.seen).toEqual([]);
    // The new node is found through the new index (its vector is the axis of its text length).
    const { memories } = await memory.recall('the namespace is at the threshold now');
    expect(memories.some((m) => m.id === first.id)).toBe(true);
    await memory.close();
  }, 120_000);

  it('fails visibly: the write succeeds on the exact index, the failure is logged once and shown in stats', async () => {
    annFails.on = true;
    const storage = createMemoryStorage();
    await storage.commit('default', { putNodes: Array.from({ length: AUTO_HNSW_FROM }, (_, i) => seeded(i + 1)), meta: { [SCHEMA_META_KEY]: SCHEMA_VERSION } });
    const logger = recording();
    const memory = await createMemory({ encoder: wide, storage, logger, vectorIndex: 'auto' });
    const first = await memory.add({ text: 'the namespace is at the threshold now' });
    expect((await memory.get(first.id))?.seq).toBe(AUTO_HNSW_FROM + 1);
    await memory.add({ text: 'a second write does not try again' });
    expect(logger.seen).toEqual([['warn', 'VECTOR_UPGRADE_FAILED', 'default']]);
    const stats = await memory.stats();
    expect(stats.vectorIndex).toBe('flat');
    expect(stats.vectorIndexError).toMatch(/injected: the index could not be allocated/);
    expect(stats.nodes).toBe(AUTO_HNSW_FROM + 2);
    await memory.close();
    annFails.on = false;
  });
});

describe('an automatic maintenance pass that fails', () => {
  it('does not fail the acknowledged write; it is logged and counted, and its nodes stay pending', async () => {
    const storage = faulty(createMemoryStorage());
    const logger = recording();
    // J_c = 2: the pass runs once the chunk of 2 is committed; its commit (the one that empties the pending list) fails once.
    const memory = await createMemory({ encoder, storage: keepOpen(storage), logger, parameters: { maintenanceInterval: 2 } });
    let failures = 0;
    storage.failIf = (b) => (b.meta?.[MAINTENANCE_PENDING_META_KEY] === null && failures++ === 0 ? new Error('disk hiccup') : undefined);
    const res = await memory.addMany(TURNS.slice(0, 2), { chunkSize: 2 });
    expect(res).toHaveLength(2);
    expect(logger.seen).toEqual([['warn', 'MAINTENANCE_FAILED', 'default']]);
    expect((await memory.stats()).maintenanceFailures).toBe(1);
    expect((await storage.load('default')).meta[MAINTENANCE_PENDING_META_KEY]).toEqual(res.map((r) => r.id)); // kept for the next pass
    await memory.maintain();
    expect((await storage.load('default')).meta[MAINTENANCE_PENDING_META_KEY]).toBeUndefined();
    expect(failures).toBe(2); // the failed commit and the one of maintain()
    expect((await memory.stats()).maintenanceFailures).toBe(1);
    await memory.close();
  });
});
