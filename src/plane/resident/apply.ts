/**
 * Applying a committed batch to a namespace's resident part and caches (issue 13): deletes
 * first, then puts, then edges and meta, in the batch's order, so the state equals the one a
 * rebuild from the store gives. Nodes the batch deletes or replaces must be loaded
 * (body-cache.ts), since their bodies say what the bookkeeping takes out.
 *
 * @module
 */
import type { MemoryNode } from '../../types.js';
import type { WriteBatch } from '../store/storage.js';
import type { BodyCache } from './body-cache.js';
import { contentHash } from './node-directory.js';
import type { ResidentCore } from './resident-core.js';

/**
 * Applies `batch` to `core` and `bodies`, and its meta changes to `meta` (in place; `null`
 * removes a key).
 * @returns the number of node ids it put or deleted (what the next checkpoint must cover).
 * @throws JevMemError `STORAGE_FAILED` when a deleted or replaced node was not loaded.
 */
export function applyBatch(core: ResidentCore, bodies: BodyCache, meta: Record<string, unknown>, batch: WriteBatch): number {
  if (core.vectors.deferred) core.vectors.touch([...(batch.putNodes ?? []).map((n) => n.id), ...(batch.deleteNodeIds ?? [])]);
  // Lists of one subtype are not kept up to date across commits (a node's may be in the cache
  // for any subtype): a commit that touches edges or removes nodes drops them all.
  if ((batch.putEdges ?? []).length + (batch.deleteEdgeIds ?? []).length + (batch.deleteNodeIds ?? []).length > 0) bodies.clearKinds();
  if ((batch.deleteEdgeIds ?? []).length > 0) bodies.dropEdges(new Set(batch.deleteEdgeIds));
  for (const id of batch.deleteNodeIds ?? []) removeNode(core, bodies, id);
  for (const n of batch.putNodes ?? []) {
    if (core.dir.has(n.id)) replaceNode(core, bodies, n);
    else {
      core.add(n);
      bodies.cacheNode(n);
      bodies.cacheEdges(n.id, []);
    }
  }
  for (const e of batch.putEdges ?? []) bodies.putEdge(e);
  if (batch.meta) {
    for (const [k, v] of Object.entries(batch.meta)) {
      if (v === null) delete meta[k];
      else meta[k] = v;
    }
  }
  return (batch.putNodes ?? []).length + (batch.deleteNodeIds ?? []).length;
}

/** A new version of a held node: re-indexed when its content or deletion state changed, else updated in place. */
function replaceNode(core: ResidentCore, bodies: BodyCache, n: MemoryNode): void {
  const old = bodies.loaded(n.id);
  if (contentHash(old) !== contentHash(n) || (old.status === 'deleted') !== (n.status === 'deleted')) {
    // Rare (an import or a deleted node brought back): re-index it; its edges are unchanged
    // in the store but leave the cache, which reloads them when asked.
    removeNode(core, bodies, n.id);
    core.add(n);
    bodies.cacheNode(n);
    bodies.clearEdges();
    return;
  }
  bodies.cacheNode(n);
  core.update(old, n);
}

/** Takes a held node out of the caches (its edges at both ends too) and the resident part. */
function removeNode(core: ResidentCore, bodies: BodyCache, id: string): void {
  if (!core.dir.has(id)) return;
  const n = bodies.loaded(id);
  bodies.forgetNode(id);
  core.remove(n);
}
