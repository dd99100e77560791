/**
 * The namespace meta value that keeps the open of a namespace O(1) when nothing in it is due
 * (issue 22; the erasure itself is expiry.ts): {@link EXPIRY_META_KEY}, a lower bound of the
 * expiry times of the namespace's live memories, kept by every commit (`stamp` adds
 * {@link expiryMeta}).
 *
 * @module
 */
import { isoMs } from '../read/filter.js';
import { CHANGE_META_KEY, type WriteBatch } from '../plane/store/storage.js';
import type { MemoryNode } from '../types.js';

/** Namespace meta key: the earliest time (epoch ms) a live memory of the namespace may expire, or {@link NO_EXPIRY}. */
export const EXPIRY_META_KEY = 'expiresNext' as const;

/** Value of {@link EXPIRY_META_KEY} when no live memory has an expiry. */
export const NO_EXPIRY = 'none' as const;

/** The expiry time of a node in epoch ms (`metadata.expiresAt`), or undefined when it has none. */
export function expiryMs(n: Pick<MemoryNode, 'provenance'>): number | undefined {
  return isoMs(n.provenance.metadata?.['expiresAt']);
}

/**
 * The {@link EXPIRY_META_KEY} entry a commit adds to its meta, given the namespace meta before
 * it: the earliest expiry of the live nodes it puts when that is earlier than the kept value; on
 * the first commit of a namespace the key itself ({@link NO_EXPIRY} when nothing expires). A
 * namespace committed to before the key existed gets none (its next open records it). Empty when
 * the batch sets the key itself or changes nothing.
 */
export function expiryMeta(before: Readonly<Record<string, unknown>>, batch: WriteBatch): Record<string, unknown> {
  if (batch.meta !== undefined && EXPIRY_META_KEY in batch.meta) return {};
  let earliest: number | undefined;
  for (const n of batch.putNodes ?? []) {
    if (n.status === 'deleted') continue;
    const at = expiryMs(n);
    if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
  }
  const kept = before[EXPIRY_META_KEY];
  if (typeof kept === 'number') return earliest !== undefined && earliest < kept ? { [EXPIRY_META_KEY]: earliest } : {};
  if (kept === NO_EXPIRY) return earliest !== undefined ? { [EXPIRY_META_KEY]: earliest } : {};
  // No key: a new namespace starts it; one written before the key waits for its open pass.
  if (before[CHANGE_META_KEY] === undefined) return { [EXPIRY_META_KEY]: earliest ?? NO_EXPIRY };
  return {};
}
