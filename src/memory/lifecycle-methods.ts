/**
 * The lifecycle methods of a memory: `stats` (counts, System-One and maintenance counters, open
 * report, known damage), `maintain` (expiry, then the write path's maintenance pass),
 * `namespaces`, and `close` (settle the writes, checkpoint each changed namespace, release the
 * caches, the storage adapter and the heuristic stand-in).
 *
 * @module
 */
import { throwIfAborted } from '../errors.js';
import { VIEWS, type View } from '../types.js';
import { quoteVisible } from '../util/invisible.js';
import type { Memory, MemoryStats } from './api.js';
import type { MemoryContext } from './context.js';
import { CALL_OPTION_KEYS, checkOptionKeys } from './options.js';

/** The lifecycle methods of {@link Memory}, over one memory's shared state. */
export type LifecycleMethods = Pick<Memory, 'maintain' | 'stats' | 'namespaces' | 'close'>;

/**
 * The lifecycle methods of the memory `ctx` belongs to (see the {@link Memory} TSDoc for each).
 * @param markClosed - Marks the memory closed (later calls throw `CLOSED`); returns whether it
 *   already was, so a second `close()` does nothing.
 */
export function lifecycleMethods(ctx: MemoryContext, markClosed: () => boolean): LifecycleMethods {
  const { storage, encoder, systemOne, fallback, logger, caches, writes, expiry, calls, ensureOpen, nsOf, heldNsOf } = ctx;
  return {
    async maintain(o) {
      ensureOpen();
      checkOptionKeys(o, CALL_OPTION_KEYS);
      throwIfAborted(o?.signal);
      const ns = nsOf(o);
      // The pass of the open, run now (it also records the next expiry; memory/expiry.ts).
      const expired = await expiry.eraseDue(ns, o?.signal);
      const counts = { ...(await writes.maintain(ns, o?.signal)), expired };
      // Every erasure still pending, of any namespace and any file size (issue 22).
      await storage.vacuum();
      return counts;
    },

    async stats(o) {
      ensureOpen();
      checkOptionKeys(o, CALL_OPTION_KEYS);
      throwIfAborted(o?.signal);
      const ns = await heldNsOf(o?.namespace);
      await expiry.open(ns);
      // Memories that fell due since the open are erased first (as maintain() does), so the counts
      // are those of what list and recall can return; O(1) when the kept bound is not due.
      await expiry.sweep(ns);
      throwIfAborted(o?.signal);
      let unread: string[] = [];
      const out = await caches.reading(ns, async (state) => {
        const byView: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
        let edges = 0;
        const c = await storage.counts(ns);
        edges = c.edges;
        for (const v of VIEWS) byView[v] = c.edgesByView[v] ?? 0;
        // A damaged node the checkpoint still holds is no memory list, export or recall returns
        // (issue 22), nor is one whose record a read of this memory could not get back.
        unread = state.unreadableIds();
        const lost = [...new Set([...(await storage.damaged(ns, { scan: false })).ids, ...unread])].filter((id) => state.nodes.has(id));
        const supersededIds = state.idsWithStatus('superseded');
        const supersededSet = lost.length === 0 ? undefined : new Set(supersededIds);
        const superseded = supersededIds.length - lost.filter((id) => supersededSet?.has(id) === true).length;
        const counts = writes.counts(ns);
        const systemOneWrites: MemoryStats['systemOneWrites'] = { calls: counts.systemOneCalls, fallbacks: counts.systemOneFallbacks };
        if (counts.lastFallbackReason !== undefined) systemOneWrites.lastFallbackReason = counts.lastFallbackReason;
        const s: MemoryStats = {
          namespace: ns,
          nodes: state.nodes.size - lost.length,
          activeNodes: state.nodes.size - lost.length - superseded,
          supersededNodes: superseded,
          edges,
          edgesByView: byView,
          encoder: encoder.fingerprint,
          systemOne: systemOne.modelId,
          vectorIndex: state.vector.kind,
          systemOneWrites,
          maintenanceFailures: counts.maintenanceFailures,
          checkpointFailures: counts.checkpointFailures,
          replans: counts.replans,
          opened: { ...state.openReport },
          damaged: { count: 0, ids: [], checkpoint: state.openReport.checkpointDamaged === true },
          openNamespaces: caches.openCount,
          erasuresPending: 0,
        };
        if (state.vectorUpgradeError !== undefined) s.vectorIndexError = state.vectorUpgradeError instanceof Error ? state.vectorUpgradeError.message : String(state.vectorUpgradeError);
        return s;
      });
      // The damage already known (issue 25: no full pass per session; `jev-mem check` makes it).
      const damage = await storage.damaged(ns, { scan: false });
      const records = damage.records ?? [];
      const ids = unread.length === 0 ? damage.ids : [...new Set([...damage.ids, ...unread])].sort();
      out.damaged = { count: ids.length + (damage.unreadable ?? 0) + records.length, ids, checkpoint: out.damaged.checkpoint || damage.checkpoint };
      if (records.length > 0) out.damaged.records = records;
      out.erasuresPending = storage.pendingErasures();
      const bytes = await storage.sizeBytes(ns);
      if (bytes !== undefined) out.storageBytes = bytes;
      return out;
    },

    async namespaces() {
      ensureOpen();
      return storage.namespaces();
    },

    async close() {
      if (markClosed()) return;
      // Every call already started finishes first, reads included (a call still opening its
      // namespace would otherwise read the closed store: STORAGE_FAILED); later calls get CLOSED.
      await calls.settle();
      await caches.settle(); // writes still planning outside the lock finish first
      // A checkpoint of each namespace this memory changed, so the next open restores it
      // instead of replaying or rescanning (issue 13). Failures are logged inside.
      for (const ns of caches.loadedNamespaces()) {
        await caches
          .exclusive(ns, async () => writes.checkpoint(ns, await caches.stateOf(ns)))
          .catch((e: unknown) => logger('warn', `namespace ${quoteVisible(ns)} was closed without a checkpoint (${e instanceof Error ? e.message : String(e)})`, { code: 'CHECKPOINT_FAILED', namespace: ns, error: e }));
      }
      await caches.close();
      await storage.close();
      // The encoder and a caller-given System One belong to the caller, who closes them.
      await fallback.close();
    },
  };
}
