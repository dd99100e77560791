/**
 * Issue 12, "no error swallowed": failures the memory recovers from without failing the call
 * (a vector index that cannot switch to HNSW, a failed automatic maintenance pass) reach the
 * injected logger and `stats()`. (The v1 file store and its compaction are gone: issue 22.)
 */
import { describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { AUTO_HNSW_FROM, AUTO_HNSW_WORK, autoHnswFrom, createMemory, MAINTENANCE_PENDING_META_KEY, type Logger } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { SCHEMA_META_KEY, SCHEMA_VERSION } from '../../src/plane/store/schema.js';
import type { MemoryNode } from '../../src/types.js';
import { faulty, keepOpen, lifecycleFixture, TURNS } from './helpers.js';

// As in Cloudflare Workers: hnswlib-wasm cannot be instantiated, so the switch to HNSW fails.
vi.mock('hnswlib-wasm/dist/hnswlib.js', () => ({
  __tla: undefined,
  loadHnswlib: () => Promise.reject(new Error('Wasm code generation disallowed by embedder')),
}));

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

describe('the switch to HNSW at AUTO_HNSW_FROM nodes', () => {
  it('a namespace opens on the exact index below autoHnswFrom(dimension): the same exact-search cost (AUTO_HNSW_WORK entries) at any dimension', () => {
    expect(autoHnswFrom(768)).toBe(5000);
    expect(autoHnswFrom(1536)).toBe(5000);
    expect(autoHnswFrom(384)).toBe(10_000);
    expect(autoHnswFrom(100)).toBe(38_400);
    expect(AUTO_HNSW_WORK).toBe(3_840_000);
  });

  it('fails visibly: the write succeeds on the exact index, the failure is logged once and shown in stats', async () => {
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
    expect(stats.vectorIndexError).toMatch(/hnswlib-wasm could not be loaded: .*Wasm code generation disallowed/);
    expect(stats.nodes).toBe(AUTO_HNSW_FROM + 2);
    await memory.close();
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
