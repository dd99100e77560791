/**
 * Export and import of a namespace (the file format and its checks are plane/store/export.ts): an
 * export is taken through the namespace's state, so the file holds migrated data and this
 * encoder's embeddings; an import is checked, migrated, re-embedded when asked, indexed, and
 * committed in one atomic batch into an empty namespace.
 *
 * @module
 */
import type { Encoder } from '../encoder/encoder.js';
import { JevMemError, describeValue, invalidInput, isJevMemError, throwIfAborted } from '../errors.js';
import { checkExport, EXPORT_FORMAT, EXPORT_VERSION, type MemoryExport } from '../plane/store/export.js';
import { NamespaceState, type IndexFactories } from '../plane/resident/namespace.js';
import { applyToSnapshot, planMigrations, SCHEMA_META_KEY, SCHEMA_VERSION } from '../plane/store/schema.js';
import { CHANGE_META_KEY, type NamespaceSnapshot, type StorageAdapter } from '../plane/store/storage.js';
import { checkNamespaceName } from '../plane/store/names.js';
import { quoteVisible } from '../util/invisible.js';
import { GENERATION_META_KEY, type NamespaceCaches } from './concurrency.js';
import { ENCODER_META_KEY, isForeign, reembed } from './migrate.js';
import { editedNodes, rederive, textHashesOf } from './text-edits.js';
import { EXPIRY_META_KEY } from './expiry-meta.js';
import type { ImportOptions, ImportProgress } from './types.js';
import type { NodePredicate } from '../read/filter.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { isExpired } from './list.js';
import { toObservation } from './input.js';
import { checkObservation } from './validate.js';
import { planRelink } from './relink.js';
import { repairImport, type ImportRepairs } from './import-repair.js';
import { MAINTENANCE_PENDING_META_KEY, type WritePath } from './write.js';

/** What export and import need from the memory. */
export interface TransferDeps {
  storage: StorageAdapter;
  caches: NamespaceCaches;
  writes: Pick<WritePath, 'stamp' | 'checkpoint'>;
  encoder: Encoder;
  /** Model id of the configured System One (recorded in the export). */
  systemOneModel: string;
  factories: IndexFactories;
  now: () => Date;
  /** Longest text `add` accepts (`parameters.maxTextChars`): an imported text is held to it too. */
  maxTextChars: number;
}

/** Result of an import. */
export interface ImportResult {
  /** Nodes written. */
  nodes: number;
  /** Edges written. */
  edges: number;
  /** The namespace written. */
  namespace: string;
  /**
   * Nodes whose text was edited in the file after the export (it differs from the export's
   * `textHashes`): their embedding, keywords, entities and time references were derived again
   * from the new text (memory/text-edits.ts). Present only when there are any (an export
   * without `textHashes`, written before that field, cannot tell).
   */
  textEdited?: number;
  /**
   * Nodes given a new `seq` because another node of the file had theirs (memory/import-repair.ts:
   * the order of the file is kept; paging by `list` needs unique seqs). Present only when any.
   */
  seqRenumbered?: number;
  /**
   * Of {@link ImportResult.seqRenumbered}, the nodes whose `seq` another node of the file had
   * (the rest moved up to make room for them). Present only when any.
   */
  seqShared?: number;
  /**
   * Nodes whose `supersededBy` named a node the file does not hold (a scoped export may leave the
   * newer version out): those ids were dropped, and a `superseded` node left without a newer
   * version was imported `active`, as deleting that version would leave it. Present only when any.
   */
  successorsDropped?: number;
  /**
   * Edges of the file left out because their `from` or `to` is not a node of the file (a node the
   * exporting store held damaged, or an edited file). Present only when any.
   */
  edgesDropped?: number;
}

/**
 * The nodes and edges of a namespace as they are once its expired nodes (`metadata.expiresAt` at
 * or before `nowMs`) are erased: each one left out with its edges, and the supersession chains
 * through it relinked as a delete relinks them (relink.ts), so the file holds what get, list and
 * recall return, and the chains they show.
 */
export function withoutExpired(ns: string, nodes: readonly MemoryNode[], edges: readonly MemoryEdge[], nowMs: number, nowIso: string): { nodes: MemoryNode[]; edges: MemoryEdge[] } {
  const due = nodes.filter((n) => isExpired(n, nowMs)).sort((a, b) => a.seq - b.seq);
  if (due.length === 0) return { nodes: [...nodes], edges: [...edges] };
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edgeById = new Map(edges.map((e) => [e.id, e]));
  for (const d of due) {
    const removed = byId.get(d.id);
    byId.delete(d.id);
    const removedEdges = [...edgeById.values()].filter((e) => e.from === d.id || e.to === d.id);
    for (const e of removedEdges) edgeById.delete(e.id);
    const predecessors = [...byId.values()].filter((n) => n.supersededBy.includes(d.id));
    if (predecessors.length === 0) continue;
    const plan = planRelink({ removed, removedId: d.id, removedEdges, predecessors, exists: (x) => byId.has(x), storedEdge: (id) => edgeById.get(id), namespace: ns, nowIso });
    for (const n of plan.nodes) byId.set(n.id, n);
    for (const e of plan.edges) edgeById.set(e.id, e);
  }
  return { nodes: [...byId.values()], edges: [...edgeById.values()] };
}

/**
 * One versioned export of namespace `ns` (plane/store/export.ts). Run it inside `caches.exclusive`.
 * Damaged records (issue 22) are left out and their ids listed in `damaged`, and the edges to a
 * node left out so are left out too and counted in `edgesLeftOut`. Expired memories
 * (due on the memory's clock but not yet erased: get, list and recall hide them) are left out as
 * erasure would leave them ({@link withoutExpired}).
 * @param keep - When given (a scope and/or filter), only the nodes it keeps, the edges between
 *   two of them, and the pending-maintenance ids among them are exported.
 * @param signal - The caller's signal, checked before each step (open, load, damage list).
 * @throws JevMemError `ABORTED` when `signal` fired; the storage errors.
 */
export async function exportNamespace(deps: TransferDeps, ns: string, keep?: NodePredicate, signal?: AbortSignal): Promise<MemoryExport> {
  const { storage, caches, encoder } = deps;
  throwIfAborted(signal);
  // Through the state, so the file holds migrated data and this encoder's embeddings.
  await caches.fresh(ns, true);
  throwIfAborted(signal);
  // The kept edge counter around the load (issue 22): edges it holds that the load did not read
  // (a flipped bit in a page of the key index hides an adjacency record) are counted, unless
  // another writer changed the counter meanwhile.
  const edgesBefore = (await storage.counts(ns)).edges;
  const snap = await storage.load(ns);
  const edgesAfter = (await storage.counts(ns)).edges;
  const edgesUnread = edgesBefore === edgesAfter ? Math.max(0, edgesAfter - snap.edges.length) : 0;
  throwIfAborted(signal);
  const now = deps.now();
  let { nodes, edges } = withoutExpired(ns, snap.nodes, snap.edges, now.getTime(), now.toISOString());
  const meta: Record<string, unknown> = {};
  // The expiry bound is derived (expiry-meta.ts): the import computes it from the nodes.
  for (const [k, v] of Object.entries(snap.meta)) if (k !== GENERATION_META_KEY && k !== CHANGE_META_KEY && k !== ENCODER_META_KEY && k !== EXPIRY_META_KEY) meta[k] = v;
  // The load left damaged records out; they are named instead of failing the export (issue 22).
  const { ids: damaged } = await storage.damaged(ns);
  // An edge joins two nodes of the file: one whose other end the load left out (a damaged node,
  // which repair drops with its edges; issue 22) is left out and counted. The edges `keep` leaves
  // out with the memories it does not select are not counted.
  const readable = new Set(nodes.map((n) => n.id));
  const edgesLeftOut = edges.filter((e) => !readable.has(e.from) || !readable.has(e.to)).length;
  if (keep !== undefined) nodes = nodes.filter(keep);
  if (keep !== undefined || nodes.length < snap.nodes.length || damaged.length > 0 || edgesLeftOut > 0) {
    const ids = new Set(nodes.map((n) => n.id));
    edges = edges.filter((e) => ids.has(e.from) && ids.has(e.to));
    // Other memories' ids leave the meta too (the maintenance list names nodes).
    const pending = meta[MAINTENANCE_PENDING_META_KEY];
    if (Array.isArray(pending)) meta[MAINTENANCE_PENDING_META_KEY] = pending.filter((x) => typeof x === 'string' && ids.has(x));
  }
  return {
    ...(damaged.length > 0 ? { damaged } : {}),
    ...(edgesLeftOut > 0 ? { edgesLeftOut } : {}),
    ...(edgesUnread > 0 ? { edgesUnread } : {}),
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    namespace: ns,
    exportedAt: now.toISOString(),
    encoder: encoder.fingerprint,
    systemOne: deps.systemOneModel,
    nodes: nodes.sort((a, b) => a.seq - b.seq),
    edges,
    meta,
    textHashes: textHashesOf(nodes),
  };
}

/** The namespace an export names, when the namespace rule accepts it (an older store's export may name one it refuses). */
function fileNamespace(name: unknown): string {
  try {
    return checkNamespaceName(name, 'export.namespace');
  } catch (e) {
    if (!isJevMemError(e)) throw e;
    throw new JevMemError('INVALID_INPUT', `${e.message}; import it under a valid name with options.namespace (the CLI's --namespace)`, { field: 'export.namespace' });
  }
}

/**
 * Imports an export into an empty namespace in one atomic commit (see `Memory.import`). The file
 * is checked and its encoder compared before any lock is taken; the rest runs under the
 * namespace's write lock. Nodes whose text was edited in the file since the export (their
 * `textHashes` entry differs) get their embedding and text features derived again, without
 * `reembed` (memory/text-edits.ts); `textEdited` counts them. Repeated seqs, `supersededBy` ids
 * and edge ends naming no node of the file are rebuilt before the lock (memory/import-repair.ts)
 * and counted (`seqRenumbered`, `successorsDropped`, `edgesDropped`).
 * @throws JevMemError `INVALID_INPUT` (bad file; namespace not empty; the file cannot be
 *   indexed; `textHashes` not an object of strings), `SCHEMA_MISMATCH`, `ENCODER_MISMATCH`, `STORAGE_FAILED` / `QUOTA_EXCEEDED`, `ABORTED`.
 */
export async function importNamespace(deps: TransferDeps, data: unknown, o: ImportOptions | undefined): Promise<ImportResult> {
  const { storage, caches, encoder } = deps;
  const started = performance.now();
  if (o?.onProgress !== undefined && typeof o.onProgress !== 'function') throw new JevMemError('INVALID_OPTION', `options.onProgress must be a function, got ${describeValue(o.onProgress)}`, { field: 'options.onProgress' });
  const file = checkExport(data);
  /** Tells `onProgress` that `phase` begins (a callback that throws ends the call: ABORTED). */
  const step = (phase: ImportProgress['phase']): void => {
    if (o?.onProgress === undefined) return;
    try {
      o.onProgress({ phase, nodes: file.nodes.length, edges: file.edges.length, elapsedMs: performance.now() - started });
    } catch (e) {
      throw new JevMemError('ABORTED', `options.onProgress threw (${(e as Error)?.message ?? String(e)}); nothing was imported`, { field: 'options.onProgress', cause: e });
    }
  };
  step('checking');
  // Every record meets add's rules (one validator), or the whole file is refused before any write.
  file.nodes.forEach((n, i) => checkImportedNode(n, `export.nodes[${i}]`, deps.maxTextChars));
  // What holds across records (unique seqs, supersession and edge ends inside the file) is
  // rebuilt before any write and counted in the result (import-repair.ts).
  const repaired = repairImport(file.nodes, file.edges);
  const notes: Partial<ImportResult> = {};
  for (const [k, v] of Object.entries(repaired.repairs) as Array<[keyof ImportRepairs, number]>) if (v > 0) notes[k] = v;
  const ns = o?.namespace !== undefined ? checkNamespaceName(o.namespace, 'options.namespace') : fileNamespace(file.namespace);
  // The file's records as a snapshot of the target namespace, brought to this build's schema.
  const asStored: NamespaceSnapshot = {
    nodes: repaired.nodes.map((n) => ({ ...n, namespace: ns })),
    edges: repaired.edges.map((e) => ({ ...e, namespace: ns })),
    meta: { ...(file.meta ?? {}) },
  };
  const migrated = planMigrations(asStored, ns).snapshot;
  const foreign = migrated.nodes.filter((n) => isForeign(n, encoder));
  // Texts edited in the file since the export: derived again below, whatever `reembed` says.
  const edited = editedNodes(migrated.nodes, file.textHashes);
  if (foreign.length > 0 && o?.reembed !== true) throw encoderMismatch(foreign, migrated.nodes, encoder);
  return caches.exclusive(
    ns,
    async () => {
      const state = await caches.fresh(ns, true);
      if (state.size > 0) throw invalidInput('options.namespace', `namespace ${quoteVisible(ns)} is not empty; import into an empty namespace or forget it first`);
      let nodes = migrated.nodes;
      if (foreign.length > 0 || edited.length > 0) {
        step('embedding');
        const editedIds = new Set(edited.map((n) => n.id));
        const byId = new Map((await reembed(foreign.filter((n) => !editedIds.has(n.id)), encoder, o?.signal)).map((n) => [n.id, n]));
        for (const n of await rederive(edited, migrated.nodes, encoder, o?.signal)) byId.set(n.id, n);
        nodes = nodes.map((n) => byId.get(n.id) ?? n);
      }
      throwIfAborted(o?.signal);
      const ids = new Set(nodes.map((n) => n.id));
      const edges = migrated.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
      const meta: Record<string, unknown> = { ...migrated.meta, [SCHEMA_META_KEY]: SCHEMA_VERSION };
      const pending = meta[MAINTENANCE_PENDING_META_KEY];
      if (pending !== undefined) meta[MAINTENANCE_PENDING_META_KEY] = Array.isArray(pending) ? pending.filter((x) => typeof x === 'string' && ids.has(x)) : null;
      // The caches are built before the commit, so a file the indexes cannot hold fails with
      // nothing written; then one atomic commit: the namespace gets the whole file or nothing.
      const batch = deps.writes.stamp(state, { putNodes: nodes, putEdges: edges, meta });
      step('indexing');
      let built: NamespaceState;
      try {
        built = await NamespaceState.fromSnapshot(ns, applyToSnapshot({ nodes: [], edges: [], meta: state.meta }, batch), deps.factories, encoder.dimension);
      } catch (e) {
        if (isJevMemError(e)) throw e;
        throw invalidInput('export', `the file cannot be indexed: ${(e as Error)?.message ?? String(e)}`);
      }
      built.dispose(); // it read the file, not the store: the memory reopens from the store
      throwIfAborted(o?.signal); // the last point where nothing is written
      step('committing');
      await storage.commit(ns, batch);
      step('opening');
      // The namespace is reopened by a scan of what was committed, and its checkpoint written now
      // (as addMany's last chunk does), so the next open restores it instead of rescanning.
      await deps.writes.checkpoint(ns, await caches.reload(ns));
      return { nodes: nodes.length, edges: edges.length, namespace: ns, ...(edited.length > 0 ? { textEdited: edited.length } : {}), ...notes };
    },
    o?.signal,
  );
}

/** Where a field of the observation `add` takes lies in a stored node (the provenance's). */
const NODE_PATHS: Record<string, string> = { speaker: 'provenance.speaker', source: 'provenance.source', sessionId: 'provenance.sessionId', turnId: 'provenance.turnId', metadata: 'provenance.metadata' };

/**
 * Holds one node of an export file to the input rules of `add` (issue 22: an edited file must not
 * slip past them): its text (a string with a visible character, at most `maxTextChars`), its
 * `observedAt` and `timeZone`, its provenance strings (`speaker` and `sessionId` without control
 * characters) and its metadata (JSON-safe, at most 16 KiB, the scope keys `userId` / `agentId` /
 * `role` and `expiresAt` as add checks them) — through add's own validator (memory/input.ts
 * `toObservation`, then `checkObservation`), with the error's field named as the node's
 * (`export.nodes[3].provenance.metadata`).
 * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the record and field.
 */
export function checkImportedNode(n: MemoryNode, field: string, maxTextChars: number): void {
  const p = n.provenance;
  const input: Record<string, unknown> = { text: n.text };
  if (n.observedAt !== undefined) input['observedAt'] = n.observedAt;
  if (n.timeZone !== undefined) input['timeZone'] = n.timeZone;
  for (const k of ['speaker', 'source', 'sessionId', 'turnId', 'metadata'] as const) if (p[k] !== undefined) input[k] = p[k];
  try {
    checkObservation(toObservation(input, field), field, maxTextChars);
  } catch (e) {
    if (!isJevMemError(e)) throw e;
    const at = typeof e.details.field === 'string' ? e.details.field : field;
    const key = at.startsWith(`${field}.`) ? at.slice(field.length + 1).split('.')[0] ?? '' : '';
    const path = NODE_PATHS[key];
    if (path === undefined) throw e;
    const renamed = `${field}.${path}${at.slice(field.length + 1 + key.length)}`;
    const message = e.message.startsWith(at) ? renamed + e.message.slice(at.length) : e.message;
    throw new JevMemError(e.code, message, { ...e.details, field: renamed, cause: e });
  }
}

/** At most this many ids of mismatched nodes in `details.ids`. */
const MISMATCH_IDS = 20;

/**
 * The `ENCODER_MISMATCH` of an import whose `foreign` nodes (of `nodes`, the file's, in order)
 * were embedded by another encoder, or carry a vector of another length than this encoder's (a
 * truncated or edited vector): names the first node (its id and record) and, in `details.ids`, up
 * to {@link MISMATCH_IDS} of them; `field` is `export.encoder` for another encoder,
 * `export.nodes[i].embedding.vector` for a vector of the wrong length.
 */
function encoderMismatch(foreign: readonly MemoryNode[], nodes: readonly MemoryNode[], encoder: Encoder): JevMemError {
  const first = foreign[0] as MemoryNode;
  const at = nodes.indexOf(first);
  const record = `export.nodes[${at}]`;
  const sameEncoder = first.embedding.encoder === encoder.fingerprint;
  const field = sameEncoder ? `${record}.embedding.vector` : 'export.encoder';
  const got = first.embedding.vector.length;
  const what = sameEncoder
    ? `node ${JSON.stringify(first.id)} (${field}) has a vector of ${got} numbers where its encoder ${JSON.stringify(encoder.fingerprint)} gives ${encoder.dimension} (truncated or edited)`
    : `node ${JSON.stringify(first.id)} (${record}) was embedded by ${JSON.stringify(first.embedding.encoder)} (${got} dimensions), this memory uses ${JSON.stringify(encoder.fingerprint)} (${encoder.dimension})`;
  const others = foreign.length > 1 ? `, and ${foreign.length - 1} other node(s) likewise (details.ids)` : '';
  return new JevMemError('ENCODER_MISMATCH', `${what}${others}; pass { reembed: true } (CLI: --reembed) to re-embed them from their texts`, {
    field,
    ids: foreign.slice(0, MISMATCH_IDS).map((n) => n.id),
  });
}
