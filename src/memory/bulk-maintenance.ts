/**
 * Which observations of a bulk write call join the maintenance queue (issue 25; SPEC 4 step 7;
 * `MemoryParameters.bulkMaintenanceMax`): the last `max` of a call of several observations, all
 * of a single one. An observation left out is written, typed, linked and decided against its K_w
 * candidates as any write; it only gets no maintenance pass (the wider neighbourhood), so the
 * maintenance of a long import costs O(`max`) passes' worth, not O(its length).
 *
 * @module
 */

/**
 * The index, within the chunk `[start, start + chunkLength)` of a call of `total` observations,
 * of the first observation that joins the maintenance queue: `0` when all of the chunk's do,
 * `chunkLength` when none does.
 * @param total Observations of the call (≥ 1).
 * @param start Index of the chunk's first observation in the call.
 * @param chunkLength Observations of the chunk.
 * @param max `bulkMaintenanceMax` (a non-negative number): the call's last this many are queued.
 * @param explicitUpdate The call is an explicit update (`Memory.update`): always queued.
 */
export function maintenanceQueueFrom(total: number, start: number, chunkLength: number, max: number, explicitUpdate = false): number {
  if (total <= 1 || explicitUpdate) return 0;
  const firstQueued = total - max; // index in the call of the first observation queued
  return Math.min(chunkLength, Math.max(0, firstQueued - start));
}
