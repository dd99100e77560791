/**
 * In-memory storage adapter (tests and ephemeral use), and the reference semantics of a
 * {@link WriteBatch} that the other adapters share: validation ({@link validateBatch}), applying a
 * batch to in-memory maps ({@link applyBatch}) and the canonical order of a loaded snapshot
 * ({@link toSnapshot}). SPEC 2, 3, 4.6.
 *
 * @module
 */
import { JevMemError, invalidInput } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { checkExistingNamespaceName, checkNamespaceName } from './names.js';
import type { Checkpoint, NamespaceCounts, NamespaceSnapshot, StorageAdapter, WriteBatch } from './storage.js';

/** One namespace held as maps (nodes and edges by id, meta by key). */
export interface NamespaceState {
  nodes: Map<string, MemoryNode>;
  edges: Map<string, MemoryEdge>;
  meta: Map<string, unknown>;
}

/** A fresh, empty {@link NamespaceState}. */
export function emptyNamespaceState(): NamespaceState {
  return { nodes: new Map(), edges: new Map(), meta: new Map() };
}

/**
 * The change log and checkpoint of one namespace, as every adapter keeps them
 * ({@link StorageAdapter.changesSince}, {@link StorageAdapter.writeCheckpoint}).
 */
export interface ChangeLog {
  /** change number → node ids put or deleted by that commit. */
  entries: Map<number, string[]>;
  /** Entries up to this change were dropped by a checkpoint (0: the log is whole). */
  floor: number;
}

/** Node ids a batch puts or deletes (the change-log entry of a numbered commit), each once. */
export function changedNodeIds(batch: WriteBatch): string[] {
  return [...new Set([...(batch.deleteNodeIds ?? []), ...(batch.putNodes ?? []).map((n) => n.id)])];
}

/**
 * The answer of {@link StorageAdapter.changesSince} from a log: ids of entries after `after`, or
 * undefined when entries after `after` may have been dropped (`after` below the floor).
 */
export function changesAfter(log: ChangeLog, after: number): string[] | undefined {
  if (after < log.floor) return undefined;
  const ids = new Set<string>();
  for (const [change, list] of log.entries) if (change > after) for (const id of list) ids.add(id);
  return [...ids];
}

/** Counts of a namespace held as maps. */
export function countsOf(state: NamespaceState | undefined): NamespaceCounts {
  const edgesByView: NamespaceCounts['edgesByView'] = {};
  for (const e of state?.edges.values() ?? []) edgesByView[e.view] = (edgesByView[e.view] ?? 0) + 1;
  return { nodes: state?.nodes.size ?? 0, edges: state?.edges.size ?? 0, edgesByView };
}

function checkArray(batch: WriteBatch, key: keyof WriteBatch): unknown[] {
  const value = batch[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidInput(`batch.${key}`, `expected an array or undefined, got ${typeof value}`);
  return value;
}

function checkId(field: string, id: unknown): void {
  if (typeof id !== 'string' || id.length === 0) {
    throw invalidInput(field, `expected a non-empty string id, got ${JSON.stringify(id)}`);
  }
}

/**
 * Checks the shape of a batch before anything is written: arrays where arrays are expected,
 * non-empty string ids, every node and edge in `namespace`, `meta` a plain object. `namespace`
 * must be a non-empty string here; each store applies the rule of names.ts
 * ({@link checkNamespaceName}) when a batch would create the namespace.
 *
 * @throws JevMemError `INVALID_INPUT` naming the field at fault (`batch.putNodes[2].namespace`).
 */
export function validateBatch(namespace: string, batch: WriteBatch): void {
  checkExistingNamespaceName(namespace);
  if (typeof batch !== 'object' || batch === null) {
    throw invalidInput('batch', `expected a WriteBatch object, got ${batch === null ? 'null' : typeof batch}`);
  }
  for (const key of ['putNodes', 'putEdges'] as const) {
    checkArray(batch, key).forEach((item, i) => {
      const field = `batch.${key}[${i}]`;
      if (typeof item !== 'object' || item === null) throw invalidInput(field, `expected an object, got ${typeof item}`);
      const record = item as { id?: unknown; namespace?: unknown };
      checkId(`${field}.id`, record.id);
      if (record.namespace !== namespace) {
        throw invalidInput(
          `${field}.namespace`,
          `expected ${JSON.stringify(namespace)} (the namespace of the commit), got ${JSON.stringify(record.namespace)}`,
        );
      }
    });
  }
  for (const key of ['deleteNodeIds', 'deleteEdgeIds'] as const) {
    checkArray(batch, key).forEach((id, i) => checkId(`batch.${key}[${i}]`, id));
  }
  if (batch.checkpoint !== undefined && batch.checkpoint !== null) validateCheckpoint(batch.checkpoint, 'batch.checkpoint');
  if (batch.meta !== undefined && (typeof batch.meta !== 'object' || batch.meta === null || Array.isArray(batch.meta))) {
    throw invalidInput('batch.meta', `expected a plain object or undefined, got ${Array.isArray(batch.meta) ? 'an array' : typeof batch.meta}`);
  }
}

/**
 * Checks the shape of a checkpoint before anything is written: `change` a finite number ≥ 0,
 * `format` a string, every part a Uint8Array.
 * @throws JevMemError `INVALID_INPUT` naming the field at fault (`checkpoint.parts.dir.vec`).
 */
export function validateCheckpoint(checkpoint: Checkpoint, field = 'checkpoint'): void {
  if (typeof checkpoint !== 'object' || checkpoint === null) throw invalidInput(field, `expected an object, got ${String(checkpoint)}`);
  if (typeof checkpoint.change !== 'number' || !Number.isFinite(checkpoint.change) || checkpoint.change < 0) {
    throw invalidInput(`${field}.change`, `expected a finite number ≥ 0, got ${String(checkpoint.change)}`);
  }
  if (typeof checkpoint.format !== 'string') throw invalidInput(`${field}.format`, `expected a string, got ${typeof checkpoint.format}`);
  if (typeof checkpoint.parts !== 'object' || checkpoint.parts === null) throw invalidInput(`${field}.parts`, `expected an object, got ${String(checkpoint.parts)}`);
  for (const [name, part] of Object.entries(checkpoint.parts)) {
    if (!(part instanceof Uint8Array)) throw invalidInput(`${field}.parts.${name}`, 'expected a Uint8Array');
  }
}

/**
 * Applies a validated batch to `state` in place: deletes first, then puts (a put replaces the
 * record with the same id), then meta (`null` removes a key, `undefined` values are ignored).
 * Plain Map operations only: it cannot fail half-way. The caller owns copying.
 */
export function applyBatch(state: NamespaceState, batch: WriteBatch): void {
  for (const id of batch.deleteNodeIds ?? []) state.nodes.delete(id);
  for (const id of batch.deleteEdgeIds ?? []) state.edges.delete(id);
  for (const node of batch.putNodes ?? []) state.nodes.set(node.id, node);
  for (const edge of batch.putEdges ?? []) state.edges.set(edge.id, edge);
  for (const [key, value] of Object.entries(batch.meta ?? {})) {
    if (value === null) state.meta.delete(key);
    else if (value !== undefined) state.meta.set(key, value);
  }
}

/** True when the namespace holds no node, edge or meta key. */
export function isEmptyState(state: NamespaceState): boolean {
  return state.nodes.size === 0 && state.edges.size === 0 && state.meta.size === 0;
}

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Orders records the way every adapter's `load` returns them: nodes by `seq` then id, edges by
 * id, meta keys sorted. `copy` maps each value (e.g. `structuredClone`); identity by default.
 */
export function toSnapshot(state: NamespaceState, copy: <T>(value: T) => T = (v) => v): NamespaceSnapshot {
  const nodes = [...state.nodes.values()].sort((a, b) => a.seq - b.seq || byId(a, b)).map((n) => copy(n));
  const edges = [...state.edges.values()].sort(byId).map((e) => copy(e));
  const meta: Record<string, unknown> = {};
  for (const key of [...state.meta.keys()].sort()) meta[key] = copy(state.meta.get(key));
  return { nodes, edges, meta };
}

/**
 * A deep copy of a batch (`structuredClone`), which every store makes or tries before writing.
 * @throws JevMemError `STORAGE_FAILED` when a value cannot be cloned (a function, a symbol).
 */
export function cloneBatch(batch: WriteBatch): WriteBatch {
  try {
    return structuredClone(batch);
  } catch (cause) {
    throw new JevMemError('STORAGE_FAILED', `the batch cannot be stored: ${String(cause)} (values must be JSON-safe)`, { cause });
  }
}

/**
 * Creates an in-memory storage adapter (`kind: 'memory'`). Nothing survives the process.
 * Commits are atomic: the batch is validated and deep-copied (`structuredClone`) before the first
 * change, and the changes themselves are Map operations that cannot fail; loads return deep
 * copies, so callers can never change stored data by mutating what they passed in or got back.
 * `loadMeta` returns a deep copy of one namespace's meta.
 * `namespaces()` lists the namespaces that hold at least one node, edge or meta key.
 * `sizeBytes` is the UTF-8 length of the namespace's JSON (an estimate of its stored size).
 *
 * Errors: `commit` throws JevMemError `INVALID_INPUT` on a malformed batch and `STORAGE_FAILED`
 * when a value cannot be cloned (a function, a symbol); every method throws `CLOSED` after
 * `close()`.
 */
export function createMemoryStorage(): StorageAdapter {
  const spaces = new Map<string, NamespaceState>();
  const logs = new Map<string, ChangeLog>();
  const checkpoints = new Map<string, Checkpoint>();
  let closed = false;
  const logOf = (namespace: string): ChangeLog => {
    let log = logs.get(namespace);
    if (log === undefined) {
      log = { entries: new Map(), floor: 0 };
      logs.set(namespace, log);
    }
    return log;
  };
  /** Keeps `checkpoint` (already a copy) and drops the log entries it covers. */
  const setCheckpoint = (namespace: string, checkpoint: Checkpoint): void => {
    checkpoints.set(namespace, checkpoint);
    const log = logOf(namespace);
    for (const change of [...log.entries.keys()]) if (change <= checkpoint.change) log.entries.delete(change);
    log.floor = Math.max(log.floor, checkpoint.change);
  };
  const chunks = async function* <T>(items: T[], size: number): AsyncIterable<T[]> {
    const step = Math.max(1, Math.floor(size));
    for (let i = 0; i < items.length; i += step) yield items.slice(i, i + step).map((x) => structuredClone(x));
  };
  const live = (): void => {
    if (closed) throw new JevMemError('CLOSED', 'the memory storage adapter was used after close()');
  };
  return {
    kind: 'memory',
    async load(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      const state = spaces.get(namespace);
      return state === undefined ? { nodes: [], edges: [], meta: {} } : toSnapshot(state, structuredClone);
    },
    async commit(namespace, batch) {
      live();
      validateBatch(namespace, batch);
      // A new namespace takes a name only under the rule of names.ts; one already held is kept.
      if (!spaces.has(namespace)) checkNamespaceName(namespace);
      const copy = cloneBatch(batch);
      const state = spaces.get(namespace) ?? emptyNamespaceState();
      applyBatch(state, copy);
      if (isEmptyState(state)) spaces.delete(namespace);
      else spaces.set(namespace, state);
      if (batch.change !== undefined) logOf(namespace).entries.set(batch.change, changedNodeIds(batch));
      if (copy.checkpoint === null) checkpoints.delete(namespace);
      else if (copy.checkpoint !== undefined) setCheckpoint(namespace, copy.checkpoint);
    },
    async getNodes(namespace, ids) {
      live();
      checkExistingNamespaceName(namespace);
      const state = spaces.get(namespace);
      const out: MemoryNode[] = [];
      for (const id of ids) {
        const n = state?.nodes.get(id);
        if (n !== undefined) out.push(structuredClone(n));
      }
      return out;
    },
    async getEdges(namespace, nodeIds, filter) {
      live();
      checkExistingNamespaceName(namespace);
      const state = spaces.get(namespace);
      if (state === undefined || nodeIds.length === 0) return [];
      const want = new Set(nodeIds);
      const subtype = filter?.subtype;
      return [...state.edges.values()].filter((e) => (want.has(e.from) || want.has(e.to)) && (subtype === undefined || e.subtype === subtype)).map((e) => structuredClone(e));
    },
    scanNodes(namespace, batchSize) {
      live();
      checkExistingNamespaceName(namespace);
      return chunks([...(spaces.get(namespace)?.nodes.values() ?? [])], batchSize);
    },
    scanEdges(namespace, batchSize) {
      live();
      checkExistingNamespaceName(namespace);
      return chunks([...(spaces.get(namespace)?.edges.values() ?? [])], batchSize);
    },
    async counts(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      return countsOf(spaces.get(namespace));
    },
    async readCheckpoint(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      const cp = checkpoints.get(namespace);
      return cp === undefined ? undefined : structuredClone(cp);
    },
    async writeCheckpoint(namespace, checkpoint) {
      live();
      checkExistingNamespaceName(namespace);
      setCheckpoint(namespace, structuredClone(checkpoint));
    },
    async dropCheckpoint(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      checkpoints.delete(namespace);
    },
    async changesSince(namespace, after) {
      live();
      checkExistingNamespaceName(namespace);
      return changesAfter(logOf(namespace), after);
    },
    async loadMeta(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      const state = spaces.get(namespace);
      return state === undefined ? {} : toSnapshot({ nodes: new Map(), edges: new Map(), meta: state.meta }, structuredClone).meta;
    },
    async namespaces() {
      live();
      return [...spaces.keys()].sort();
    },
    async dropNamespace(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      spaces.delete(namespace);
      logs.delete(namespace);
      checkpoints.delete(namespace);
    },
    async sizeBytes(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      const state = spaces.get(namespace);
      if (state === undefined) return 0;
      return new TextEncoder().encode(JSON.stringify(toSnapshot(state))).length;
    },
    /** Nothing is stored outside this process's memory, so nothing can be damaged: always no damage. */
    async damaged(namespace) {
      live();
      checkExistingNamespaceName(namespace);
      return { ids: [], checkpoint: false };
    },
    /** The memory keeps its own lexical index for this store (none kept here). */
    lexicalIndex: () => undefined,
    async close() {
      closed = true;
      spaces.clear();
      logs.clear();
      checkpoints.clear();
    },
  };
}
