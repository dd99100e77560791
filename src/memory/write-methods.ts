/**
 * The write methods of a memory (SPEC 4): `add` / `addMany` / `update` (checked, then the write
 * path: plan outside the namespace lock, commit under it), `delete`, `forget` and `reset`
 * (erasure), and `export` / `import` (memory/transfer.ts). Every change is one atomic storage
 * commit through the write path; nothing is half-written.
 *
 * @module
 */
import { JevMemError, describeValue, invalidInput, isJevMemError, throwIfAborted } from '../errors.js';
import { shellQuote } from '../util/shell-quote.js';
import type { MemoryNode, Provenance } from '../types.js';
import type { Memory } from './api.js';
import type { MemoryContext } from './context.js';
import { toObservation } from './input.js';
import { isExpired, refuseStaleVersion, selection } from './list.js';
import { ADD_MANY_OPTION_KEYS, ADD_OPTION_KEYS, EXPORT_OPTION_KEYS, IMPORT_OPTION_KEYS, SCOPED_ID_OPTION_KEYS, checkIdArgument, checkOptionKeys, scopePredicate } from './options.js';
import { exportNamespace, importNamespace } from './transfer.js';
import type { Turn } from './issue-order.js';
import type { AddResult, ScopedCallOptions } from './types.js';
import type { NodePredicate } from '../read/filter.js';
import { checkAddMany, checkObservation } from './validate.js';
import { updateProvenance } from './write.js';

/** Why `add` / `addMany` refuse an observation already due ({@link refuseDue}). */
const NEVER_SHOWN = 'the memory would never be returned by any read; give a later expiresAt, or leave it out for a lasting memory';

/** The keys {@link Memory.reset} accepts. */
const RESET_OPTION_KEYS = ['namespace', 'signal', 'filter', 'scope'] as const;

/**
 * Refuses a `reset` selection that is given but empty (`{}`): erasing is only ever whole-namespace
 * when the caller leaves `scope` and `filter` out.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
function refuseEmptySelection(value: unknown, field: string): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) {
    throw invalidInput(field, 'is empty, which selects every memory; leave scope and filter out to erase the whole namespace on purpose');
  }
}

/**
 * Refuses an observation whose expiry (`metadata.expiresAt`) is at or before `nowMs`, the write's
 * time on the memory's clock: it would be hidden from every read at once (list.ts `isExpired`).
 * The rule of `add`, `addMany` and `update` alike.
 * @param field - The observation's path (`observation`, `observations[3]`); the error names `<field>.expiresAt`.
 * @param why - What writing it would do, for the message.
 * @throws JevMemError `INVALID_INPUT` naming `<field>.expiresAt`.
 */
function refuseDue(provenance: Provenance, nowMs: number, field: string, why: string): void {
  if (isExpired({ provenance }, nowMs)) throw invalidInput(`${field}.expiresAt`, `is already due (${String(provenance.metadata?.['expiresAt'])}): ${why}`);
}

/** The write methods of {@link Memory}, over one memory's shared state. */
/**
 * The error of a `reset` whose `delete` of `left[0]` the store refused on a malformed page
 * (`STORE_DAMAGED` with `details.run`, `plane/store/sqlite-erasures.ts`): says how many it
 * erased and which selected memories are still stored (`details.stillStored.ids`: `left`), with
 * a `jev-mem delete` per memory in `details.run`. Any other error is returned as it is.
 */
function resetRefused(e: unknown, ns: string, left: readonly string[], deleted: number, selected: number): unknown {
  const run = isJevMemError(e, 'STORE_DAMAGED') ? (e.details as { run?: unknown }).run : undefined;
  if (!isJevMemError(e) || !Array.isArray(run) || typeof run[0] !== 'string') return e;
  const head = `jev-mem delete ${shellQuote(left[0]!)}`;
  const first = run[0];
  if (!first.startsWith(head)) return e;
  const commands = left.map((id) => `jev-mem delete ${shellQuote(id)}${first.slice(head.length)}`);
  return new JevMemError(
    'STORE_DAMAGED',
    `reset erased ${deleted} of the ${selected} memories it selected in namespace ${JSON.stringify(ns)}, then stopped: ${left.length} selected memories are still stored (details.stillStored.ids). ${e.message.replace(/ To erase all the same, .*$/s, '')} ` +
      `To erase them all the same, close this memory (and every other process using the store) and run the ${commands.length} jev-mem delete command(s) of details.run (the first: ${commands[0]}); each erases by a copy, as jev-mem repair does (records on the damaged pages are not copied)`,
    { cause: e, ids: [], field: 'store', run: commands, stillStored: { namespace: ns, ids: [...left] } },
  );
}

export type WriteMethods = Pick<Memory, 'add' | 'addMany' | 'update' | 'delete' | 'deleteVersions' | 'forget' | 'reset' | 'export' | 'import'>;

/** The write methods of the memory `ctx` belongs to (see the {@link Memory} TSDoc for each). */
export function writeMethods(ctx: MemoryContext): WriteMethods {
  const { defaultNamespace, storage, params, now, caches, writes, order, expiry, transfer, ensureOpen, nsOf, heldNsOf, openScoped, notFound, evictTexts, internal } = ctx;
  /**
   * Runs `fn` with the next turn of `ns` in the issue order (memory/issue-order.ts), taken now,
   * synchronously with the call's issue time (the default `ingestedAt` of what it writes), and
   * ended when `fn` settles (or earlier, by the write path).
   */
  const inTurn = async <T>(ns: string, fn: (turn: Turn) => Promise<T>): Promise<T> => {
    const turn = order.take(ns, now().getTime());
    try {
      return await fn(turn);
    } finally {
      turn.done();
    }
  };
  /** Deletes (exactly, one commit each) every node of `ns` that `select` keeps; found by one scan of the store. */
  const eraseWhere = async (ns: string, select: (n: MemoryNode) => boolean, signal?: AbortSignal): Promise<number> => {
    const ids: string[] = [];
    for await (const batch of storage.scanNodes(ns, 512)) {
      throwIfAborted(signal);
      for (const n of batch) if (n.status !== 'deleted' && select(n)) ids.push(n.id);
    }
    let deleted = 0;
    for (const [i, id] of ids.entries()) {
      try {
        if (await caches.exclusive(ns, () => writes.remove(ns, id, signal), signal)) deleted++;
      } catch (e) {
        throw resetRefused(e, ns, ids.slice(i), deleted, ids.length);
      }
    }
    return deleted;
  };

  /**
   * Runs an erasure of memory `id` (`delete`, `deleteVersions`) in its turn of the issue order,
   * under the namespace's write lock. openScoped's checks run synchronously up to the
   * namespace's first-touch expiry pass: the turn is taken right after them, so it is taken when
   * the call is made.
   */
  const removeInTurn = async <R>(id: string, o: ScopedCallOptions | undefined, remove: (ns: string, keep: NodePredicate | undefined) => Promise<R>): Promise<R> => {
    checkIdArgument(id);
    const opened = openScoped(o);
    let turn: Turn | undefined;
    try {
      turn = order.take(nsOf(o), now().getTime());
    } catch {
      // An invalid namespace: `opened` rejects with its error, thrown below (a failing clock: the write path's read of it throws).
    }
    try {
      const { ns, keep } = await opened;
      await turn?.ready;
      return await caches.exclusive(ns, () => remove(ns, keep), o?.signal);
    } finally {
      turn?.done();
    }
  };

  return {
    async add(observation, o) {
      ensureOpen();
      checkOptionKeys(o, ADD_OPTION_KEYS);
      throwIfAborted(o?.signal);
      const ns = nsOf(o);
      const checked = checkObservation(toObservation(observation, 'observation', o?.scope), 'observation', params.maxTextChars);
      refuseDue(checked.provenance, now().getTime(), 'observation', NEVER_SHOWN);
      return inTurn(ns, async (turn) => {
        await expiry.open(ns);
        // The write takes the namespace lock for its commit only (issue 22: plan, then commit),
        // after the calls issued before it (its turn).
        return (await writes.write(ns, [checked], o ?? {}, undefined, turn))[0] as AddResult;
      });
    },

    async addMany(observations, o) {
      ensureOpen();
      checkOptionKeys(o, ADD_MANY_OPTION_KEYS);
      throwIfAborted(o?.signal);
      // Array.from visits the holes of a sparse array (map skips them): `[, x]` names observations[0].
      const inputs = Array.isArray(observations) ? Array.from(observations, (x: unknown, i) => toObservation(x, `observations[${i}]`, o?.scope)) : observations;
      const { ns, checked } = checkAddMany(inputs, o, defaultNamespace, params.maxTextChars);
      const nowMs = now().getTime();
      checked.forEach((c, i) => refuseDue(c.provenance, nowMs, `observations[${i}]`, NEVER_SHOWN)); // before anything is written
      return inTurn(ns, async (turn) => {
        await expiry.open(ns);
        return writes.write(ns, checked, o ?? {}, undefined, turn);
      });
    },

    async update(id, observation, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      checkIdArgument(id);
      throwIfAborted(o?.signal);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      const checked = checkObservation(toObservation(observation, 'observation', undefined, o?.scope), 'observation', params.maxTextChars);
      return inTurn(ns, async (turn) => {
        await expiry.open(ns);
        // The old node is read now; the write's commit checks again, under the lock, that it is still there.
        const old = await caches.reading(ns, async (state) => {
          if (!state.nodes.has(id)) throw notFound(id, ns);
          await state.loadNodes([id]);
          // A memory of another scope is answered as an unknown id (its existence is not shown).
          if (keep !== undefined && !keep(state.nodes.get(id) as MemoryNode)) throw notFound(id, ns);
          await refuseStaleVersion(state, id, ns); // CONFLICT before any encoding or System-One call
          return state.nodes.get(id) as MemoryNode;
        });
        const provenance = updateProvenance(old.provenance, checked.provenance);
        // A version stays in its memory's scope (issue 23): its `updates` edge and history would
        // otherwise join two users' (or agents') memories.
        for (const key of ['userId', 'agentId'] as const) {
          const was = old.provenance.metadata?.[key];
          if (provenance.metadata?.[key] !== was) throw invalidInput(`observation.${key}`, `differs from the memory's ${key} (${was === undefined ? 'none' : JSON.stringify(was)}): an update keeps the scope; add a new memory for another ${key === 'userId' ? 'user' : 'agent'}`);
        }
        refuseDue(provenance, now().getTime(), 'observation', 'the new version would hide itself and the old one; delete the memory instead');
        return (await writes.write(ns, [{ ...checked, provenance }], o ?? {}, id, turn))[0] as AddResult;
      });
    },

    delete: (id, o) => removeInTurn(id, o, (ns, keep) => writes.remove(ns, id, o?.signal, keep)),

    deleteVersions: (id, o) => removeInTurn(id, o, (ns, keep) => writes.removeVersions(ns, id, o?.signal, keep)),

    async forget(namespace) {
      ensureOpen();
      const ns = await heldNsOf(namespace ?? null, 'namespace');
      await caches.exclusive(ns, async () => {
        await storage.dropNamespace(ns);
        caches.drop(ns);
        expiry.forget(ns);
        evictTexts(undefined);
      });
    },

    async reset(o) {
      ensureOpen();
      checkOptionKeys(o, RESET_OPTION_KEYS);
      throwIfAborted(o?.signal);
      refuseEmptySelection(o?.filter, 'options.filter');
      refuseEmptySelection(o?.scope, 'options.scope');
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      if (keep === undefined) {
        const ns = await heldNsOf(o?.namespace);
        const { nodes } = await storage.counts(ns);
        await internal().forget(ns);
        return { deleted: nodes };
      }
      const ns = nsOf(o);
      return { deleted: await eraseWhere(ns, keep, o?.signal) };
    },

    async export(o) {
      ensureOpen();
      checkOptionKeys(o, EXPORT_OPTION_KEYS);
      throwIfAborted(o?.signal);
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      const ns = await heldNsOf(o?.namespace);
      await expiry.open(ns);
      return caches.exclusive(ns, () => exportNamespace(transfer, ns, keep, o?.signal), o?.signal);
    },

    async import(data, o) {
      ensureOpen();
      checkOptionKeys(o, IMPORT_OPTION_KEYS);
      throwIfAborted(o?.signal);
      return importNamespace(transfer, data, o);
    },
  };
}
