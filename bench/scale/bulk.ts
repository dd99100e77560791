/**
 * The bulk-import figure of `bench scale` (issue 25), in a module the bench page can bundle (no
 * Node built-ins): Node, the Chromium page and the workerd half report it alike.
 *
 * @module
 */

/**
 * Bulk import at one size (issue 25): the observations from the previous size up to the timed
 * writes, written as a user importing history would, through ONE `addMany` call (chunks of
 * {@link SCALE_BULK_CHUNK}, maintenance passes included). Absent in runs before issue 25, and
 * where the segment was empty.
 */
export interface BulkImportFigures {
  observations: number;
  /** Wall time of the call, ms. */
  ms: number;
  /** Memories per second over the call. */
  perSecond: number;
  /** Observations per atomic commit (`AddManyOptions.chunkSize`). */
  chunkSize: number;
}

/** Chunk size of the bulk import ({@link BulkImportFigures}): `addMany`'s default. */
export const SCALE_BULK_CHUNK = 64;

/** {@link BulkImportFigures} of `observations` written in `ms`, or undefined when none were. */
export function bulkFigures(observations: number, ms: number, chunkSize = SCALE_BULK_CHUNK): BulkImportFigures | undefined {
  if (observations <= 0) return undefined;
  return { observations, ms, perSecond: ms > 0 ? (observations * 1000) / ms : 0, chunkSize };
}

