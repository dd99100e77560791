/**
 * The line `jev-mem ingest` prints when it is done. Its counts come from what this ingest itself
 * committed (the results of `addMany`, one per observation), not from the namespace's totals:
 * another process writing into or deleting from the same store meanwhile cannot change them.
 * The namespace's totals, read once after the write, are printed apart under `namespaceTotals`.
 *
 * @module
 */
import type { AddResult, MemoryStats } from '../memory.js';

/** What `jev-mem ingest` prints (one JSON line on stdout). */
export interface IngestSummary {
  /** The namespace written. */
  namespace: string;
  /** Observations this ingest committed (one per input observation). */
  ingested: number;
  /** New nodes this ingest wrote: `ingested` less `deduplicated`. */
  nodes: number;
  /** Observations merged into a node the namespace already held (exact repeats). */
  deduplicated: number;
  /** Edges this ingest wrote with its nodes. */
  edges: number;
  /**
   * The namespace's counts read after the write (`stats()`): they include what other writers
   * added or deleted before and meanwhile, so they may differ from the counts above.
   */
  namespaceTotals: Pick<MemoryStats, 'nodes' | 'edges' | 'edgesByView'>;
  /** Wall time of the write, in seconds (3 decimals). */
  seconds: number;
  /** `ingested` per second of `seconds`, rounded. */
  turnsPerSecond: number;
  /** The System One and encoder of the memory, as `stats()` names them. */
  systemOne: MemoryStats['systemOne'];
  encoder: MemoryStats['encoder'];
}

/**
 * The summary of one ingest.
 * @param results - What `addMany` returned for this ingest, one per observation.
 * @param stats - The namespace's stats read after the write.
 * @param seconds - Wall time of the write, in seconds.
 */
export function ingestSummary(results: readonly AddResult[], stats: MemoryStats, seconds: number): IngestSummary {
  const deduplicated = results.filter((r) => r.deduplicated).length;
  return {
    namespace: stats.namespace,
    ingested: results.length,
    nodes: results.length - deduplicated,
    deduplicated,
    edges: results.reduce((sum, r) => sum + r.edges, 0),
    namespaceTotals: { nodes: stats.nodes, edges: stats.edges, edgesByView: stats.edgesByView },
    seconds: Math.round(seconds * 1000) / 1000,
    turnsPerSecond: Math.round(results.length / seconds),
    systemOne: stats.systemOne,
    encoder: stats.encoder,
  };
}
