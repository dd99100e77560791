/**
 * `jev-mem/langgraph`: a LangGraph.js long-term memory store (`BaseStore` of
 * `@langchain/langgraph-checkpoint`) over jev-mem (issue 23). Pass it to `graph.compile({ store })`
 * and read it in a node through `config.store` (or `getStore()`): `put`, `get`, `search` (with a
 * natural-language `query`: jev-mem's recall; without: the items in the order their keys were
 * first put, a re-put key keeping its place, as LangGraph's `InMemoryStore`),
 * `delete`, `listNamespaces` and `batch`.
 *
 * **Mapping.** A LangGraph namespace tuple `['users', 'alice']` is the jev-mem namespace
 * `langgraph/users/alice` (each part percent-encoded, so `/` inside a part stays one part; the
 * prefix is `options.prefix`). An item is one memory node: its text is the indexed text of the
 * value (one line per leaf: strings as written, numbers and booleans as `path: value`; of the
 * `index` fields given to `put`, else of `options.fields`), its `provenance.metadata` holds the key (`lgKey`), the value (`lgValue`) and the
 * creation time (`lgCreatedAt`), and `stateKey` holds the key too, so the inferred state-update
 * decision never pairs items of two keys (write/state-updates.ts `sameStateKey`: a put of `home`
 * never supersedes `pet`). Putting a key again is jev-mem's `update`: the new version is
 * the item, the old one is kept as superseded history (never returned by the store); deleting
 * a key erases every version of it (`Memory.deleteVersions`, one commit per version chain).
 *
 * **Cost.** `get` and `put` find a key's node through a per-namespace cache of key → id, checked
 * against the stored node; on a miss, through `memory.list` with a metadata filter (a scan of
 * the namespace, at most 5,000 nodes read per page).
 *
 * `@langchain/langgraph-checkpoint` is an optional peer of jev-mem: {@link createJevMemStore}
 * imports it on first use and throws `DEPENDENCY_MISSING` without it.
 *
 * @module
 */
import type { BaseStore, GetOperation, Item, ListNamespacesOperation, Operation, OperationResults, PutOperation, SearchItem, SearchOperation } from '@langchain/langgraph-checkpoint';
import { MAX_RECALL_K } from '../config.js';
import { STATE_KEY_METADATA } from '../write/state-updates.js';
import { describeValue, invalidInput, isJevMemError, JevMemError } from '../errors.js';
import type { Memory } from '../memory.js';
import type { ListedMemory } from '../memory/types.js';
import { compileNodeFilter, type MemoryFilter } from '../read/filter.js';
import type { MemoryNode, Observation } from '../types.js';
import { importOptional } from '../util/optional.js';

/** Options of {@link createJevMemStore}. */
export interface JevMemStoreOptions {
  /** First part of every jev-mem namespace the store uses. @default 'langgraph' */
  prefix?: string;
  /** Fields of a value that make its indexed text (`$` = every leaf), when `put` names none. @default ['$'] */
  fields?: string[];
  /**
   * How many recall candidates a `search` with a query asks for beyond `offset + limit` (the
   * recall's `k` is capped at `MAX_RECALL_K`, 1,000). A non-negative integer. @default 10
   */
  recallSlack?: number;
}

const SOURCE = 'langgraph';

/** The jev-mem namespace of a LangGraph namespace tuple. */
export function namespaceOf(prefix: string, tuple: readonly string[]): string {
  if (tuple.length === 0) throw new JevMemError('INVALID_INPUT', 'namespace: expected at least one part', { field: 'namespace' });
  for (const [i, p] of tuple.entries()) {
    if (typeof p !== 'string' || p === '') throw new JevMemError('INVALID_INPUT', `namespace[${i}]: expected a non-empty string, got ${JSON.stringify(p)}`, { field: `namespace[${i}]` });
  }
  return [prefix, ...tuple].map(encodeURIComponent).join('/');
}

/** The LangGraph tuple of a jev-mem namespace of this store, or undefined for any other namespace. */
export function tupleOf(prefix: string, namespace: string): string[] | undefined {
  const parts = namespace.split('/');
  if (parts.length < 2 || parts[0] !== encodeURIComponent(prefix)) return undefined;
  try {
    return parts.slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** The indexed text of a value: one line per leaf of the fields (`$` = the whole value), strings as they are, numbers and booleans as `path: value`. */
export function indexText(value: Record<string, unknown>, fields: readonly string[]): string {
  const lines: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') lines.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') lines.push(path === '' ? String(v) : `${path}: ${String(v)}`);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, path));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path === '' ? k : `${path}.${k}`);
  };
  for (const f of fields) {
    if (f === '$') walk(value, '');
    else walk(f.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), value), f);
  }
  return lines.join('\n');
}

/** A LangGraph value filter (`{field: literal | {$eq,$ne,$gt,$gte,$lt,$lte,$in,$nin}}`) as a jev-mem metadata filter. */
function valueFilter(filter: Record<string, unknown> | undefined): MemoryFilter {
  const out: MemoryFilter = { lgKey: { $exists: true }, status: 'active' };
  for (const [field, cond] of Object.entries(filter ?? {})) out[`metadata.lgValue.${field}`] = cond as MemoryFilter[string];
  return out;
}

/**
 * A search's `offset` or `limit`: a whole number ≥ 0. `slice` reads -1 as "the last one", so an
 * offset of -1 returned the last item instead of an error.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
function count(v: unknown, field: 'offset' | 'limit'): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidInput(field, `expected a whole number ≥ 0, got ${describeValue(v)}`);
  return v;
}

const VALUE_AT = 'observation.metadata.lgValue';

/**
 * An error of the memory about the observation `put` made, named as the caller gave it: a field
 * of the value (`observation.metadata.lgValue.a` → `value.a`) or the metadata as a whole
 * (`observation.metadata` → `value`: the value with the key and its bookkeeping over 16 KiB as
 * JSON, or a NaN in it, the message giving the path inside as `value.score`). Other errors are
 * returned as they are.
 */
function asValueError(e: unknown): unknown {
  if (!isJevMemError(e) || typeof e.details.field !== 'string') return e;
  const at = e.details.field;
  const rest = at === VALUE_AT || at.startsWith(`${VALUE_AT}.`) || at.startsWith(`${VALUE_AT}[`) ? at.slice(VALUE_AT.length) : at === 'observation.metadata' ? '' : undefined;
  if (rest === undefined) return e;
  const field = `value${rest}`;
  const head = e.message.startsWith(at) ? `${field}${e.code === 'TOO_LARGE' ? ' (with its key, as stored)' : ''}${e.message.slice(at.length)}` : e.message;
  const message = head.split(VALUE_AT).join('value'); // a path inside the value (`at value.score`)
  return new JevMemError(e.code, message, { ...e.details, field, cause: e });
}

/**
 * Creates the store over `memory`.
 * @throws JevMemError `DEPENDENCY_MISSING` (details `package`) when `@langchain/langgraph-checkpoint`
 *   is not installed; `INVALID_OPTION` (`recallSlack`) when it is not a non-negative integer. Its
 *   operations throw `INVALID_INPUT` naming a bad namespace, key (empty, or holding a control
 *   character) or filter, an `offset` or `limit` that is not a whole number ≥ 0, or (`offset`) a
 *   search with a query whose `offset + limit` exceeds `MAX_RECALL_K` (1,000); `TOO_LARGE`
 *   naming `value` when a put's value (with its key) is over 16 KiB as JSON (the metadata
 *   limit), and the memory's other errors.
 * @example
 * ```ts
 * const store = await createJevMemStore(memory);
 * const graph = new StateGraph(State).addNode('remember', async (s, config) => { await config.store?.put(['users', s.user], 'pet', { text: s.fact }); return {}; }) … .compile({ store });
 * ```
 */
export async function createJevMemStore(memory: Memory, options: JevMemStoreOptions = {}): Promise<BaseStore> {
  const lg = await importOptional<typeof import('@langchain/langgraph-checkpoint')>('@langchain/langgraph-checkpoint', '@langchain/langgraph-checkpoint', 'jev-mem/langgraph');
  const prefix = options.prefix ?? 'langgraph';
  const fields = options.fields ?? ['$'];
  const slack = options.recallSlack ?? 10;
  if (!Number.isInteger(slack) || slack < 0) throw new JevMemError('INVALID_OPTION', `option recallSlack: expected a non-negative integer, got ${describeValue(slack)}`, { field: 'recallSlack' });
  /** namespace → key → node id of the item's current version (checked on use). */
  const ids = new Map<string, Map<string, string>>();

  async function versions(ns: string, key: string, onlyActive: boolean): Promise<ListedMemory[]> {
    const found: ListedMemory[] = [];
    const filter: MemoryFilter = onlyActive ? { lgKey: key, status: 'active' } : { lgKey: key };
    let cursor: string | undefined;
    do {
      const page = await memory.list({ namespace: ns, limit: 1000, filter, ...(cursor !== undefined ? { cursor } : {}) });
      found.push(...page.memories);
      if (onlyActive && found.length > 0) break;
      cursor = page.cursor;
    } while (cursor !== undefined);
    return found;
  }

  /** The current version of `key` in `ns`, as stored. */
  async function current(ns: string, key: string): Promise<{ id: string; metadata: Record<string, unknown>; ingestedAt: string } | undefined> {
    const cached = ids.get(ns)?.get(key);
    if (cached !== undefined) {
      const node = await memory.get(cached, { namespace: ns });
      if (node !== undefined && node.status === 'active' && node.provenance.metadata?.lgKey === key) return { id: node.id, metadata: node.provenance.metadata, ingestedAt: node.ingestedAt };
    }
    const [hit] = await versions(ns, key, true);
    if (hit === undefined) return undefined;
    remember(ns, key, hit.id);
    return { id: hit.id, metadata: hit.provenance.metadata ?? {}, ingestedAt: hit.ingestedAt };
  }

  function remember(ns: string, key: string, id: string | undefined): void {
    let m = ids.get(ns);
    if (m === undefined) ids.set(ns, (m = new Map()));
    if (id === undefined) m.delete(key);
    else m.set(key, id);
  }

  function itemOf(tuple: string[], metadata: Record<string, unknown>, updatedAt: string): Item {
    return { namespace: tuple, key: String(metadata.lgKey), value: (metadata.lgValue ?? {}) as Record<string, unknown>, createdAt: new Date(String(metadata.lgCreatedAt ?? updatedAt)), updatedAt: new Date(updatedAt) };
  }

  function checkKey(key: unknown): string {
    if (typeof key !== 'string' || key === '') throw new JevMemError('INVALID_INPUT', `key: expected a non-empty string, got ${JSON.stringify(key)}`, { field: 'key' });
    // As every id of the memory: a NUL or a newline would let two keys look alike ("a\u0000b" prints as "a").
    const cc = key.match(/\p{Cc}/u)?.[0];
    if (cc !== undefined) throw invalidInput('key', `contains a control character (U+${(cc.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}): ${JSON.stringify(key)}; give a key without one`);
    return key;
  }

  /**
   * The calls on one key of one namespace, in the order they were issued (h-break7 finding 4):
   * a put reads the key's current version and then updates it, so two puts of one key issued at
   * once both found none and made two current items. Each put and get of a key waits for the
   * ones issued before it in this store (a failed one does not stop the next); other keys run
   * side by side. Within one process only: two processes putting one key at once are not ordered.
   */
  const keyTails = new Map<string, Promise<void>>();
  function inKeyOrder<T>(ns: string, key: string, run: () => Promise<T>): Promise<T> {
    const id = JSON.stringify([ns, key]);
    const mine = (keyTails.get(id) ?? Promise.resolve()).then(run);
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    keyTails.set(id, tail);
    void tail.then(() => {
      if (keyTails.get(id) === tail) keyTails.delete(id);
    });
    return mine;
  }

  async function put(op: PutOperation): Promise<void> {
    const ns = namespaceOf(prefix, op.namespace);
    const key = checkKey(op.key);
    if (op.value === null) {
      // Every version chain of the key in one erasure each (Memory.deleteVersions, as the agents'
      // forget tool): normally one chain, so no older version is current between two commits.
      const erased = new Set<string>();
      for (const v of await versions(ns, key, false)) if (!erased.has(v.id)) for (const x of await memory.deleteVersions(v.id, { namespace: ns })) erased.add(x);
      remember(ns, key, undefined);
      return;
    }
    const old = await current(ns, key);
    const now = new Date().toISOString();
    const text = op.index === false ? key : indexText(op.value, op.index ?? fields) || key;
    const obs: Observation = { text, source: SOURCE, metadata: { lgKey: key, [STATE_KEY_METADATA]: key, lgValue: op.value, lgCreatedAt: old?.metadata.lgCreatedAt ?? now, lgIndexed: op.index !== false } };
    const r = await (old === undefined ? memory.add(obs, { namespace: ns }) : memory.update(old.id, obs, { namespace: ns })).catch((e: unknown) => {
      throw asValueError(e);
    });
    remember(ns, key, r.id);
  }

  async function namespacesUnder(tuplePrefix: readonly string[]): Promise<Array<{ ns: string; tuple: string[] }>> {
    const out: Array<{ ns: string; tuple: string[] }> = [];
    for (const ns of await memory.namespaces()) {
      const tuple = tupleOf(prefix, ns);
      if (tuple !== undefined && tuplePrefix.every((p, i) => tuple[i] === p)) out.push({ ns, tuple });
    }
    return out;
  }

  /**
   * The current items of `ns` that `keep` keeps, at least the first `want` of them (all when
   * fewer), in the order their keys were first put — as LangGraph's `InMemoryStore`, where a
   * re-put key keeps its place (a Map entry) and a deleted then re-put key goes last. A key's
   * place is the `seq` of its oldest stored version; its item is its active version. Pages every
   * version in `seq` order and stops once the first `want` kept keys are all known.
   */
  async function inInsertionOrder(ns: string, keep: (n: MemoryNode) => boolean, want: number): Promise<ListedMemory[]> {
    const order: string[] = [];
    /** key → its active version, or null while only older versions were seen. */
    const currentOf = new Map<string, ListedMemory | null>();
    const enough = (): boolean => {
      let n = 0;
      for (const key of order) {
        const m = currentOf.get(key) ?? null;
        if (m === null) return false; // its current version comes later (or is not active): unknown yet
        if (keep(m as MemoryNode) && ++n >= want) return true;
      }
      return false;
    };
    let cursor: string | undefined;
    do {
      const page = await memory.list({ namespace: ns, limit: 1000, filter: { lgKey: { $exists: true } }, ...(cursor !== undefined ? { cursor } : {}) });
      for (const m of page.memories) {
        const key = String(m.provenance.metadata?.lgKey);
        if (!currentOf.has(key)) {
          order.push(key);
          currentOf.set(key, null);
        }
        if (m.status === 'active') currentOf.set(key, m);
      }
      cursor = page.cursor;
    } while (cursor !== undefined && !enough());
    const out: ListedMemory[] = [];
    for (const key of order) {
      const m = currentOf.get(key) ?? null;
      if (m !== null && keep(m as MemoryNode)) out.push(m);
    }
    return out;
  }

  async function search(op: SearchOperation): Promise<SearchItem[]> {
    const limit = count(op.limit ?? 10, 'limit');
    const offset = count(op.offset ?? 0, 'offset');
    const filter = valueFilter(op.filter);
    const spaces = await namespacesUnder(op.namespacePrefix);
    const hits: SearchItem[] = [];
    if (op.query !== undefined && op.query.trim() !== '') {
      // A recall returns at most MAX_RECALL_K memories: a page past them could never be filled.
      if (offset + limit > MAX_RECALL_K) throw invalidInput('offset', `a search with a query ranks at most ${MAX_RECALL_K} items (MAX_RECALL_K): offset + limit must be at most that, got ${offset} + ${limit}`);
      const indexed: MemoryFilter = { ...filter, lgIndexed: { $ne: false } };
      const keep = compileNodeFilter(indexed, 'filter');
      for (const { ns, tuple } of spaces) {
        // The filter goes into the recall (anchors chosen among the items it keeps), so a filtered
        // search still finds `limit` items when the best-ranked memories do not match it.
        const r = await memory.recall(op.query, { namespace: ns, k: Math.min(offset + limit + slack, MAX_RECALL_K), filter: indexed });
        for (const m of r.memories) {
          const node = await memory.get(m.id, { namespace: ns });
          if (node !== undefined && keep(node)) hits.push({ ...itemOf(tuple, node.provenance.metadata ?? {}, node.ingestedAt), score: m.score });
        }
      }
      hits.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    } else {
      const keep = compileNodeFilter(filter, 'filter');
      for (const { ns, tuple } of spaces) {
        if (hits.length >= offset + limit) break;
        for (const m of await inInsertionOrder(ns, keep, offset + limit - hits.length)) hits.push(itemOf(tuple, m.provenance.metadata ?? {}, m.ingestedAt));
      }
    }
    return hits.slice(offset, offset + limit);
  }

  async function listNamespaces(op: ListNamespacesOperation): Promise<string[][]> {
    const matches = (tuple: string[], path: readonly string[], suffix: boolean): boolean => {
      if (path.length > tuple.length) return false;
      const part = suffix ? tuple.slice(tuple.length - path.length) : tuple.slice(0, path.length);
      return path.every((p, i) => p === '*' || p === part[i]);
    };
    const seen = new Map<string, string[]>();
    for (const { tuple } of await namespacesUnder([])) {
      if (!(op.matchConditions ?? []).every((c) => matches(tuple, c.path, c.matchType === 'suffix'))) continue;
      const t = op.maxDepth !== undefined ? tuple.slice(0, op.maxDepth) : tuple;
      seen.set(JSON.stringify(t), t);
    }
    const all = [...seen.values()].sort((a, b) => a.join('/').localeCompare(b.join('/')));
    const offset = count(op.offset, 'offset');
    return all.slice(offset, offset + count(op.limit, 'limit'));
  }

  class JevMemStore extends lg.BaseStore {
    async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
      const results: unknown[] = [];
      for (const op of operations) {
        if ('value' in op) results.push(await inKeyOrder(namespaceOf(prefix, op.namespace), checkKey(op.key), () => put(op)));
        else if ('namespacePrefix' in op) results.push(await search(op));
        else if ('key' in op) {
          const get = op as GetOperation;
          const ns = namespaceOf(prefix, get.namespace);
          const key = checkKey(get.key);
          const hit = await inKeyOrder(ns, key, () => current(ns, key));
          results.push(hit === undefined ? null : itemOf([...get.namespace], hit.metadata, hit.ingestedAt));
        } else results.push(await listNamespaces(op));
      }
      return results as OperationResults<Op>;
    }
  }
  return new JevMemStore();
}
