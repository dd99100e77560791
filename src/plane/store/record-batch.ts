/**
 * The semantics of a {@link WriteBatch} that every store shares (SPEC 2, 3, 4.6): validation
 * ({@link validateBatch}, {@link validateCheckpoint}), applying a batch to in-memory maps
 * ({@link applyBatch}), the canonical order of a loaded snapshot ({@link toSnapshot}), the
 * change-log entry of a batch ({@link changedNodeIds}) and the deep copy a store makes
 * ({@link cloneBatch}).
 *
 * @module
 */
import { JevMemError, invalidInput } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { checkExistingNamespaceName } from './names.js';
import type { Checkpoint, NamespaceSnapshot, WriteBatch } from './storage.js';

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

/** Node ids a batch puts or deletes (the change-log entry of a numbered commit), each once. */
export function changedNodeIds(batch: WriteBatch): string[] {
  return [...new Set([...(batch.deleteNodeIds ?? []), ...(batch.putNodes ?? []).map((n) => n.id)])];
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
 * must be a non-empty string here; `change`, when given, a finite number. Each store applies the rule of names.ts
 * (`checkNamespaceName`) when a batch would create the namespace.
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
  if (batch.change !== undefined && (typeof batch.change !== 'number' || !Number.isFinite(batch.change))) {
    throw invalidInput('batch.change', `expected a finite number, got ${String(batch.change)}`);
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

