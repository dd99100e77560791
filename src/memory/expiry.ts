/**
 * Erasing expired memories when a namespace is opened (issue 22: a private memory does not keep
 * due memories on disk indefinitely). A memory whose `metadata.expiresAt` is due is hidden from
 * every read at once (list.ts `isExpired`); it is erased — through the delete path of
 * `maintain()`, one commit with its checkpoint change each (write.ts `remove`) — by `maintain()`,
 * by `reset()`, and by the first call of a memory that touches the namespace
 * ({@link ExpiryOnOpen.open}).
 *
 * The open stays O(1) for a namespace with nothing due: every commit keeps the namespace meta
 * value `expiresNext` (expiry-meta.ts), a lower bound of the expiry times of its live memories (epoch
 * ms; `'none'` when none has one). Writes lower it (`expiryMeta`, added by `stamp`); deletes leave it (still a lower bound); an erasure pass sets it exactly. The open
 * scans only when it is due, or when a namespace written before this key has nodes (once: the
 * pass records the key).
 *
 * @module
 */
import { throwIfAborted } from '../errors.js';
import { errorText, type Logger } from '../util/logger.js';
import type { StorageAdapter } from '../plane/store/storage.js';
import { EXPIRY_META_KEY, NO_EXPIRY, expiryMs } from './expiry-meta.js';
import type { NamespaceCaches } from './concurrency.js';
import type { WritePath } from './write.js';

/** Nodes read per scan batch of an erasure pass. */
const SCAN_BATCH = 512;

/** What the open pass needs of the memory. */
export interface ExpiryDeps {
  storage: StorageAdapter;
  caches: NamespaceCaches;
  writes: Pick<WritePath, 'remove' | 'commit'>;
  now: () => Date;
  logger: Logger;
}

/** The erasure of expired memories, at open and by `maintain()`. */
export interface ExpiryOnOpen {
  /**
   * Runs once per namespace and memory, before the first call that touches it: when the kept
   * {@link EXPIRY_META_KEY} is due (or missing on a namespace with nodes), erases the due
   * memories and records the next expiry; else does nothing more than read the meta of the
   * state the call opens anyway. Calls that arrive while it runs wait for it. It does not
   * throw: a failure (e.g. another process holds the write lock) is logged as `EXPIRY_DEFERRED`
   * and left to the next open or `maintain()`, as reads hide due memories regardless.
   */
  open(ns: string): Promise<void>;
  /**
   * Erases every due memory of `ns` (one scan; one delete commit each, with its checkpoint
   * change) and records the next expiry; the number erased. Run outside `caches.exclusive`: it
   * takes the namespace lock itself.
   * @throws JevMemError `ABORTED`, `STORAGE_FAILED` and the adapter's errors.
   */
  eraseDue(ns: string, signal?: AbortSignal): Promise<number>;
  /**
   * The pass of {@link open} again, whether or not it ran: erases the due memories when the kept
   * bound is due (O(1) otherwise). Used by `stats()`, so its counts are those of what reads
   * return. Does not throw; a failure is logged as `EXPIRY_DEFERRED`.
   */
  sweep(ns: string): Promise<void>;
  /** Forgets that `ns` was checked (after `forget`: a later namespace of that name is new). */
  forget(ns: string): void;
}

/** The expiry pass of one memory. */
export function createExpiryOnOpen(deps: ExpiryDeps): ExpiryOnOpen {
  const { storage, caches, writes } = deps;
  const checked = new Map<string, Promise<void>>();

  const eraseDue = (ns: string, signal?: AbortSignal): Promise<number> =>
    caches.exclusive(
      ns,
      async () => {
        const nowMs = deps.now().getTime();
        const due: string[] = [];
        let next: number | undefined;
        for await (const batch of storage.scanNodes(ns, SCAN_BATCH)) {
          throwIfAborted(signal);
          for (const n of batch) {
            const at = n.status === 'deleted' ? undefined : expiryMs(n);
            if (at === undefined) continue;
            if (at <= nowMs) due.push(n.id);
            else if (next === undefined || at < next) next = at;
          }
        }
        let erased = 0;
        for (const id of due) if (await writes.remove(ns, id, signal)) erased++;
        // The key, exact now (a meta-only commit; nothing else runs under this lock).
        const state = await caches.fresh(ns, true);
        const value = next ?? NO_EXPIRY;
        if (state.meta[EXPIRY_META_KEY] !== value && (state.size > 0 || state.meta[EXPIRY_META_KEY] !== undefined)) {
          await writes.commit(ns, state, { meta: { [EXPIRY_META_KEY]: value } });
        }
        return erased;
      },
      signal,
    );

  const needsPass = (meta: Readonly<Record<string, unknown>>, size: number): boolean => {
    const kept = meta[EXPIRY_META_KEY];
    if (typeof kept === 'number') return kept <= deps.now().getTime();
    if (kept === NO_EXPIRY) return false;
    return size > 0; // written before the key: one pass records it
  };

  /** The pass of one open (not the caller's work: the caller's signal does not stop it). */
  const run = async (ns: string): Promise<void> => {
    try {
      if (await caches.reading(ns, (state) => needsPass(state.meta, state.size))) await eraseDue(ns);
    } catch (e) {
      deps.logger('warn', `the expired memories of namespace ${JSON.stringify(ns)} could not be erased at open (${errorText(e)}); reads hide them, and the next open or maintain() erases them`, { code: 'EXPIRY_DEFERRED', namespace: ns, error: e });
    }
  };

  return {
    open(ns) {
      let p = checked.get(ns);
      if (p === undefined) {
        p = run(ns);
        checked.set(ns, p);
      }
      return p;
    },
    eraseDue,
    sweep: run,
    forget(ns) {
      checked.delete(ns);
    },
  };
}
