/**
 * The memory's write orchestration (SPEC 4): validated observations → embedding and typing in
 * one batch per chunk → {@link planWrite} for the chunk's first observation, then (issue 25, the
 * bulk path) {@link prepareWrite} for each later one over the state with the earlier ones
 * applied, and their relation requests in ONE System-One call → one atomic commit per chunk,
 * then the caches; explicit updates, deletes and maintenance passes (after a chunk, over the
 * chunk's nodes). The graph is the one per-write planning gives (the relation requests are the
 * same; `test/write/bulk.test.ts`). The stages themselves live in `write/` (no I/O inside them);
 * this module adds the I/O, the gate and the bookkeeping.
 *
 * Every System-One request of a write is counted: in the write's {@link AddResult} (`systemOne`)
 * and, per namespace since the memory was opened, in {@link WritePath.counts} (shown by
 * `stats()`), so a write answered by the fallback is never silent.
 *
 * @module
 */
import type { NodePredicate } from '../read/filter.js';
import type { MemoryParameters } from '../config.js';
import type { Encoder } from '../encoder/encoder.js';
import { JevMemError, invalidOption, isJevMemError, isWriterElsewhere, throwIfAborted } from '../errors.js';
import { dedupKey, dedupScopeOf, nodeDedupKey, nodeOlderDedupKeys, type NamespaceState } from '../plane/resident/namespace.js';
import { SCHEMA_META_KEY, SCHEMA_VERSION } from '../plane/store/schema.js';
import { CHANGE_META_KEY, isChangedElsewhere, type StorageAdapter, type WriteBatch } from '../plane/store/storage.js';
import type { Controller, Decision, DecisionContext, DecisionRecord } from '../system-one/controller.js';
import type { SideReading, StateReadings } from '../system-one/state-update.js';
import type { SystemOneRequest } from '../system-one/wire.js';
import type { MemoryEdge, MemoryNode, Provenance } from '../types.js';
import { errorText, type Logger } from '../util/logger.js';
import { planMaintenance, type MaintenancePlan } from '../write/maintenance.js';
import { finishWrite, planWrite, prepareWrite, type PlannedWrite, type PreparedWrite, type WriteInputs } from '../write/plan.js';
import { finishEdge } from '../write/structure.js';
import { passageOf } from '../write/passage.js';
import { typesFrom, typingRequest } from '../write/typing.js';
import type { CheckedObservation } from '../write/validate.js';
import { GENERATION_META_KEY, newGeneration, type NamespaceCaches } from './concurrency.js';
import { ENCODER_META_KEY, nextChange } from './migrate.js';
import { LANGUAGE_META_KEY } from './language-option.js';
import { expiryMeta } from './expiry-meta.js';
import { DecisionMemo, MAX_REPLANS, PlanningController, ReplanNeeded, ReplayController } from './plan-commit.js';
import type { Turn } from './issue-order.js';
import { EXPLICIT_UPDATE_RULE as EXPLICIT_UPDATE, refuseStaleVersion, versionIdsOf } from './list.js';
import { planRemoval } from './remove-plan.js';
import { maintenanceQueueFrom } from './bulk-maintenance.js';
import type { AddManyOptions, AddResult, WriteDecisions } from './types.js';

/**
 * Most state-update side readings one write call keeps (issue 25; `system-one/state-update.ts`
 * `StateReadings`): past it the oldest reading goes ({@link RecentReadings}). A reading is about
 * 3.6 KB (measured over 4,000 LoCoMo turns: its statements, word sets and tokens), so a write
 * call holds at most ~15 MB of readings whatever the size of an import. (It was 8,192 entries,
 * then cleared whole: up to ~29 MB, and a burst of garbage at each clear, for the same hits on
 * average: 4,096 entries held then too.)
 */
export const WRITE_READINGS_MAX = 4096;

/**
 * The state-update side readings of one write call (issue 25), at most `max` of them: adding one
 * past `max` drops the oldest added (the candidates of a write are mostly recent turns, read
 * last). A reading depends on its speaker and text only, so the decisions are the same whatever
 * it keeps.
 */
export class RecentReadings extends Map<string, SideReading> {
  constructor(readonly max: number = WRITE_READINGS_MAX) {
    super();
  }

  override set(key: string, value: SideReading): this {
    super.set(key, value);
    if (this.size > this.max) {
      const oldest = this.keys().next();
      if (oldest.done !== true) this.delete(oldest.value);
    }
    return this;
  }

  /** Drops the oldest readings until at most `keep` are left. */
  trim(keep: number): void {
    for (const key of this.keys()) {
      if (this.size <= keep) return;
      this.delete(key);
    }
  }
}

/**
 * Most state-update side readings the write path keeps BETWEEN write calls (h-writeperf): a
 * single `add` decides ~27 pairs (its K_w candidates, and every 20th add the maintenance pass over
 * the last 20 nodes' nearest neighbours), whose sides are mostly the same recent turns from one add
 * to the next; read again per call, they were ~15 readings (≈ 4 ms of CPU) per add. A reading
 * depends on its speaker and text only, so the decisions are the same whatever is kept. ~3.7 MB at
 * most (3.6 KB a reading); a call may hold up to {@link WRITE_READINGS_MAX} while it runs, and
 * leaves this many. Dropped whole when a memory is erased (a delete or forget), so an erased text
 * stays in no reading after the erasure commits.
 */
export const HELD_READINGS_MAX = 1024;

/** Meta key listing the ids written since the last maintenance pass (persisted, so a restart loses none). */
export const MAINTENANCE_PENDING_META_KEY = 'maintenancePending' as const;

/**
 * Node changes (puts and deletes) after which a write writes the namespace's checkpoint (or a
 * tenth of the namespace's nodes, when more), so a reopen after a crash replays at most that
 * many (issue 13). Closing the memory writes one too.
 */
export const CHECKPOINT_EVERY = 2000;

/** A write's plan made outside the lock, with the state it read (reused as is when that state did not change). */
interface SpeculativePlan {
  state: NamespaceState;
  revision: number;
  vector: NamespaceState['vector'];
  plan: PlannedWrite;
  /** Its System-One records (counted when it commits). */
  records: DecisionRecord[];
}

/** A maintenance pass planned outside the lock, with the state and pending ids it read (reused as is when they did not change). */
interface SpeculativeMaintenance {
  state: NamespaceState;
  revision: number;
  vector: NamespaceState['vector'];
  ids: readonly string[];
  plan: MaintenancePlan;
  /** Its System-One records (counted when it commits). */
  records: DecisionRecord[];
}

/** What a chunk's plans and commit share: made once per chunk, kept across its re-plans. */
interface ChunkInputs {
  vectors: Float32Array[];
  typing: Array<{ response: Parameters<typeof typesFrom>[0]; record: DecisionRecord }>;
  nowIso: string;
  /** The model's answers of the chunk's first plan (replayed by a re-plan). */
  memo: DecisionMemo;
  /** Ids drawn, one per node in the order planned (kept across re-plans). */
  ids: string[];
  /** Index of the chunk's first observation that joins the maintenance queue (bulk-maintenance.ts). */
  queueFrom: number;
}

/** Whether two id lists are equal, element by element. */
function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/**
 * Commits of one write, maintenance pass or delete that the store may refuse because another
 * writer committed to the namespace since it was loaded (issue 22, {@link WriteBatch.expectMeta});
 * each refusal reloads the namespace and plans again. A store with a writer lock (the Node SQLite
 * store) keeps it after a refused commit (`WRITER_RETRY_HOLD_MS`), so an attempt that re-plans
 * within that time cannot be refused; a chunk of a bulk write is re-planned one observation at a
 * time for that ({@link SPLIT}).
 */
export const MAX_CHANGED_ELSEWHERE = 8;

/** What a commit returns when it must be planned again outside the lock. */
const REPLAN = Symbol('replan');

/** What a chunk's commit returns when another writer's commit refused it: commit it again one observation at a time. */
const SPLIT = Symbol('split');

/** Counts of a maintenance pass (SPEC 4 step 7). */
export interface MaintenanceCounts {
  redundant: number;
  contradiction: number;
  obsolete: number;
  link: number;
}

/** What the writes of one namespace degraded on since the memory was opened (see `MemoryStats`). */
export interface WriteCounts {
  /** System-One requests of committed writes and maintenance passes. */
  systemOneCalls: number;
  /** Of those, answered by the fallback. */
  systemOneFallbacks: number;
  /** Why the last fallback happened. */
  lastFallbackReason?: string;
  /** Maintenance passes run by writes that failed (their nodes stay pending). */
  maintenanceFailures: number;
  /** Switches of the vector index to HNSW that failed (the exact index is kept). */
  vectorUpgradeFailures: number;
  /** Checkpoints that could not be written (the next open replays or rescans; issue 13). */
  checkpointFailures: number;
  /**
   * Plans made again outside the lock because what a write or maintenance pass had planned on
   * changed before its commit (issue 22; at most MAX_REPLANS per commit).
   */
  replans: number;
}

/** What the write path needs from the memory. */
export interface WritePathDeps {
  storage: StorageAdapter;
  caches: NamespaceCaches;
  encoder: Encoder;
  controller: Controller;
  params: Readonly<MemoryParameters>;
  now: () => Date;
  newId: () => string;
  logger: Logger;
  /**
   * Optional: drops what the process caches keep about these texts (issue 22: embeddings,
   * System-One readings, language guesses), called after a delete commits.
   */
  evictText?: (texts: readonly string[]) => void;
}

/** The write operations of a memory (one per memory). */
export interface WritePath {
  /**
   * The write path over already validated observations, in chunks; `supersedesId` makes it an
   * explicit update (`NOT_FOUND` when that node is gone at commit). Takes the namespace lock
   * itself, per chunk, for the commit only: its System-One calls run before, outside it.
   * With `turn` (the call's place in the issue order, memory/issue-order.ts), the first commit
   * waits until the calls issued before it ended, and the turn ends once the last chunk is
   * committed (before its maintenance pass) or the write failed; its issue time (`turn.at`) is
   * the `ingestedAt` of every node it writes (without a turn: the clock when each chunk plans).
   */
  write(ns: string, checked: CheckedObservation[], opts: AddManyOptions, supersedesId?: string, turn?: Turn): Promise<AddResult[]>;
  /** Removes a node and its edges in one commit; false when it does not exist, or `keep` (a call's scope) refuses it. Run it inside `caches.exclusive`. */
  remove(ns: string, id: string, signal?: AbortSignal, keep?: NodePredicate): Promise<boolean>;
  /**
   * Removes node `id` and every version of it across `Memory.update` (list.ts `versionIdsOf`, no
   * bound), their edges and index entries in one commit, relinking the chains through them as
   * that many single removals would (remove-plan.ts). The ids removed, oldest first; none when
   * the namespace holds no node `id` or `keep` (a call's scope) refuses it. Run it inside `caches.exclusive`.
   */
  removeVersions(ns: string, id: string, signal?: AbortSignal, keep?: NodePredicate): Promise<string[]>;
  /** One maintenance pass over the pending ids; takes the namespace lock itself, for its commit only (its System-One request is planned before, outside it). */
  maintain(ns: string, signal?: AbortSignal): Promise<MaintenanceCounts>;
  /** Adds the bookkeeping every commit carries: a new generation, the next change number, and the schema version and encoder when they are not yet recorded. */
  stamp(state: NamespaceState, batch: WriteBatch): WriteBatch;
  /**
   * Stamps `batch` ({@link WritePath.stamp}), commits it atomically and applies it to the
   * resident state; on failure rebuilds the caches from the store and rethrows. Run it under the
   * namespace lock (`caches.exclusive`).
   * @throws what `StorageAdapter.commit` throws.
   */
  commit(ns: string, state: NamespaceState, batch: WriteBatch): Promise<void>;
  /** What the writes of `ns` degraded on since open (a copy). */
  counts(ns: string): WriteCounts;
  /** Writes the namespace's checkpoint if anything changed since the last one (failures are logged and counted). Run it inside `caches.exclusive`. */
  checkpoint(ns: string, state: NamespaceState): Promise<void>;
  /**
   * Drops the state-update side readings kept between write calls ({@link HELD_READINGS_MAX}):
   * called when an erasure commits (a delete does it itself; `forget` through the memory's
   * eviction of erased texts). A call already running keeps its own until it ends.
   */
  evictReadings(): void;
}

/** {@link WriteDecisions} of one write from its decision records. */
export function summariseDecisions(records: readonly DecisionRecord[], defaultModel: string): WriteDecisions {
  const models: string[] = [];
  for (const r of records) if (!models.includes(r.model)) models.push(r.model);
  const out: WriteDecisions = { calls: records.length, fallbacks: records.filter((r) => r.fallback).length, model: models.length === 0 ? defaultModel : models.join('+') };
  const reason = records.find((r) => r.fallback)?.reason;
  if (reason !== undefined) out.fallbackReason = reason;
  return out;
}

/** Creates the write path of a memory. */
/**
 * The STORE_DAMAGED error of a namespace whose state met damaged records (issue 22: the store
 * skipped them on read), or undefined when it met none. Writes are refused until the store is
 * repaired (`jev-mem repair`), so nothing is planned on a partial view of the namespace.
 */
export function damagedError(ns: string, ids: readonly string[]): JevMemError | undefined {
  if (ids.length === 0) return undefined;
  const shown = ids.slice(0, 10).map((id) => JSON.stringify(id)).join(', ') + (ids.length > 10 ? `, … (${ids.length} in all)` : '');
  return new JevMemError(
    'STORE_DAMAGED',
    `namespace ${JSON.stringify(ns)} holds damaged node record(s) ${shown}; writes are refused (nothing was written). Run \`jev-mem check\`, then \`jev-mem repair\` (or delete the damaged nodes)`,
    { field: 'namespace', ids: [...ids] },
  );
}

/** Detail key by which a failed chunk whose commit went through tells {@link createWritePath}'s write how many it committed. */
const CHUNK_COMMITTED = 'chunkCommitted';

/** Throws {@link damagedError} when the state met damaged records. */

function refuseIfDamaged(ns: string, state: NamespaceState): void {
  const err = damagedError(ns, state.unreadableIds());
  if (err !== undefined) throw err;
}

export function createWritePath(deps: WritePathDeps): WritePath {
  const { storage, caches, encoder, controller, params, now, newId, logger } = deps;
  /** Side readings kept between write calls ({@link HELD_READINGS_MAX}); replaced whole by an erasure. */
  let held = new RecentReadings();
  const evictReadings = (): void => {
    held = new RecentReadings();
  };
  const tallies = new Map<string, WriteCounts>();
  const tally = (ns: string): WriteCounts => {
    let t = tallies.get(ns);
    if (t === undefined) {
      t = { systemOneCalls: 0, systemOneFallbacks: 0, maintenanceFailures: 0, vectorUpgradeFailures: 0, checkpointFailures: 0, replans: 0 };
      tallies.set(ns, t);
    }
    return t;
  };
  const countDecisions = (ns: string, records: readonly DecisionRecord[]): void => {
    const t = tally(ns);
    t.systemOneCalls += records.length;
    for (const r of records) {
      if (!r.fallback) continue;
      t.systemOneFallbacks++;
      if (r.reason !== undefined) t.lastFallbackReason = r.reason;
    }
  };

  const writeCtx = (signal?: AbortSignal, log?: DecisionRecord[]): DecisionContext => {
    const ctx: DecisionContext = { callsLeft: Number.POSITIVE_INFINITY, deadline: Date.now() + params.writeDeadlineMs, recordAnswers: false };
    if (signal) ctx.signal = signal;
    if (log) ctx.log = log;
    return ctx;
  };
  const stamp = (state: NamespaceState, batch: WriteBatch): WriteBatch => {
    const change = nextChange(state.meta);
    const meta: Record<string, unknown> = { ...batch.meta, [GENERATION_META_KEY]: newGeneration(), [CHANGE_META_KEY]: change };
    if (state.meta[SCHEMA_META_KEY] !== SCHEMA_VERSION) meta[SCHEMA_META_KEY] = SCHEMA_VERSION;
    if (state.meta[ENCODER_META_KEY] !== encoder.fingerprint) meta[ENCODER_META_KEY] = encoder.fingerprint;
    if (state.languageTag !== undefined && state.meta[LANGUAGE_META_KEY] !== state.languageTag) meta[LANGUAGE_META_KEY] = state.languageTag; // issue 24
    Object.assign(meta, expiryMeta(state.meta, batch)); // the earliest expiry (expiry-meta.ts)
    // Compare-and-set (issue 22: two writers gave two nodes one seq): the store applies the batch
    // only if no other writer committed since this state was loaded (its generation is the store's).
    return { ...batch, meta, change, expectMeta: { [GENERATION_META_KEY]: state.meta[GENERATION_META_KEY] ?? null } };
  };
  /** Rebuilds the caches after a failed commit. Its own failure is not reported: the primary error is, and the next call loads again. */
  const rollBack = (ns: string): Promise<unknown> => caches.reload(ns).catch(() => undefined);
  /** Commits a batch atomically and applies it to the caches; on failure rebuilds them from the store. */
  const commit = async (ns: string, state: NamespaceState, batch: WriteBatch): Promise<void> => {
    const stamped = stamp(state, batch);
    try {
      await storage.commit(ns, stamped);
    } catch (e) {
      await rollBack(ns);
      throw e;
    }
    const release = await caches.gate(ns, true);
    try {
      state.apply(stamped);
    } finally {
      release();
    }
  };
  /**
   * Writes the namespace's checkpoint (issue 13) when `force`, or when
   * {@link CHECKPOINT_EVERY} node changes were logged since the last one. Called inside the namespace's write lock, after a commit, so the state is
   * the store's as of its latest change. A failure is logged and counted, not thrown: the store
   * stays the truth and the next open replays or rescans.
   */
  const checkpoint = async (ns: string, state: NamespaceState, force: boolean): Promise<void> => {
    // Every CHECKPOINT_EVERY changes, or a tenth of the namespace when larger: a checkpoint costs
    // O(size), so this keeps its cost per write bounded while a reopen replays ≤ 10% of it.
    const every = Math.max(CHECKPOINT_EVERY, Math.floor(state.size / 10));
    if (!(force ? state.changedSinceCheckpoint > 0 : state.changedSinceCheckpoint >= every)) return;
    const change = nextChange(state.meta) - 1;
    try {
      await storage.writeCheckpoint(ns, await state.checkpoint(change, encoder.fingerprint));
      state.markCheckpointed();
    } catch (e) {
      // A reader's checkpoint (after replaying another process's changes) while that process
      // writes: the writer keeps the checkpoints; nothing failed.
      if (isWriterElsewhere(e)) return;
      tally(ns).checkpointFailures++;
      logger('warn', `the checkpoint of namespace ${JSON.stringify(ns)} could not be written (${errorText(e)}); the next open replays the logged changes or rescans the store`, { code: 'CHECKPOINT_FAILED', namespace: ns, error: e });
    }
  };
  const pendingOf = (state: NamespaceState): string[] => {
    const p = state.meta[MAINTENANCE_PENDING_META_KEY];
    return Array.isArray(p) ? p.filter((x): x is string => typeof x === 'string') : [];
  };
  /** A failed switch to HNSW keeps the exact index; it is logged and counted, never dropped. */
  const upgradeVector = async (ns: string, state: NamespaceState): Promise<void> => {
    const failed = await state.maybeUpgradeVector();
    if (failed === undefined) return;
    tally(ns).vectorUpgradeFailures++;
    logger('warn', `the vector index of namespace ${JSON.stringify(ns)} could not switch to HNSW (${errorText(failed.error)}); it stays exact (correct, slower per write and recall)`, {
      code: 'VECTOR_UPGRADE_FAILED',
      namespace: ns,
      error: failed.error,
    });
  };

  /**
   * One maintenance pass of `ns` (issue 22: plan, then commit): its System-One request is
   * planned outside the namespace lock; under the lock the pass is planned again over the
   * pending ids as they are then, answered from the plan, and committed. A request that changed
   * makes it plan again outside the lock ({@link MAX_REPLANS} times, then it asks under the lock).
   */
  const maintain = async (ns: string, signal?: AbortSignal, readings: StateReadings = held): Promise<MaintenanceCounts> =>
    caches.track(ns, async () => {
      const memo = new DecisionMemo();
      let nowIso: string | undefined;
      let speculative: SpeculativeMaintenance | undefined;
      const plan = async (): Promise<void> => {
        await speculate(ns, signal, async (state) => {
          speculative = undefined;
          const ids = pendingOf(state);
          if (ids.length === 0) return;
          nowIso ??= now().toISOString();
          const revision = state.revision;
          const vector = state.vector;
          const records: DecisionRecord[] = [];
          const p = await planMaintenance(state, ids, new PlanningController(controller, memo), params.maintenanceThreshold, writeCtx(signal, records), nowIso, params.stateUpdateHead, readings);
          // Kept whole when nothing changed the state while it planned (as a write's plan is).
          if (state.revision === revision && state.vector === vector) speculative = { state, revision, vector, ids, plan: p, records };
        });
      };
      await plan();
      let elsewhere = 0;
      for (let attempt = 0; ; attempt++) {
        const out = await caches.exclusive(
          ns,
          async () => {
            const state = await caches.fresh(ns, true);
            return state.use(async () => {
              const ids = pendingOf(state);
              if (ids.length === 0) return { redundant: 0, contradiction: 0, obsolete: 0, link: 0 };
              nowIso ??= now().toISOString();
              const log: DecisionRecord[] = [];
              let planned: MaintenancePlan;
              const spec = speculative;
              if (spec !== undefined && spec.state === state && spec.revision === state.revision && spec.vector === state.vector && sameIds(spec.ids, ids)) {
                // Nothing changed since the plan: it is what planning here would give (the
                // requests, hence the answers, are the same). What its commit replaces is
                // loaded (pinned) again for the apply below.
                await state.loadNodes(ids);
                await state.loadEdges(ids, false);
                await state.loadNodes((spec.plan.batch.putNodes ?? []).map((n) => n.id));
                log.push(...spec.records);
                planned = spec.plan;
              } else {
                const replay = new ReplayController(controller, memo);
                replay.strict = attempt < MAX_REPLANS; // nothing changes before the commit below
                try {
                  planned = await planMaintenance(state, ids, replay, params.maintenanceThreshold, writeCtx(signal, log), nowIso, params.stateUpdateHead, readings);
                } catch (e) {
                  if (e instanceof ReplanNeeded) return REPLAN;
                  throw e;
                }
              }
              throwIfAborted(signal);
              try {
                await commit(ns, state, { ...planned.batch, meta: { [MAINTENANCE_PENDING_META_KEY]: null } });
              } catch (e) {
                // Another writer committed since the state was loaded: commit() reloaded it; plan again.
                if (isChangedElsewhere(e) && ++elsewhere <= MAX_CHANGED_ELSEWHERE) return REPLAN;
                throw e;
              }
              countDecisions(ns, log);
              return planned.counts;
            });
          },
          signal,
        );
        if (out !== REPLAN) return out;
        tally(ns).replans++;
        await plan();
      }
    });

  /**
   * Runs a plan outside the lock over the namespace as it is ({@link NamespaceCaches.speculating}).
   * Best effort: a plan that fails (other than by the caller's abort) leaves its memo short, and
   * the commit asks what is missing under the lock, where a real failure is reported.
   */
  const speculate = async (ns: string, signal: AbortSignal | undefined, fn: (state: NamespaceState) => Promise<void>): Promise<void> => {
    try {
      await caches.speculating(ns, (state) => state.use(() => fn(state)));
    } catch (e) {
      if (signal?.aborted) throw isJevMemError(e) ? e : new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: signal.reason });
    }
  };

  /**
   * The write path over validated observations, chunk by chunk (issue 22: plan, then commit).
   * Per chunk, outside the namespace lock: embedding and typing (one batch each) and the relation
   * request of its first observation (later ones are planned against the earlier ones, which only
   * the commit applies); then, under the lock, {@link commitChunk}.
   */
  const write = async (ns: string, checked: CheckedObservation[], opts: AddManyOptions, supersedesId?: string, turn?: Turn): Promise<AddResult[]> => {
    // Side readings of the state-update head (issue 25): each text is read once for the call's
    // writes and maintenance passes (a recent turn is a candidate of many), at most
    // WRITE_READINGS_MAX while the call runs and HELD_READINGS_MAX of them kept for the next call
    // (h-writeperf); the decisions are the same without them.
    const readings = held;
    try {
      return await writeWith(ns, checked, opts, supersedesId, readings, turn);
    } finally {
      turn?.done();
      if (readings === held) held.trim(HELD_READINGS_MAX); // unless an erasure replaced them meanwhile
    }
  };

  /** {@link write} with the call's side readings. */
  const writeWith = async (ns: string, checked: CheckedObservation[], opts: AddManyOptions, supersedesId: string | undefined, readings: StateReadings, turn: Turn | undefined): Promise<AddResult[]> =>
    caches.track(ns, async () => {
      const started = performance.now();
      const chunkSize = opts.chunkSize ?? 64;
      const results: AddResult[] = [];
      for (let start = 0; start < checked.length; start += chunkSize) {
        const chunk = checked.slice(start, start + chunkSize);
        let done: { results: AddResult[]; logs: DecisionRecord[][] };
        try {
          // Issue 25: only the call's last `bulkMaintenanceMax` observations join the maintenance queue.
          const queueFrom = maintenanceQueueFrom(checked.length, start, chunk.length, params.bulkMaintenanceMax, supersedesId !== undefined);
          done = await writeChunk(ns, chunk, opts, supersedesId, readings, turn, queueFrom);
        } catch (e) {
          const err = isJevMemError(e) ? e : new JevMemError('STORAGE_FAILED', `write failed: ${errorText(e)}`, { cause: e });
          const inChunk = err.details[CHUNK_COMMITTED];
          delete err.details[CHUNK_COMMITTED];
          err.details.committed = results.length + (typeof inChunk === 'number' ? inChunk : 0);
          throw err;
        }
        results.push(...done.results);
        for (const log of done.logs) countDecisions(ns, log); // committed: now they count
        if (start + chunkSize >= checked.length) turn?.done(); // all committed: the next call may commit during the maintenance pass
        const elapsedMs = performance.now() - started;
        if (opts.onProgress !== undefined) {
          try {
            opts.onProgress({ done: results.length, total: checked.length, elapsedMs, perSecond: elapsedMs > 0 ? (results.length * 1000) / elapsedMs : 0 });
          } catch (e) {
            // The caller's callback ended the call: like an abort, what was committed stays and is counted.
            throw new JevMemError('ABORTED', `options.onProgress threw (${errorText(e)}); the write stopped after ${results.length} of ${checked.length} observation(s) were committed`, { field: 'options.onProgress', committed: results.length, cause: e });
          }
        }
        let pending = 0;
        try {
          pending = pendingOf(await caches.stateOf(ns)).length;
        } catch (reloadError) {
          const err = isJevMemError(reloadError) ? reloadError : new JevMemError('STORAGE_FAILED', `could not reload namespace ${JSON.stringify(ns)}: ${errorText(reloadError)}`, { cause: reloadError });
          err.details.committed = results.length;
          throw err;
        }
        if (params.maintenanceInterval > 0 && pending >= params.maintenanceInterval) {
          // Best effort: the chunk is committed and acknowledged, so a failed pass does not fail
          // the write; its ids stay pending in the store for the next pass. It is logged and
          // counted (stats().maintenanceFailures), not dropped.
          try {
            await maintain(ns, opts.signal, readings);
          } catch (e) {
            // The caller's abort is no maintenance failure: the call ends ABORTED, the chunk stays committed.
            if (opts.signal?.aborted) {
              const err = isJevMemError(e, 'ABORTED') ? e : new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: opts.signal.reason });
              err.details.committed = results.length;
              throw err;
            }
            tally(ns).maintenanceFailures++;
            const left = await caches.stateOf(ns).then(
              (s) => pendingOf(s).length,
              () => pending,
            );
            logger('warn', `a maintenance pass of namespace ${JSON.stringify(ns)} failed (${errorText(e)}); its ${left} node(s) stay pending for the next pass`, { code: 'MAINTENANCE_FAILED', namespace: ns, error: e });
          }
        }
      }
      return results;
    });

  /** One chunk: its plan outside the lock, then its commit under it (re-planned while what it read changed). */
  const writeChunk = async (ns: string, chunk: CheckedObservation[], opts: AddManyOptions, supersedesId: string | undefined, readings: StateReadings, turn: Turn | undefined, queueFrom: number): Promise<{ results: AddResult[]; logs: DecisionRecord[][] }> => {
    // The call's issue time (issue 22): writes of a namespace are stamped in the order they were
    // called, as they commit, whatever order their plans start in (memory/issue-order.ts).
    const nowIso = turn !== undefined ? new Date(turn.at).toISOString() : now().toISOString();
    throwIfAborted(opts.signal);
    // Embedding and typing in one batch per chunk (SPEC 4 step 2: one typing request per observation, one round trip per chunk).
    const vectors = await encoder.embed(
      chunk.map((c) => c.text),
      opts.signal,
    );
    const typing = await controller.askMany(
      'typing',
      chunk.map((c) => typingRequest(passageOf(c.text), c.provenance.speaker, c.observedAtMs !== undefined ? new Date(c.observedAtMs).toISOString() : undefined)),
      writeCtx(opts.signal),
    );
    // Ids are drawn once per node, in the order the writes plan them, and kept across re-plans.
    return commitPlanned(ns, chunk, { vectors, typing, nowIso, memo: new DecisionMemo(), ids: [], queueFrom }, opts, supersedesId, readings, turn);
  };

  /**
   * {@link writeChunk} once its chunk is embedded and typed: the plan of its first observation
   * outside the lock, then {@link commitChunk} under it, planned again while what it read changed.
   * A chunk of several observations refused because another process committed meanwhile
   * (`CHANGED_ELSEWHERE`; issue 22) is committed again one observation at a time: the store keeps
   * its writer lock from a refusal to the next commit (Node: `WRITER_RETRY_HOLD_MS`), which a
   * re-plan of one observation reaches, while a whole chunk's re-plan outlasted it and was refused
   * again and again; the other process gets the lock between those commits. The model's answers
   * of the chunk's first plan are replayed (`memo`), so what is asked again is what changed.
   */
  const commitPlanned = async (
    ns: string,
    chunk: CheckedObservation[],
    made: ChunkInputs,
    opts: AddManyOptions,
    supersedesId: string | undefined,
    readings: StateReadings,
    turn: Turn | undefined,
  ): Promise<{ results: AddResult[]; logs: DecisionRecord[][] }> => {
    const { vectors, typing, nowIso, memo, ids } = made;
    const first = chunk[0] as CheckedObservation;
    const speculative: { current?: SpeculativePlan | undefined } = {};
    const plan = (): Promise<void> =>
      speculate(ns, opts.signal, async (state) => {
        speculative.current = undefined;
        const observedAt = first.observedAtMs !== undefined ? new Date(first.observedAtMs).toISOString() : undefined;
        const key = dedupKey(first.text, observedAt, first.provenance.source, dedupScopeOf(first.provenance.metadata), first.provenance.metadata, first.provenance.speaker);
        if (supersedesId === undefined && state.dedupCandidate(key) !== undefined) return; // a repeat asks nothing
        const id = (ids[0] ??= newId());
        const revision = state.revision;
        const vector = state.vector;
        const planner = new PlanningController(controller, memo);
        const records: DecisionRecord[] = [];
        const input = { id, checked: first, vector: vectors[0] as Float32Array, encoder: encoder.fingerprint, types: typesFrom((typing[0] as (typeof typing)[number]).response), nowIso };
        const p = await planWrite(ns, supersedesId !== undefined ? { ...input, replaces: supersedesId } : input, state, planner, params, writeCtx(opts.signal, records), readings);
        // Kept whole when no write changed the state while it planned: a commit that finds the
        // state still so uses it as it is instead of planning it again.
        if (state.revision === revision && state.vector === vector) speculative.current = { state, revision, vector, plan: p, records };
      });
    await plan();
    // Issue order: the calls of this namespace issued before this one commit first (their
    // changes are what the commit below re-checks the plan against).
    if (turn !== undefined) await turn.ready;
    const elsewhere = { left: MAX_CHANGED_ELSEWHERE };
    for (let attempt = 0; ; attempt++) {
      const out = await caches.exclusive(ns, () => commitChunk(ns, chunk, { vectors, typing, nowIso, memo, ids, queueFrom: made.queueFrom, strict: attempt < MAX_REPLANS, speculative: speculative.current, elsewhere, readings }, opts, supersedesId), opts.signal);
      if (out === SPLIT) return commitOneByOne(ns, chunk, made, opts, readings);
      if (out !== REPLAN) return out;
      tally(ns).replans++;
      await plan();
    }
  };

  /** {@link commitPlanned} of each observation of a chunk in turn (after a refusal: see there); the committed count of a failure counts the earlier ones. */
  const commitOneByOne = async (ns: string, chunk: CheckedObservation[], made: Parameters<typeof commitPlanned>[2], opts: AddManyOptions, readings: StateReadings): Promise<{ results: AddResult[]; logs: DecisionRecord[][] }> => {
    const done: { results: AddResult[]; logs: DecisionRecord[][] } = { results: [], logs: [] };
    for (let i = 0; i < chunk.length; i++) {
      const ids = made.ids[i] === undefined ? [] : [made.ids[i] as string];
      const one = { ...made, vectors: made.vectors.slice(i, i + 1), typing: made.typing.slice(i, i + 1), ids, queueFrom: i >= made.queueFrom ? 0 : 1 };
      try {
        const part = await commitPlanned(ns, chunk.slice(i, i + 1), one, opts, undefined, readings, undefined);
        done.results.push(...part.results);
        done.logs.push(...part.logs);
      } catch (e) {
        const err = isJevMemError(e) ? e : new JevMemError('STORAGE_FAILED', `write failed: ${errorText(e)}`, { cause: e });
        const inPart = err.details[CHUNK_COMMITTED];
        err.details[CHUNK_COMMITTED] = done.results.length + (typeof inPart === 'number' ? inPart : 0);
        throw err;
      }
      made.ids[i] = ids[0] as string;
    }
    return done;
  };

  /**
   * The commit of one chunk, under the namespace lock: each observation planned over the state
   * as it is now (answered from the plan's memo), applied for the next one, and the chunk
   * committed atomically, then the caches. {@link REPLAN} when the first request changed since it
   * was planned and `strict` (nothing changed yet).
   */
  const commitChunk = async (
    ns: string,
    chunk: CheckedObservation[],
    planned: ChunkInputs & {
      strict: boolean;
      speculative: SpeculativePlan | undefined;
      /** Refusals of the commit for a change by another writer still allowed ({@link MAX_CHANGED_ELSEWHERE}). */
      elsewhere: { left: number };
      /** The write call's state-update side readings ({@link WRITE_READINGS_MAX}). */
      readings: StateReadings;
    },
    opts: AddManyOptions,
    supersedesId: string | undefined,
  ): Promise<{ results: AddResult[]; logs: DecisionRecord[][] } | typeof REPLAN | typeof SPLIT> => {
    const { vectors, typing, nowIso, ids } = planned;
    const state = await caches.fresh(ns, true);
    return state.use(async () => {
      const batch: WriteBatch = { putNodes: [], putEdges: [] };
      const chunkResults: AddResult[] = [];
      const chunkLogs: DecisionRecord[][] = [];
      const written: string[] = []; // ids the chunk adds to the maintenance queue (planned.queueFrom on)
      const replay = new ReplayController(controller, planned.memo);
      let changed = false;
      let release: (() => void) | undefined;
      let chunkCommitted = false;
      try {
        throwIfAborted(opts.signal);
        refuseIfDamaged(ns, state);
        await upgradeVector(ns, state);
        if (supersedesId !== undefined && !state.nodes.has(supersedesId)) throw new JevMemError('NOT_FOUND', `no node ${JSON.stringify(supersedesId)} in namespace ${JSON.stringify(ns)}`, { field: 'id' });
        if (supersedesId !== undefined) await refuseStaleVersion(state, supersedesId, ns); // CONFLICT: a newer version replaced it meanwhile
        release = await caches.gate(ns, true); // from here the caches hold uncommitted changes: no reader may look
        // Observations planned after the chunk's first change, waiting for their relation answers.
        const deferred: Array<{ at: number; prepared: PreparedWrite; log: DecisionRecord[] }> = [];
        for (let i = 0; i < chunk.length; i++) {
          const c = chunk[i] as CheckedObservation;
          const decided = typing[i] as (typeof typing)[number];
          const log: DecisionRecord[] = [decided.record];
          chunkLogs.push(log);
          const observedAt = c.observedAtMs !== undefined ? new Date(c.observedAtMs).toISOString() : undefined;
          const keyed = { text: c.text, observedAt, provenance: c.provenance };
          const key = nodeDedupKey(keyed);
          let dup: MemoryNode | undefined;
          // The node's key, then the keys without speaker or metadata an older checkpoint holds
          // it under (plane/resident/keys.ts). The directory keeps a 53-bit hash of the key:
          // compare the real keys before merging (a node of another speaker is not a repeat).
          for (const k of [key, ...nodeOlderDedupKeys(keyed)]) {
            const dupId = state.dedupCandidate(k);
            if (dupId === undefined) continue;
            await state.loadNodes([dupId]);
            const hit = state.nodes.get(dupId);
            if (hit !== undefined && nodeDedupKey(hit) === key) {
              dup = hit;
              break;
            }
          }
          if (dup !== undefined && supersedesId === undefined) {
            // Exact repeat: keep one node, keep every provenance (issue 7 item 4).
            const merged: MemoryNode = { ...dup, duplicates: [...(dup.duplicates ?? []), { ...c.provenance, ingestedAt: nowIso }] };
            const b: WriteBatch = { putNodes: [merged] };
            state.apply(b);
            changed = true;
            (batch.putNodes as MemoryNode[]).push(merged);
            chunkResults.push({ id: dup.id, deduplicated: true, edges: 0, systemOne: summariseDecisions(log, controller.backend.modelId) });
            continue;
          }
          const inputOf = (id: string): WriteInputs => ({ id, checked: c, vector: vectors[i] as Float32Array, encoder: encoder.fingerprint, types: typesFrom(decided.response), nowIso, ...(supersedesId !== undefined ? { replaces: supersedesId } : {}) });
          // An id drawn by an attempt that planned again is kept: one newId() per node, as before.
          const id = ids[i] ?? newId();
          if (typeof id !== 'string' || id === '' || state.nodes.has(id)) {
            // Never let an id overwrite a stored node (a custom newId that repeats itself).
            throw invalidOption('newId', `returned ${JSON.stringify(id)}, which is ${typeof id !== 'string' || id === '' ? 'not a non-empty string' : 'the id of an existing node'}; ids must be unique`);
          }
          ids[i] = id;
          if (changed && supersedesId === undefined) {
            // Bulk (issue 25): an observation after the chunk's first change is planned now, over
            // the state with the earlier ones applied, all but its relation answers; its relation
            // request joins the chunk's one batch below. Its node (and the older nodes its state
            // updates supersede) are applied now, since the next observations read them; its
            // edges are applied after the batch, in the order per-write planning gives them
            // (planning reads no edge of the chunk: each one has a node of the chunk as an end).
            throwIfAborted(opts.signal); // Ctrl-C is seen between observations, as when each asked its own request
            const prepared = await prepareWrite(ns, inputOf(id), state, params, planned.readings);
            const b: WriteBatch = { putNodes: [prepared.node, ...prepared.superseded] };
            state.apply(b);
            (batch.putNodes as MemoryNode[]).push(...(b.putNodes as MemoryNode[]));
            deferred.push({ at: chunkResults.length, prepared, log });
            chunkResults.push({ id, deduplicated: false, edges: 0, systemOne: summariseDecisions(log, controller.backend.modelId) });
            if (i >= planned.queueFrom) written.push(prepared.node.id);
            continue;
          }
          replay.strict = planned.strict && !changed; // a miss after changes is asked here, under the lock
          const spec = planned.speculative;
          let plannedWrite: PlannedWrite;
          if (i === 0 && spec !== undefined && spec.state === state && spec.revision === state.revision && spec.vector === state.vector && spec.plan.node.id === id) {
            // Nothing changed since the plan: it is what planning here would give. What it read
            // is loaded (pinned) again for the apply below.
            const lastIds = [state.lastId, state.scopes.lastIdOf(spec.plan.node.provenance.metadata)].filter((x): x is string => x !== undefined);
            await state.loadNodes([...lastIds, ...spec.plan.candidates, ...spec.plan.superseded.map((n) => n.id)]);
            log.push(...spec.records);
            plannedWrite = spec.plan;
          } else {
            plannedWrite = await planWrite(ns, inputOf(id), state, replay, params, writeCtx(opts.signal, log), planned.readings);
          }
          const b: WriteBatch = { putNodes: [plannedWrite.node, ...plannedWrite.superseded], putEdges: plannedWrite.edges };
          if (supersedesId !== undefined) await state.loadNodes([supersedesId]);
          const supersedes = supersedesId === undefined ? undefined : state.nodes.get(supersedesId);
          if (supersedes !== undefined) {
            // Explicit update (issue 7 item 1): the old node stays, marked superseded and linked.
            const old: MemoryNode = { ...supersedes, status: 'superseded', supersededBy: [...new Set([...supersedes.supersededBy, plannedWrite.node.id])] };
            const e = finishEdge(ns, { from: plannedWrite.node.id, to: old.id, view: 'semantic', subtype: 'updates', weight: 1, origin: { kind: 'rule', by: EXPLICIT_UPDATE } }, nowIso);
            (b.putNodes as MemoryNode[]).push(old);
            (b.putEdges as MemoryEdge[]).push(e);
          }
          state.apply(b); // visible to the next observation of the chunk; rolled back by reload on failure
          changed = true;
          (batch.putNodes as MemoryNode[]).push(...(b.putNodes as MemoryNode[]));
          (batch.putEdges as MemoryEdge[]).push(...(b.putEdges as MemoryEdge[]));
          chunkResults.push({ id: plannedWrite.node.id, deduplicated: false, edges: plannedWrite.edges.length, systemOne: summariseDecisions(log, controller.backend.modelId) });
          if (i >= planned.queueFrom) written.push(plannedWrite.node.id);
        }
        if (deferred.length > 0) {
          // One System-One call for the relation requests of the whole chunk (issue 25): they are
          // the requests per-write planning asks one by one (same state, same candidates), so the
          // answers, hence the edges, are the same. Its deadline is the one the per-write calls
          // had in all (writeDeadlineMs per request).
          replay.strict = false;
          const asking = deferred.filter((d) => d.prepared.request !== undefined);
          const ctx = writeCtx(opts.signal);
          ctx.deadline = Date.now() + params.writeDeadlineMs * Math.max(1, asking.length);
          const decisions = await replay.askMany('relation', asking.map((d) => d.prepared.request as SystemOneRequest), ctx);
          const answers = new Map(asking.map((d, k) => [d, decisions[k] as Decision]));
          const edges: MemoryEdge[] = [];
          for (const d of deferred) {
            const decision = answers.get(d);
            if (decision !== undefined) d.log.push(decision.record);
            const done = finishWrite(ns, d.prepared, decision?.response, params, nowIso);
            edges.push(...done.edges);
            chunkResults[d.at] = { id: done.node.id, deduplicated: false, edges: done.edges.length, systemOne: summariseDecisions(d.log, controller.backend.modelId) };
          }
          state.apply({ putEdges: edges });
          (batch.putEdges as MemoryEdge[]).push(...edges);
        }
        throwIfAborted(opts.signal);
        // Repeated puts of one node (dedup of a node written in the same chunk) collapse to the last.
        const lastPut = new Map<string, MemoryNode>();
        for (const n of batch.putNodes as MemoryNode[]) lastPut.set(n.id, n);
        batch.putNodes = [...lastPut.values()];
        if (written.length > 0) batch.meta = { [MAINTENANCE_PENDING_META_KEY]: [...pendingOf(state), ...written] };
        const stamped = stamp(state, batch);
        await storage.commit(ns, stamped);
        chunkCommitted = true;
        state.apply({ meta: stamped.meta as Record<string, unknown> });
        await checkpoint(ns, state, false);
        state.releasePins(); // the chunk is committed: what it read need not stay pinned
      } catch (e) {
        if (!changed) {
          if (e instanceof ReplanNeeded) return REPLAN;
          throw e; // nothing was applied: the caches are as they were
        }
        await rollBack(ns);
        // Another writer committed since the state was loaded (issue 22): nothing of the chunk
        // was written; it is planned again over the namespace as the store now holds it.
        if (!chunkCommitted && isChangedElsewhere(e) && planned.elsewhere.left-- > 0) return chunk.length > 1 && supersedesId === undefined ? SPLIT : REPLAN;
        // A write that met a damaged record (issue 22) is refused as such, whatever it tripped on.
        const damaged = isJevMemError(e, 'STORE_DAMAGED') ? undefined : damagedError(ns, state.unreadableIds());
        const err = damaged ?? (isJevMemError(e) ? e : new JevMemError('STORAGE_FAILED', `write failed: ${errorText(e)}`, { cause: e }));
        // A chunk whose commit went through counts even when what follows it (the checkpoint)
        // failed: write() adds it to the committed count.
        if (chunkCommitted) err.details[CHUNK_COMMITTED] = chunkResults.length;
        throw err;
      } finally {
        release?.();
      }
      return { results: chunkResults, logs: chunkLogs };
    });
  };
  /**
   * Removes node `id` (with `versions`, every version of it: versionIdsOf) in one commit, again
   * over the store as it is when another writer committed first. The ids removed, oldest first;
   * none when the namespace holds no node `id` or `keep` refuses it.
   */
  const removing = async (ns: string, id: string, versions: boolean, signal?: AbortSignal, keep?: NodePredicate): Promise<string[]> => {
    for (let elsewhere = 0; ; elsewhere++) {
      const state = await caches.fresh(ns, true);
      try {
        return await state.use(() => removeFrom(ns, state, id, versions, signal, keep));
      } catch (e) {
        // Another writer committed since the state was loaded (issue 22): the caches were
        // reloaded by the failed commit; the delete is made again over the store as it is.
        if (!isChangedElsewhere(e) || elsewhere >= MAX_CHANGED_ELSEWHERE) throw e;
      }
    }
  };
  const removeFrom = async (ns: string, state: NamespaceState, id: string, versions: boolean, signal?: AbortSignal, keep?: NodePredicate): Promise<string[]> => {
    if (!state.nodes.has(id)) return [];
    throwIfAborted(signal);
    await state.loadNodes([id]);
    // A node outside the call's scope is answered as one the namespace does not hold.
    const node = state.nodes.get(id);
    if (keep !== undefined && (node === undefined || !keep(node))) return [];
    // The versions of a memory stay in its scope (Memory.update), so `keep` keeps them all.
    let ids = [id];
    if (versions) {
      ids = await versionIdsOf(state, id, Number.POSITIVE_INFINITY);
      await state.loadNodes(ids);
      const seq = (x: string): number => state.nodes.get(x)?.seq ?? Number.POSITIVE_INFINITY;
      ids.sort((a, b) => seq(a) - seq(b));
    }
    const plan = await planRemoval(state, ns, ids, now().toISOString());
    const batch: WriteBatch = { deleteNodeIds: ids, deleteEdgeIds: plan.deleteEdgeIds };
    if (plan.nodes.length > 0) batch.putNodes = plan.nodes;
    if (plan.edges.length > 0) batch.putEdges = plan.edges;
    const pending = pendingOf(state);
    if (pending.some((x) => ids.includes(x))) batch.meta = { [MAINTENANCE_PENDING_META_KEY]: pending.filter((x) => !ids.includes(x)) };
    if (ids.some((x) => state.nodes.get(x) === undefined)) {
      // A damaged record (issue 22): its body is unknown, so the resident state cannot take it
      // out piece by piece. The delete is committed with the old checkpoint dropped in the same
      // transaction, and the state rebuilt from the store.
      const stamped = stamp(state, batch);
      stamped.checkpoint = null;
      try {
        await storage.commit(ns, stamped);
      } catch (e) {
        await rollBack(ns);
        throw e;
      }
      await checkpoint(ns, await caches.reload(ns), true);
      evictReadings();
      return ids;
    }
    await commitErasing(ns, state, batch);
    return ids;
  };
  /**
   * Commits a batch that deletes nodes (issue 22, exact erasure). The batch carries the namespace's new checkpoint (built from the state with the
   * batch applied, so without the deleted nodes' terms, names or vectors) and the store replaces
   * the old one in the same transaction: no moment, crash or failure leaves a checkpoint holding
   * the deleted text beside a store without it, and a failure leaves the node and the old
   * checkpoint as they were (the caches are rebuilt from the store). The deleted texts also leave
   * the process caches ({@link WritePathDeps.evictText}).
   */
  const commitErasing = async (ns: string, state: NamespaceState, batch: WriteBatch): Promise<void> => {
    const texts = (batch.deleteNodeIds ?? []).flatMap((id) => {
      const n = state.nodes.get(id);
      return n === undefined ? [] : [n.text];
    });
    const stamped = stamp(state, batch);
    const release = await caches.gate(ns, true);
    try {
      state.apply(stamped);
      stamped.checkpoint = await state.checkpoint(stamped.change as number, encoder.fingerprint);
      await storage.commit(ns, stamped);
      state.markCheckpointed();
    } catch (e) {
      await rollBack(ns);
      throw e;
    } finally {
      release();
    }
    evictReadings();
    deps.evictText?.(texts);
  };

  return {
    write,
    remove: async (ns, id, signal, keep) => (await removing(ns, id, false, signal, keep)).length > 0,
    removeVersions: (ns, id, signal, keep) => removing(ns, id, true, signal, keep),
    maintain,
    stamp,
    commit,
    checkpoint: (ns, state) => checkpoint(ns, state, true),
    counts: (ns) => ({ ...tally(ns) }),
    evictReadings,
  };
}

/**
 * The provenance of an update's new version: the given fields, and the old node's `speaker`,
 * `sessionId` and `source` where the update gives none; `turnId` and `metadata` only as given,
 * except the scope (`metadata.userId`, `metadata.agentId`) and the expiry (`metadata.expiresAt`),
 * kept from the old node unless the update gives its own, and, when the update names no speaker,
 * the speaker's role (`metadata.role`).
 */
export function updateProvenance(old: Provenance, given: Provenance): Provenance {
  const out: Provenance = {};
  for (const key of ['source', 'speaker', 'sessionId'] as const) {
    const v = given[key] ?? old[key];
    if (v !== undefined) out[key] = v;
  }
  if (given.turnId !== undefined) out.turnId = given.turnId;
  if (given.metadata !== undefined) out.metadata = given.metadata;
  // The scope (issue 23: metadata userId / agentId) and the expiry stay with the memory across
  // versions: an update of a memory that was to be erased at a time is erased at that time too
  // (a door code kept for a day stays a day's secret when it changes), unless it gives its own;
  // the speaker's role (metadata.role) stays with the speaker when the new version names none.
  for (const key of ['userId', 'agentId', 'expiresAt', ...(given.speaker === undefined ? (['role'] as const) : [])] as const) {
    const v = old.metadata?.[key];
    if (v !== undefined && out.metadata?.[key] === undefined) out.metadata = { ...out.metadata, [key]: v };
  }
  return out;
}
