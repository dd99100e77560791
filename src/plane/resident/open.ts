/**
 * Opening a namespace's resident part (issue 13, issue 22): restore it from the store's
 * checkpoint and replay the commits logged after it (the change log), or, without a usable
 * checkpoint, rebuild it from one streamed scan of the nodes. A damaged checkpoint is derived
 * data: it is rebuilt from the rows and reported (`checkpointDamaged`). Never loads edges, or
 * node bodies beyond what a replay needs.
 *
 * @module
 */
import { isJevMemError } from '../../errors.js';
import type { MemoryNode } from '../../types.js';
import type { LexicalIndex, VectorIndex } from '../indexes/indexes.js';
import { loadLexicalIndex } from '../indexes/lexical.js';
import { CHANGE_META_KEY, type Checkpoint } from '../store/storage.js';
import { BOOK_DEDUP_PART, EXACT_VECTORS_PART, bookOf, checkCheckpoint, lexicalTextOf, liveCount } from './checkpoint-format.js';
import { contentHash } from './node-directory.js';
import { LOAD_BATCH, type OpenOptions, type OpenReport } from './options.js';
import { ResidentCore } from './resident-core.js';
import { exactOpenThreshold, upgradeThreshold, vectorKindOf } from './vector-slot.js';
import { gridRowIdsOf, gridRowsOf } from '../indexes/vector-rows.js';

/** An opened resident part, and what the namespace state built on it starts with. */
export interface OpenedResident {
  core: ResidentCore;
  /** The namespace's meta as loaded. */
  meta: Record<string, unknown>;
  report: OpenReport;
  /** Node ids changed since the checkpoint (replayed; on a rescan, every node of the namespace, so a checkpoint is written). */
  changedSinceCheckpoint: number;
}

/**
 * Opens the resident part of `opts.namespace`.
 * @throws JevMemError `STORAGE_FAILED` and the adapter's errors (a `STORE_DAMAGED` checkpoint is rebuilt, not thrown).
 */
export async function openResident(opts: OpenOptions): Promise<OpenedResident> {
  const started = Date.now();
  const { namespace, storage, factories, dimension } = opts;
  const meta = await storage.loadMeta(namespace);
  const change = typeof meta[CHANGE_META_KEY] === 'number' ? (meta[CHANGE_META_KEY] as number) : 0;
  let reason = 'the store keeps no checkpoint';
  let checkpointDamaged = false;
  let cp: Checkpoint | undefined;
  try {
    cp = storage.readCheckpoint ? await storage.readCheckpoint(namespace) : undefined;
  } catch (e) {
    // A damaged checkpoint is derived data: rebuilt from the rows below (issue 22).
    if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
    reason = `the checkpoint is damaged (${e.message})`;
    checkpointDamaged = true;
  }
  if (cp !== undefined) {
    const restored = await fromCheckpoint(opts, cp, change).catch((e: unknown) => {
      reason = `the checkpoint could not be restored (${e instanceof Error ? e.message : String(e)})`;
      checkpointDamaged = true;
      return undefined;
    });
    if (typeof restored === 'string') reason = restored;
    else if (restored !== undefined) return { ...restored, meta: { ...meta }, report: { ...restored.report, ms: Date.now() - started } };
  }
  const core = new ResidentCore(dimension, storage.lexicalIndex(namespace, opts.language) ?? factories.lexical({ language: opts.language }), await factories.vector(dimension), factories);
  await rebuild(core, opts);
  const report: OpenReport = { from: core.dir.size === 0 ? 'empty' : 'scan', replayed: 0, reason, ms: Date.now() - started };
  if (checkpointDamaged) report.checkpointDamaged = true;
  // A namespace rebuilt by a scan counts as changed since its checkpoint, whether the store had
  // none (after an import, a repair, a maintain rewrite, a delete that dropped it) or an unusable
  // one (another format, e.g. one written before issue 22 that may hold an erased memory's vector
  // or names): the memory writes one at its next checkpoint (at the latest on close), so the next
  // open restores it instead of rescanning again (issue 22: 14.5 s instead of about 1 s at 50k nodes).
  return { core, meta: { ...meta }, report, changedSinceCheckpoint: core.dir.size };
}

/**
 * Rebuilds the resident part from the store, adding nodes in seq order (the order they were
 * written), so the rebuilt indexes equal the ones the writes built, ties included. One scan keeps
 * (id, seq) only, and the bodies are read again in seq order, {@link LOAD_BATCH} at a time (a
 * rebuild is the rare path: a first open after an upgrade, or a lost checkpoint).
 */
async function rebuild(core: ResidentCore, { namespace, storage }: OpenOptions): Promise<void> {
  const order: Array<{ id: string; seq: number }> = [];
  for await (const batch of storage.scanNodes(namespace, LOAD_BATCH)) for (const n of batch) order.push({ id: n.id, seq: n.seq });
  order.sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 0; i < order.length; i += LOAD_BATCH) {
    const ids = order.slice(i, i + LOAD_BATCH).map((x) => x.id);
    const byId = new Map((await storage.getNodes(namespace, ids)).map((n) => [n.id, n]));
    for (const id of ids) {
      const n = byId.get(id);
      if (n !== undefined) core.add(n);
    }
  }
}

/**
 * Restores a checkpoint and replays the ids the change log names after it; a string says why it
 * cannot be used (the caller rescans).
 * @throws when a part cannot be decoded (the caller counts the checkpoint as damaged and rescans).
 */
async function fromCheckpoint(opts: OpenOptions, cp: Checkpoint, change: number): Promise<Omit<OpenedResident, 'meta'> | string> {
  const checked = checkCheckpoint(cp, { change, dimension: opts.dimension, ...(opts.encoder !== undefined ? { encoder: opts.encoder } : {}) });
  if ('reason' in checked) return checked.reason;
  const { header, previous } = checked;
  const changed = cp.change === change ? [] : opts.storage.changesSince ? await opts.storage.changesSince(opts.namespace, cp.change) : undefined;
  if (changed === undefined) return `the change log does not reach back to change ${cp.change}`;
  // A store-kept lexical index (storage.lexicalIndex) is current as of the store: nothing to restore.
  const kept = opts.storage.lexicalIndex(opts.namespace, opts.language);
  const lexicalText = lexicalTextOf(cp);
  if (kept === undefined && lexicalText === undefined) return 'the checkpoint has no lexical index (written with a store-kept one)';
  // An index of older terms (another LEXICAL_VERSION: a store written by an older build) or of
  // another language is rebuilt from the nodes with the rest: the rescan also reads each node's
  // language anew (issues 22, 24). The next checkpoint replaces this one, old terms and all.
  let lexical: LexicalIndex;
  try {
    lexical = kept ?? loadLexicalIndex(lexicalText as string);
  } catch (e) {
    if (isJevMemError(e, 'SCHEMA_MISMATCH')) return `the checkpoint's lexical index is of another version (${e.message})`;
    throw e;
  }
  if (kept === undefined && lexical.language !== opts.language) {
    return `the checkpoint's lexical index reads short texts in ${JSON.stringify(lexical.language ?? null)}, the namespace's language is ${JSON.stringify(opts.language ?? null)}`;
  }
  let vector: VectorIndex | undefined;
  const bytes = cp.parts['vectors'];
  // Below `exactOpenBelow` the namespace opens on the exact index (restored from an @2
  // checkpoint's `vectors.exact`, else built from the directory's int8 rows) rather than on the
  // approximate one (a graph), which the first write restores.
  const up = opts.factories.upgrade;
  const live = liveCount(header);
  const exact = up !== undefined && live < exactOpenThreshold(up, opts.dimension) && bytes !== undefined && vectorKindOf(bytes) !== 'flat';
  const source = exact ? cp.parts[EXACT_VECTORS_PART] : bytes;
  if (source !== undefined && opts.factories.restoreVector !== undefined && (!exact || vectorKindOf(source) === 'flat')) {
    vector = await opts.factories.restoreVector(source).catch(() => undefined);
    if (vector !== undefined && vector.dimension !== opts.dimension) {
      vector.dispose();
      vector = undefined;
    }
  }
  const restored = vector !== undefined;
  const core = new ResidentCore(opts.dimension, lexical, vector ?? (await opts.factories.vector(opts.dimension)), opts.factories);
  // @3: the directory's rows are those of the part `vecRows` names (each vector stored once).
  const rowPart = header.vecRows === undefined ? undefined : cp.parts[header.vecRows];
  if (header.vecRows !== undefined && rowPart === undefined) return `the checkpoint lacks the part ${JSON.stringify(header.vecRows)} its directory's rows are in`;
  // The ids of those rows: from the index restored from that part, else decoded from it.
  const fromIndex = vector !== undefined && source === rowPart && vector.gridRowId !== undefined;
  const rowIds = rowPart === undefined || fromIndex ? undefined : gridRowIdsOf(rowPart);
  const rows = rowPart === undefined ? undefined : gridRowsOf(rowPart);
  const idAt = fromIndex ? (r: number) => (vector as VectorIndex).gridRowId?.(r) : (r: number) => rowIds?.[r];
  core.dir.restore(header.directory, cp.parts, rows === undefined ? undefined : { rows, idAt });
  core.book.restore(bookOf(cp), cp.parts[BOOK_DEDUP_PART]);
  if (!restored) core.indexDirectoryVectors();
  if (exact && up !== undefined && bytes !== undefined && opts.factories.restoreVector !== undefined && live >= upgradeThreshold(up, opts.dimension)) {
    core.vectors.defer({ bytes, restore: opts.factories.restoreVector.bind(opts.factories), touched: new Set(changed) });
  }
  // The changed nodes are applied in seq order (the order they were written), as a rescan would.
  const found = new Map<string, MemoryNode>();
  for (let i = 0; i < changed.length; i += LOAD_BATCH) {
    for (const n of await opts.storage.getNodes(opts.namespace, changed.slice(i, i + LOAD_BATCH))) found.set(n.id, n);
  }
  const inOrder = [...changed].sort((a, b) => (found.get(a)?.seq ?? -1) - (found.get(b)?.seq ?? -1));
  for (const id of inOrder) {
    const n = found.get(id);
    if (n === undefined) {
      if (core.dir.has(id)) return `node ${JSON.stringify(id)} was deleted after the checkpoint`;
      continue;
    }
    if (!core.dir.has(id)) core.add(n);
    else if (core.dir.hashOf(id) !== contentHash(n)) return `node ${JSON.stringify(id)} changed its content after the checkpoint`;
    else core.replaySameContent(n);
  }
  // An @2 checkpoint counts as stale, so the memory replaces it by an @3 one at its next checkpoint.
  return { core, report: { from: 'checkpoint', replayed: changed.length, ms: 0 }, changedSinceCheckpoint: previous ? Math.max(1, changed.length) : changed.length };
}
