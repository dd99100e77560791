/**
 * Bringing stored data up to this build before its caches are built: schema migrations
 * (plane/schema.ts) and new embeddings for nodes embedded by another encoder. Used when a
 * namespace is opened, and by import for the file's records.
 *
 * @module
 */
import type { Encoder } from '../encoder/encoder.js';
import { applyToSnapshot, planMigrations } from '../plane/schema.js';
import type { NamespaceSnapshot, StorageAdapter, WriteBatch } from '../plane/storage.js';
import type { MemoryNode } from '../types.js';
import { storedVector } from '../write/plan.js';
import { GENERATION_META_KEY, newGeneration } from './concurrency.js';

/** Nodes re-embedded per batch when a namespace is opened with another encoder. */
export const REEMBED_BATCH = 256;

/** True when `n` was embedded by another encoder than `encoder` (or with another dimension). */
export function isForeign(n: MemoryNode, encoder: Encoder): boolean {
  return n.embedding.encoder !== encoder.fingerprint || n.embedding.vector.length !== encoder.dimension;
}

/**
 * New embeddings of `nodes` from their (verbatim) texts, in batches of {@link REEMBED_BATCH}.
 * @returns the nodes with this encoder's embeddings, in the order given.
 */
export async function reembed(nodes: readonly MemoryNode[], encoder: Encoder, signal?: AbortSignal): Promise<MemoryNode[]> {
  const out: MemoryNode[] = [];
  for (let i = 0; i < nodes.length; i += REEMBED_BATCH) {
    const part = nodes.slice(i, i + REEMBED_BATCH);
    const vectors = await encoder.embed(
      part.map((n) => n.text),
      signal,
    );
    part.forEach((n, j) => out.push({ ...n, embedding: { encoder: encoder.fingerprint, vector: storedVector(vectors[j] as Float32Array) } }));
  }
  return out;
}

/**
 * Brings a loaded namespace up to date: schema migrations (each step committed atomically) and,
 * after an encoder change, new embeddings for nodes embedded by another encoder (committed in
 * batches of {@link REEMBED_BATCH}; texts are verbatim, so nothing is lost). Both are
 * idempotent, so two tabs doing it at once write the same result.
 * @throws JevMemError `SCHEMA_MISMATCH` (newer schema), and the storage and encoder errors.
 */
export async function upgradeSnapshot(ns: string, loaded: NamespaceSnapshot, storage: StorageAdapter, encoder: Encoder): Promise<NamespaceSnapshot> {
  let snap = loaded;
  const planned = planMigrations(snap, ns);
  for (const step of planned.steps) {
    const batch: WriteBatch = { ...step.batch, meta: { ...step.batch.meta, [GENERATION_META_KEY]: newGeneration() } };
    await storage.commit(ns, batch);
    snap = applyToSnapshot(snap, batch);
  }
  const foreign = snap.nodes.filter((n) => isForeign(n, encoder));
  if (foreign.length === 0) return snap;
  const byId = new Map(snap.nodes.map((n) => [n.id, n]));
  const meta = { ...snap.meta };
  for (let i = 0; i < foreign.length; i += REEMBED_BATCH) {
    const putNodes = await reembed(foreign.slice(i, i + REEMBED_BATCH), encoder);
    const generation = newGeneration();
    await storage.commit(ns, { putNodes, meta: { [GENERATION_META_KEY]: generation } });
    for (const n of putNodes) byId.set(n.id, n);
    meta[GENERATION_META_KEY] = generation;
  }
  return { nodes: [...byId.values()], edges: snap.edges, meta };
}
