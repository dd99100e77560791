/**
 * Bringing stored data up to this build before its caches are built: schema migrations
 * (plane/store/schema.ts) and new embeddings for nodes embedded by another encoder. Used when a
 * namespace is opened, and by import for the file's records.
 *
 * @module
 */
import type { Encoder } from '../encoder/encoder.js';
import { NamespaceState, type IndexFactories } from '../plane/resident/namespace.js';
import { applyToSnapshot, planMigrations, SCHEMA_META_KEY, SCHEMA_VERSION } from '../plane/store/schema.js';
import { CHANGE_META_KEY, type NamespaceSnapshot, type StorageAdapter, type WriteBatch } from '../plane/store/storage.js';
import type { MemoryNode } from '../types.js';
import { storedVector } from '../write/plan.js';
import { GENERATION_META_KEY, newGeneration } from './concurrency.js';
import { type NamespaceLanguage, namespaceLanguage } from './language-option.js';

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

/** Meta key: fingerprint of the encoder every node of the namespace is embedded with. */
export const ENCODER_META_KEY = 'encoder' as const;

/** The next commit number of a namespace whose meta is `meta` ({@link CHANGE_META_KEY}). */
export function nextChange(meta: Record<string, unknown>): number {
  const c = meta[CHANGE_META_KEY];
  return (typeof c === 'number' && Number.isInteger(c) && c >= 0 ? c : 0) + 1;
}

/**
 * Opens a namespace for this build (issue 13): schema migrations and re-embedding first (each
 * commit atomic; both idempotent), then the resident state from the checkpoint or a scan
 * (plane/resident/namespace.ts). A namespace already on this schema and encoder is not read whole: only
 * its meta, checkpoint and logged changes are. An older schema is migrated through a whole load
 * (migrations are whole-namespace by nature); nodes of another encoder are found by one scan
 * and re-embedded in batches of {@link REEMBED_BATCH}.
 * `language`: what the memory's `language` option gives this namespace (the stored one wins
 * unless `changeLanguage`: language-option.ts `namespaceLanguage`).
 * @throws JevMemError `LANGUAGE_MISMATCH` (before anything is migrated or rebuilt), `SCHEMA_MISMATCH`
 *   (newer schema), and the storage and encoder errors.
 */
export async function openNamespace(ns: string, storage: StorageAdapter, encoder: Encoder, factories: IndexFactories, cache?: { nodes: number; edges: number }, language?: NamespaceLanguage, changeLanguage = false): Promise<NamespaceState> {
  let meta = await storage.loadMeta(ns);
  namespaceLanguage(language, meta, ns, changeLanguage); // a refused language changes nothing
  const version = meta[SCHEMA_META_KEY];
  // A newer (or malformed) schema version throws here; an older one is migrated whole.
  const planned = planMigrations({ nodes: [], edges: [], meta }, ns);
  if (planned.steps.length > 0 || (version !== undefined && version !== SCHEMA_VERSION)) {
    await upgradeSnapshot(ns, await storage.load(ns), storage, encoder);
    meta = await storage.loadMeta(ns);
  }
  if (meta[ENCODER_META_KEY] !== encoder.fingerprint) await reembedForeign(ns, storage, encoder, meta);
  // The stored language, else the option's (stored by its next write: write.ts `stamp`).
  const lang = namespaceLanguage(language, meta, ns, changeLanguage);
  return NamespaceState.open({
    namespace: ns,
    storage,
    factories,
    dimension: encoder.dimension,
    encoder: encoder.fingerprint,
    ...(cache !== undefined ? { cache } : {}),
    ...(lang !== undefined ? { language: lang.code, languageTag: lang.tag } : {}),
  });
}

/**
 * Finds the nodes embedded by another encoder with one streamed scan and re-embeds them in
 * batches, each one numbered commit; then records the encoder in meta.
 */
async function reembedForeign(ns: string, storage: StorageAdapter, encoder: Encoder, meta: Record<string, unknown>): Promise<void> {
  const foreign: MemoryNode[] = [];
  let any = false;
  const scan = storage.scanNodes ? storage.scanNodes(ns, REEMBED_BATCH) : (async function* () {
    yield (await storage.load(ns)).nodes;
  })();
  for await (const batch of scan) {
    for (const n of batch) {
      any = true;
      if (isForeign(n, encoder)) foreign.push(n);
    }
  }
  if (!any && Object.keys(meta).length === 0) return; // an empty namespace: nothing to record yet
  let change = nextChange(meta);
  for (let i = 0; i < foreign.length; i += REEMBED_BATCH) {
    const putNodes = await reembed(foreign.slice(i, i + REEMBED_BATCH), encoder);
    await storage.commit(ns, { putNodes, change, meta: { [GENERATION_META_KEY]: newGeneration(), [CHANGE_META_KEY]: change } });
    change++;
  }
  await storage.commit(ns, { change, meta: { [ENCODER_META_KEY]: encoder.fingerprint, [GENERATION_META_KEY]: newGeneration(), [CHANGE_META_KEY]: change } });
}
