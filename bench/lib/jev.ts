/**
 * jev-mem as a system of the LoCoMo harness, through the public API only (`createNodeMemory`,
 * `Memory.addMany` / `recall` / `stats` / `export`): one namespace per conversation, built in a
 * file store in a temporary folder, recalled with the ablation switches of `RecallOptions`.
 * Also the wrappers that measure System One on the write path (calls and time) and keep shared
 * resources open across memories.
 *
 * @module
 */
import type { Encoder } from '../../src/encoder/encoder.js';
import { sharedEncoder } from '../../src/encoder/shared.js';
import { countingBackend, countsDelta, type BackendCounts, type CountingBackend } from './counting.js';
import type { LocomoConversation } from '../../src/formats/locomo.js';
import type { Memory, MemoryOptions, RecallOptions } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { RecallSwitches } from '../../src/read/recall.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import type { RankedItem } from './metrics.js';

/** The jev-mem systems of the harness: the full system and its ablations. */
export type JevSystemName = 'jev-mem' | 'no-graph' | 'no-routing' | 'no-stop' | 'no-hop' | 'no-order' | 'no-system-one';

/** Which backend a jev-mem system is built with: the configured System One, or the heuristic stand-in. */
export const JEV_BACKEND: Readonly<Record<JevSystemName, 'configured' | 'heuristic'>> = Object.freeze({
  'jev-mem': 'configured',
  'no-graph': 'configured',
  'no-routing': 'configured',
  'no-stop': 'configured',
  'no-hop': 'configured',
  'no-order': 'configured',
  'no-system-one': 'heuristic',
});

/** Recall switches of each jev-mem system (issue 4 ablations). */
export const JEV_SWITCHES: Readonly<Record<JevSystemName, RecallSwitches>> = Object.freeze({
  'jev-mem': {},
  'no-graph': { graph: false },
  'no-routing': { routing: false },
  'no-stop': { stopping: false },
  'no-hop': { hop: false },
  'no-order': { order: false },
  'no-system-one': {},
});

export { sharedEncoder };
export { countingBackend, countsDelta, type BackendCounts, type CountingBackend };

/** One conversation built into a memory. */
export interface JevBuild {
  memory: Memory;
  backend: CountingBackend;
  /** Observations written. */
  observations: number;
  /** Wall time of `addMany`, ms (model load excluded: the encoder and backend were loaded before). */
  buildMs: number;
  /** System One on the write path (typing, relations, maintenance). */
  writeSystemOne: BackendCounts;
  nodes: number;
  edges: number;
  /** `stats().storageBytes` of the file store (undefined when the adapter cannot tell). */
  storageBytes: number | undefined;
  /** UTF-8 bytes of `JSON.stringify(export())`. */
  exportBytes: number;
}

/** Stores a LoCoMo build can run on (`--store`). */
export const JEV_STORES = ['sqlite-fts5', 'sqlite-minisearch', 'memory'] as const;
/** One of {@link JEV_STORES}. */
export type JevStore = (typeof JEV_STORES)[number];

/** Options of {@link buildJevMemory}. */
export interface BuildJevOptions {
  encoder: Encoder;
  backend: SystemOneBackend;
  /** Store directory (a file store); created when missing. */
  store: string;
  /**
   * The store kind: a SQLite file in `store` with the FTS5 or the MiniSearch lexical engine, or an
   * in-memory store. @default createNodeMemory's own (a SQLite file in `store`, its default engine)
   */
  storeKind?: JevStore;
  vectorIndex?: MemoryOptions['vectorIndex'];
  signal?: AbortSignal;
}

/**
 * Builds one conversation's memory (namespace = its sample id) and measures the build.
 * @throws the memory's JevMemErrors (e.g. `STORAGE_FAILED`, `ABORTED`).
 */
export async function buildJevMemory(conv: LocomoConversation, o: BuildJevOptions): Promise<JevBuild> {
  const backend = countingBackend(o.backend);
  const opts: Parameters<typeof createNodeMemory>[0] = { store: o.store, namespace: conv.sampleId, encoder: sharedEncoder(o.encoder), systemOne: backend };
  if (o.vectorIndex) opts.vectorIndex = o.vectorIndex;
  if (o.storeKind === 'memory') opts.storage = createMemoryStorage();
  else if (o.storeKind !== undefined) opts.storage = await createSqliteFileStorage({ dir: o.store, lexical: o.storeKind === 'sqlite-fts5' ? 'fts5' : 'minisearch' });
  const memory = await createNodeMemory(opts);
  try {
    const before = backend.counts();
    const t = performance.now();
    await memory.addMany(conv.observations, o.signal ? { signal: o.signal } : {});
    const buildMs = performance.now() - t;
    const writeSystemOne = countsDelta(backend.counts(), before);
    const stats = await memory.stats();
    const exportBytes = Buffer.byteLength(JSON.stringify(await memory.export()), 'utf8');
    return { memory, backend, observations: conv.observations.length, buildMs, writeSystemOne, nodes: stats.nodes, edges: stats.edges, storageBytes: stats.storageBytes, exportBytes };
  } catch (e) {
    await memory.close();
    throw e;
  }
}

/** One recall measured. */
export interface JevRecall {
  ranked: RankedItem[];
  /** Wall time of `recall`, ms. */
  latencyMs: number;
  /** System-One calls answered by the backend (trace decisions that are not fallbacks). */
  systemOneCalls: number;
  /** Calls answered by the deterministic fallback. */
  fallbacks: number;
  /** Sum of the trace decisions' latencyMs. */
  systemOneMs: number;
  stopReason: string;
}

/** Recalls the top `k` for a question with the system's switches; items are turn ids. `now`: the question's date (`RecallOptions.now`), else the memory's clock. */
export async function recallJev(memory: Memory, question: string, system: JevSystemName, k: number, signal?: AbortSignal, now?: string): Promise<JevRecall> {
  const opts: RecallOptions = { k, switches: JEV_SWITCHES[system] };
  if (signal) opts.signal = signal;
  if (now !== undefined) opts.now = now;
  const t = performance.now();
  const r = await memory.recall(question, opts);
  const latencyMs = performance.now() - t;
  const ranked = r.memories.map((m) => m.provenance.turnId ?? m.id);
  const decisions = r.trace.decisions;
  return {
    ranked,
    latencyMs,
    systemOneCalls: decisions.filter((d) => !d.fallback).length,
    fallbacks: r.trace.fallbacks,
    systemOneMs: decisions.reduce((a, d) => a + d.latencyMs, 0),
    stopReason: r.trace.stopReason,
  };
}
