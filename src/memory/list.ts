/**
 * Listing and version history (issue 23): `Memory.list` pages the stored memories of a namespace
 * in insertion order (`seq`) with an opaque cursor, `Memory.history` follows a memory's explicit
 * updates. Both read through the resident node directory (ids, sequence numbers, statuses) and the
 * storage port (`getNodes` via the namespace's node cache; edges of subtype `updates`), never the
 * whole namespace's bodies at once; neither returns embeddings.
 *
 * @module
 */
import { describeValue, invalidInput, JevMemError, throwIfAborted } from '../errors.js';
import { quoteVisible } from '../util/invisible.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { compileNodeFilter, isoMs, type NodePredicate } from '../read/filter.js';
import type { MemoryNode } from '../types.js';
import { EXPLICIT_UPDATE } from '../write/state-updates.js';
import { checkScopeValue } from './input.js';
import type { ListedMemory, ListPage, MemoryScope } from './types.js';

/** Default page size of `list`. */
export const DEFAULT_LIST_LIMIT = 50;
/** Largest page size of `list`. */
export const MAX_LIST_LIMIT = 1000;
/** Most nodes one `list` call reads (a filtered page may stop early and return its cursor). */
export const LIST_SCAN_LIMIT = 5000;
/** Most versions `history` returns (the newest ones when a chain is longer). */
export const MAX_HISTORY = 100;
/** Nodes read per batch. */
const BATCH = 256;

/** The origin of the `updates` edges `Memory.update` writes (memory/write.ts; write/state-updates.ts `EXPLICIT_UPDATE`). */
export const EXPLICIT_UPDATE_RULE = EXPLICIT_UPDATE;

/** A node without its embedding (a deep copy: callers cannot change the cache). */
export function listed(n: MemoryNode): ListedMemory {
  const { embedding: _embedding, ...rest } = n;
  return structuredClone(rest);
}

/** True when the node carries `metadata.expiresAt` at or before `nowMs` (see `MemoryScope`, `Observation.expiresAt`). */
export function isExpired(n: Pick<MemoryNode, 'provenance'>, nowMs: number): boolean {
  const at = isoMs(n.provenance.metadata?.['expiresAt']);
  return at !== undefined && at <= nowMs;
}

/**
 * Refuses a filter or scope that is given but empty (`{}`, docs/api.md): it selects every memory,
 * which a caller that built it from unset variables did not mean (every user's memories in a
 * recall, a whole namespace in a reset). Leaving the option out is the way to select everything.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
function refuseEmpty(value: unknown, field: string): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) {
    throw invalidInput(field, 'is empty ({}), which selects every memory; leave it out to select every memory on purpose');
  }
}

/**
 * The predicate of a filter and a scope together (undefined when neither is given).
 * @throws JevMemError `INVALID_INPUT` naming `field` / `scopeField` (see read/filter.ts), also
 *   for a filter or scope given but empty (`{}`).
 */
export function selection(filter: unknown, scope: unknown, field: string, scopeField: string): NodePredicate | undefined {
  refuseEmpty(filter, field);
  refuseEmpty(scope, scopeField);
  const parts: NodePredicate[] = [];
  if (filter !== undefined) parts.push(compileNodeFilter(filter, field));
  if (scope !== undefined) parts.push(compileNodeFilter(scopeFilter(scope, scopeField), scopeField));
  if (parts.length === 0) return undefined;
  return (n) => parts.every((p) => p(n));
}

/**
 * A scope as a filter: equality on each field given.
 * @throws JevMemError `INVALID_INPUT` (field `scopeField.userId`, …) on a `userId` / `agentId`
 *   that is not a non-empty string of at most 256 characters without a control character (NUL
 *   included; the write path's `checkScopeValue`), a `sessionId` that is not a non-empty string,
 *   `undefined`, and an unknown field.
 */
export function scopeFilter(scope: unknown, field: string): Record<string, string> {
  if (scope === null || typeof scope !== 'object' || Array.isArray(scope)) throw invalidInput(field, `expected { userId?, agentId?, sessionId? }, got ${describeValue(scope)}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(scope as MemoryScope)) {
    if (k !== 'userId' && k !== 'agentId' && k !== 'sessionId') throw invalidInput(`${field}.${k}`, 'unknown scope field; expected userId, agentId or sessionId');
    if (v === undefined) throw invalidInput(`${field}.${k}`, 'is undefined: leave the field out to not scope by it (an unset variable would otherwise widen the scope to every user)');
    // userId / agentId: the write path's rule (checkScopeValue), so a NUL-bearing or over-long id
    // is the caller's bug, not a silent miss. A sessionId is written by write/validate.ts
    // checkSessionId (up to 1,000 characters, no control character); stores written before that
    // rule may hold others, so a read refuses only an empty or non-string one and still matches them.
    if (k === 'sessionId') {
      if (typeof v !== 'string' || v.trim() === '') throw invalidInput(`${field}.${k}`, `expected a non-empty string, got ${describeValue(v)}`);
      out[k] = v.normalize('NFC');
    } else out[k] = checkScopeValue(v, `${field}.${k}`);
  }
  return out;
}

const CURSOR_VERSION = 1;

function toBase64Url(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): string {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** The cursor after the node with sequence number `seq` in namespace `ns`. */
export function encodeCursor(ns: string, seq: number): string {
  return toBase64Url(JSON.stringify({ v: CURSOR_VERSION, ns, seq }));
}

/**
 * The sequence number a cursor continues after.
 * @throws JevMemError `INVALID_INPUT` (field `options.cursor`).
 */
export function decodeCursor(cursor: unknown, ns: string): number {
  const bad = (why: string) => invalidInput('options.cursor', `${why}; pass the cursor of a previous list() page, or none to start at the first memory`);
  if (typeof cursor !== 'string' || cursor === '') throw bad(`expected a non-empty string, got ${describeValue(cursor)}`);
  let c: { v?: unknown; ns?: unknown; seq?: unknown };
  try {
    c = JSON.parse(fromBase64Url(cursor)) as typeof c;
  } catch {
    throw bad('is not a list cursor');
  }
  if (c === null || typeof c !== 'object' || c.v !== CURSOR_VERSION || typeof c.seq !== 'number' || !Number.isInteger(c.seq) || c.seq < 0) throw bad('is not a list cursor');
  if (c.ns !== ns) throw bad(`belongs to another namespace (${JSON.stringify(c.ns)})`);
  return c.seq;
}

/**
 * Checks `limit`: an integer in [1, {@link MAX_LIST_LIMIT}], default {@link DEFAULT_LIST_LIMIT}.
 * @throws JevMemError `INVALID_INPUT` (field `options.limit`).
 */
export function checkLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw invalidInput('options.limit', `expected an integer from 1 to ${MAX_LIST_LIMIT}, got ${describeValue(limit)}`);
  return limit;
}

/**
 * One page of `list` over a namespace's resident state (call inside `caches.reading`).
 * @param keep - The filter/scope predicate, or undefined for every memory.
 * @param nowMs - The memory's clock: expired memories are left out.
 * @param signal - The caller's signal, checked before each batch of nodes is read.
 * @throws JevMemError `ABORTED` when `signal` fired; the storage errors.
 */
export async function listPage(state: NamespaceState, ns: string, afterSeq: number, limit: number, keep: NodePredicate | undefined, nowMs: number, signal?: AbortSignal): Promise<ListPage> {
  // The ids after the cursor in seq order, from the directory's kept order: O(log n) to start,
  // so paging a whole namespace costs O(n) in all, not a sort of the namespace per page.
  const ids = state.idsAfterSeq(afterSeq);
  let next = ids.next();
  const memories: ListedMemory[] = [];
  let lastSeq = afterSeq;
  let scanned = 0;
  let unread = 0; // ids of the last batch left unread (the page filled first)
  while (!next.done && memories.length < limit && scanned < LIST_SCAN_LIMIT) {
    // Without a filter a page needs exactly its own nodes; with one, read ahead in batches.
    const want = Math.min(keep === undefined ? limit - memories.length : BATCH, LIST_SCAN_LIMIT - scanned);
    const batch: string[] = [];
    for (; !next.done && batch.length < want; next = ids.next()) batch.push(next.value);
    throwIfAborted(signal);
    await state.loadNodes(batch);
    for (let k = 0; k < batch.length; k++) {
      const id = batch[k] as string;
      scanned++;
      const n = state.nodes.get(id);
      lastSeq = state.seqOf(id) ?? lastSeq;
      if (n === undefined || isExpired(n, nowMs) || (keep !== undefined && !keep(n))) continue;
      memories.push(listed(n));
      if (memories.length === limit) {
        unread = batch.length - k - 1;
        break;
      }
    }
  }
  const page: ListPage = { memories };
  if (unread > 0 || !next.done) page.cursor = encodeCursor(ns, lastSeq);
  return page;
}

/**
 * The ids of the versions of memory `id` across `Memory.update` (the `updates` edges with origin
 * rule {@link EXPLICIT_UPDATE_RULE}, followed both ways): every node that `id` replaced, directly
 * or through earlier updates, `id` itself, and every newer version, nearest to `id` first.
 * Relations System One or maintenance inferred (`updates` edges of other origins) are not
 * versions. At most `max` ids; `id` must exist in the namespace. Expired versions are included.
 */
export async function versionIdsOf(state: NamespaceState, id: string, max: number): Promise<string[]> {
  const seen = new Set<string>([id]);
  let frontier = [id];
  while (frontier.length > 0 && seen.size < max) {
    await state.loadEdgesOfKind(frontier, 'updates');
    const next: string[] = [];
    for (const v of frontier) {
      for (const e of state.edgesOfKind(v, 'updates')) {
        if (e.origin.kind !== 'rule' || e.origin.by !== EXPLICIT_UPDATE_RULE) continue;
        const other = e.from === v ? e.to : e.from;
        if (seen.has(other) || !state.nodes.has(other) || seen.size >= max) continue;
        seen.add(other);
        next.push(other);
      }
    }
    frontier = next;
  }
  return [...seen];
}

/**
 * The versions of memory `id` across `Memory.update` ({@link versionIdsOf}), oldest first: every
 * node that `id` replaced, directly or through earlier updates, `id` itself, and every newer
 * version. At most {@link MAX_HISTORY} versions (the nearest to `id`). Undefined when no node
 * `id` exists.
 * @param keep - When given (a call's scope), only the versions it keeps are returned.
 */
export async function historyOf(state: NamespaceState, id: string, nowMs: number, keep?: NodePredicate): Promise<ListedMemory[] | undefined> {
  if (!state.nodes.has(id)) return undefined;
  const seen = await versionIdsOf(state, id, MAX_HISTORY);
  await state.loadNodes(seen);
  const nodes = seen.map((x) => state.nodes.get(x)).filter((n): n is MemoryNode => n !== undefined && !isExpired(n, nowMs) && (keep === undefined || keep(n)));
  nodes.sort((a, b) => a.seq - b.seq);
  return nodes.map(listed);
}

/**
 * The newest version that replaced `id` through `Memory.update` (following the `updates` edges
 * with origin rule {@link EXPLICIT_UPDATE_RULE} from older to newer, the newest by `seq` where a
 * version was replaced twice), or `undefined` when no explicit update replaced `id` (it is the
 * current version, or was superseded only by a relation System One or maintenance inferred).
 * `id` must exist in the namespace. The walk goes to the end of the chain however long it is
 * (one node and its `updates` edges read per step; each node at most once, so a cycle in a
 * damaged store ends it too): unlike `history`, it has no {@link MAX_HISTORY} bound, since a
 * version part-way along would be a wrong answer, not a shorter one.
 */
export async function newestVersionOf(state: NamespaceState, id: string): Promise<string | undefined> {
  const seen = new Set<string>([id]);
  let at = id;
  for (;;) {
    await state.loadNodes([at]);
    if (state.nodes.get(at)?.status !== 'superseded') break;
    await state.loadEdgesOfKind([at], 'updates');
    const newer = state
      .edgesOfKind(at, 'updates')
      .filter((e) => e.to === at && e.origin.kind === 'rule' && e.origin.by === EXPLICIT_UPDATE_RULE && !seen.has(e.from) && state.nodes.has(e.from))
      .map((e) => e.from);
    if (newer.length === 0) break;
    await state.loadNodes(newer);
    at = newer.reduce((a, b) => ((state.nodes.get(b)?.seq ?? -1) > (state.nodes.get(a)?.seq ?? -1) ? b : a));
    seen.add(at);
  }
  return at === id ? undefined : at;
}

/**
 * Refuses an update of a version that a newer explicit version replaced (it would start a second
 * branch of the version chain): the caller should update the version `activeId` names.
 * @throws JevMemError `CONFLICT` (field `id`, `details.activeId`).
 */
export async function refuseStaleVersion(state: NamespaceState, id: string, ns: string): Promise<void> {
  const newest = await newestVersionOf(state, id);
  if (newest === undefined) return;
  throw new JevMemError('CONFLICT', `node ${quoteVisible(id)} in namespace ${quoteVisible(ns)} was already replaced by a newer version; update ${quoteVisible(newest)}, its current version, instead`, { field: 'id', activeId: newest });
}
