/**
 * `createMemory()`: wires the three planes (SPEC 2). The only module that knows all of them:
 * memory plane (storage adapter + namespace caches), System-One control plane (controller over
 * a backend, with the heuristic stand-in as deterministic fallback), write path, read path and
 * System Two.
 *
 * Reliability (issue 7): every write is one atomic storage commit, and the caches (indexes,
 * adjacency) change only after the store accepted it; a failed commit rebuilds them from the
 * store. Writes to one namespace are serialised in-process and, where `navigator.locks` exists,
 * across tabs by the Web Lock `jev-mem:<namespace>`; every commit sets a new `generation` in the
 * namespace meta, and a memory that finds another generation in the store (a second tab wrote)
 * rebuilds its caches first. On open, a namespace is migrated to the current schema version
 * (plane/store/schema.ts) and nodes embedded by another encoder are re-embedded from their texts.
 *
 * The factory composes the method groups (one file, one responsibility): the interface
 * and its option and result types live in memory/api.ts, the options of `createMemory` and the
 * index wiring in memory/setup.ts, and the methods in memory/read-methods.ts (recall, answer,
 * list, history, get, edges), memory/write-methods.ts (add, update, delete, deleteVersions, forget, reset,
 * export, import) and memory/lifecycle-methods.ts (stats, maintain, namespaces, close), over the
 * shared state of memory/context.ts. Every public name is re-exported here.
 *
 * @module
 */
import { resolveParameters, type MemoryParameters } from './config.js';
import { JevMemError, describeValue, invalidOption, throwIfAborted } from './errors.js';
import { createMemoryStorage } from './plane/store/memory-storage.js';
import type { NamespaceState } from './plane/resident/namespace.js';
import { Controller } from './system-one/controller.js';
import { evictTextCaches } from './plane/text/text.js';
import { createHeuristicSystemOne } from './system-one/heuristic.js';
import type { SystemOneBackend } from './system-one/wire.js';
import { createSystemTwo } from './system-two/client.js';
import type { SystemTwo, SystemTwoOptions } from './system-two/types.js';
import { consoleLogger } from './util/logger.js';
import { quoteVisible } from './util/invisible.js';
import type { Memory } from './memory/api.js';
import { CallTracker } from './memory/calls.js';
import { NamespaceCaches } from './memory/concurrency.js';
import { IssueOrder } from './memory/issue-order.js';
import type { MemoryContext } from './memory/context.js';
import { createExpiryOnOpen } from './memory/expiry.js';
import { lifecycleMethods } from './memory/lifecycle-methods.js';
import { openNamespace } from './memory/migrate.js';
import { readMethods } from './memory/read-methods.js';
import { calibrationOf } from './memory/relevance.js';
import { checkLanguageOption } from './memory/language-option.js';
import { MEMORY_OPTION_KEYS, checkCacheSizes, checkMaxOpen, indexFactories, type MemoryOptions } from './memory/setup.js';
import type { TransferDeps } from './memory/transfer.js';
import type { CallOptions, ScopedCallOptions } from './memory/types.js';
import type { NodePredicate } from './read/filter.js';
import { SCOPED_ID_OPTION_KEYS, checkOptionKeys, scopePredicate } from './memory/options.js';
import { checkClock, checkMemoryOptions, heldNamespaceOf, namespaceOf } from './memory/validate.js';
import { createWritePath } from './memory/write.js';
import { writeMethods } from './memory/write-methods.js';

export { GENERATION_META_KEY, LOCK_PREFIX } from './memory/concurrency.js';
export { MAINTENANCE_PENDING_META_KEY } from './memory/write.js';
export type { AddManyOptions, AddOptions, AddResult, CallOptions, ExportOptions, ImportOptions, ImportProgress, ListedMemory, ListOptions, ListPage, MemoryScope, ResetOptions, ScopedCallOptions, WriteDecisions, WriteProgress } from './memory/types.js';
export type { FilterLiteral, FilterOperators, MemoryFilter } from './read/filter.js';
export type { ImportResult } from './memory/transfer.js';
export type { ChatMessageInput } from './memory/input.js';
export { RESERVED_METADATA_KEYS } from './memory/input.js';
export { MAX_QUERY_CHARS } from './memory/validate.js';
export { DEFAULT_LIST_LIMIT, LIST_SCAN_LIMIT, MAX_HISTORY, MAX_LIST_LIMIT } from './memory/list.js';
export type { Logger, LogEntry, LogLevel } from './util/logger.js';
export type { AnswerOptions, AnswerStreamEvent, Memory, MemoryAnswer, MemoryStats, RecallOptions, RecallResult } from './memory/api.js';
export { AUTO_HNSW_FROM, AUTO_HNSW_WORK, DEFAULT_MAX_OPEN_NAMESPACES, MEMORY_OPTION_KEYS, autoHnswFrom, type MemoryOptions } from './memory/setup.js';
export { DEFAULT_ANSWER_KEEP_TOP, DEFAULT_ANSWER_MIN_SCORE } from './memory/read-methods.js';

/**
 * Creates a memory.
 * @throws JevMemError `INVALID_OPTION` naming the option (unknown key, bad parameter, missing encoder).
 * @example
 * ```ts
 * const memory = await createMemory({ encoder, storage: await createIdbStorage() });
 * await memory.add({ text: 'Caroline: I went to the LGBTQ support group yesterday.', observedAt: '2023-05-08T13:56:00Z' });
 * const { memories, trace } = await memory.recall('When did Caroline go to the support group?');
 * ```
 */
export async function createMemory(options: MemoryOptions): Promise<Memory> {
  const defaultNamespace = checkMemoryOptions(options, MEMORY_OPTION_KEYS);
  const factories = indexFactories(options.vectorIndex ?? 'auto');
  const encoder = options.encoder;
  const storage = options.storage ?? createMemoryStorage();
  const fallback = createHeuristicSystemOne();
  const systemOne = options.systemOne ?? fallback;
  // A name or another non-backend would make every decision fail over to the stand-in silently.
  if (systemOne === null || typeof systemOne !== 'object' || typeof (systemOne as Partial<SystemOneBackend>).decideMany !== 'function' || typeof (systemOne as Partial<SystemOneBackend>).modelId !== 'string') {
    throw invalidOption('systemOne', `expected a System-One backend (an object with decideMany and modelId, e.g. createHeuristicSystemOne()), got ${describeValue(systemOne)}${typeof systemOne === 'string' ? '; names are taken by createNodeMemory and createBrowserMemory' : ''}`);
  }
  // SPEC 8 defaults ← the backend's calibrated values ← the caller's overrides.
  const params = resolveParameters({ ...(systemOne.parameters as Partial<MemoryParameters> | undefined), ...options.parameters });
  const controller = new Controller(systemOne, fallback);
  const calibration = calibrationOf(systemOne.modelId); // memory/relevance.ts
  const now = checkClock(options.now);
  const logger = options.logger ?? consoleLogger;
  let systemTwo: SystemTwo | undefined;
  if (options.systemTwo !== undefined) {
    systemTwo = typeof (options.systemTwo as SystemTwo).answer === 'function' ? (options.systemTwo as SystemTwo) : createSystemTwo(options.systemTwo as SystemTwoOptions);
  }
  const cacheSizes = checkCacheSizes(options.cache);
  const maxOpen = checkMaxOpen(options.maxOpenNamespaces);
  const languageOf = checkLanguageOption(options.language);
  if (options.changeLanguage !== undefined && typeof options.changeLanguage !== 'boolean') throw invalidOption('changeLanguage', `expected true or false, got ${describeValue(options.changeLanguage)}`);
  const openState = async (ns: string): Promise<NamespaceState> => {
    const state = await openNamespace(ns, storage, encoder, factories, cacheSizes, languageOf(ns), options.changeLanguage === true);
    if (state.openReport.checkpointDamaged === true) {
      logger('warn', `the checkpoint of namespace ${JSON.stringify(ns)} is damaged; the namespace was rebuilt from its stored records (${state.openReport.reason ?? 'no reason given'})`, { code: 'CHECKPOINT_DAMAGED', namespace: ns });
    }
    return state;
  };
  // A namespace released for room is checkpointed first (under its lock), so it reopens fast.
  const caches = new NamespaceCaches(storage, openState, { maxOpen, onEvict: (ns, state) => writes.checkpoint(ns, state) });
  // Erasure (issue 22): after a delete or forget commits, the process caches drop the erased
  // texts (all entries for a forget, whose texts are not listed).
  const evictTexts = (texts: readonly string[] | undefined): void => {
    evictTextCaches(texts);
    encoder.evict?.(texts);
    controller.evict(texts);
    writes.evictReadings();
  };
  const writes = createWritePath({ storage, caches, encoder, controller, params, now, newId: options.newId ?? (() => globalThis.crypto.randomUUID()), logger, evictText: evictTexts });
  // Expired memories are erased when a namespace is first touched (issue 22; memory/expiry.ts).
  const expiry = createExpiryOnOpen({ storage, caches, writes, now, logger });
  const transfer: TransferDeps = { storage, caches, writes, encoder, systemOneModel: systemOne.modelId, factories, now, maxTextChars: params.maxTextChars };
  let closed = false;
  /** Set once close() released the store: even a call's own inner calls are refused then. */
  let released = false;
  const ensureOpen = (): void => {
    if (closed) throw new JevMemError('CLOSED', 'this memory was closed; create a new one');
  };
  const ensureUsable = (): void => {
    if (released) throw new JevMemError('CLOSED', 'this memory was closed; create a new one');
  };
  const calls = new CallTracker();
  const nsOf = (o?: CallOptions): string => namespaceOf(o, defaultNamespace);
  /** The error of an id the namespace does not hold (or holds outside the call's scope: the same error, so existence is not shown). */
  const notFound = (id: unknown, ns: string): JevMemError => new JevMemError('NOT_FOUND', `no memory ${typeof id === 'string' ? quoteVisible(id) : describeValue(id)} in namespace ${quoteVisible(ns)}`, { field: 'id' });
  /** The namespace of forget/export/stats: also one the store holds under a name from before the rule (names.ts). */
  const heldNsOf = (value: unknown, field = 'options.namespace'): Promise<string> => heldNamespaceOf(value, defaultNamespace, () => storage.namespaces(), field);
  const openScoped = async (o: ScopedCallOptions | undefined): Promise<{ ns: string; keep: NodePredicate | undefined }> => {
    ensureOpen();
    checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
    throwIfAborted(o?.signal); // an aborted call does no work (not even the namespace's open)
    const ns = nsOf(o);
    const keep = scopePredicate(o?.scope);
    await expiry.open(ns);
    return { ns, keep };
  };
  const ctx: MemoryContext = {
    defaultNamespace,
    storage,
    encoder,
    systemOne,
    fallback,
    controller,
    params,
    calibration,
    now,
    logger,
    systemTwo,
    caches,
    writes,
    order: new IssueOrder(),
    expiry,
    transfer,
    ensureOpen,
    nsOf,
    heldNsOf,
    openScoped,
    notFound,
    evictTexts,
    self: () => memory,
    internal: () => internal,
    calls,
  };
  const t = calls.wrap.bind(calls);
  /**
   * An erasing call ends by making the file clean of the erased records' older copies (the Node
   * SQLite store rewrites a small file now, and counts a large one's erasures as pending; issue 22).
   * Only after the call succeeded: a refused or aborted call touches no store, and what a failed
   * call erased stays counted as pending, which maintain() and close() rewrite.
   */
  const erasing = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    const result = await fn(...args);
    await storage.settleErasures();
    return result;
  };
  // The inner calls of a call already counted (answer → recall, reset → forget): not refused
  // while close() waits for that call.
  const innerCtx: MemoryContext = { ...ctx, ensureOpen: ensureUsable };
  const internal = { recall: t(readMethods(innerCtx).recall), forget: t(writeMethods(innerCtx).forget) };
  const read = readMethods(ctx);
  const write = writeMethods(ctx);
  const life = lifecycleMethods(ctx, () => {
    const was = closed;
    closed = true;
    return was;
  });
  const closeAll = life.close;
  life.close = async () => {
    try {
      await closeAll();
    } finally {
      released = true;
    }
  };
  // The methods in the order of the object this factory returned before the split (Object.keys).
  const memory: Memory = {
    namespace: defaultNamespace,
    parameters: params,
    systemOne,
    encoder,
    add: t(write.add),
    addMany: t(write.addMany),
    recall: t(read.recall),
    answer: t(read.answer),
    list: t(read.list),
    history: t(read.history),
    answerStream: read.answerStream,
    get: t(read.get),
    edges: t(read.edges),
    update: t(write.update),
    delete: t(erasing(write.delete)),
    deleteVersions: t(erasing(write.deleteVersions)),
    forget: t(erasing(write.forget)),
    reset: t(erasing(write.reset)),
    maintain: t(life.maintain),
    export: t(write.export),
    import: t(write.import),
    stats: t(life.stats),
    namespaces: t(life.namespaces),
    close: life.close,
  };
  return memory;
}
