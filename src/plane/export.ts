/**
 * The versioned export file of one namespace (issue 7 item 3): nodes, edges, embeddings with the
 * encoder fingerprint, and the System-One model version. Loading refuses unknown formats and
 * versions.
 *
 * @module
 */
import { JevMemError, invalidInput } from '../errors.js';
import type { MemoryEdge, MemoryNode } from '../types.js';

/** Format tag of export files. */
export const EXPORT_FORMAT = 'jev-mem/export' as const;
/** Current export version. Files of a higher version are refused. */
export const EXPORT_VERSION = 1 as const;

/** An export file (JSON). */
export interface MemoryExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  namespace: string;
  /** ISO-8601. */
  exportedAt: string;
  /** Fingerprint of the encoder that made every embedding. */
  encoder: string;
  /** System-One model id that made the system-one edges. */
  systemOne: string;
  nodes: MemoryNode[];
  edges: MemoryEdge[];
  meta: Record<string, unknown>;
}

/**
 * Checks that `value` is an export file this build can read.
 * @throws JevMemError `INVALID_INPUT` (not an export, field named) or `SCHEMA_MISMATCH` (newer version).
 */
export function checkExport(value: unknown): MemoryExport {
  if (value === null || typeof value !== 'object') throw invalidInput('export', 'expected a jev-mem export object');
  const v = value as Partial<MemoryExport>;
  if (v.format !== EXPORT_FORMAT) throw invalidInput('export.format', `expected "${EXPORT_FORMAT}", got ${JSON.stringify(v.format)}`);
  if (typeof v.version !== 'number') throw invalidInput('export.version', 'expected a number');
  if (v.version > EXPORT_VERSION) {
    throw new JevMemError('SCHEMA_MISMATCH', `export version ${v.version} is newer than this build reads (${EXPORT_VERSION}); upgrade jev-mem`, { field: 'export.version' });
  }
  if (typeof v.namespace !== 'string' || v.namespace === '') throw invalidInput('export.namespace', 'expected a non-empty string');
  if (typeof v.encoder !== 'string') throw invalidInput('export.encoder', 'expected the encoder fingerprint');
  if (!Array.isArray(v.nodes)) throw invalidInput('export.nodes', 'expected an array');
  if (!Array.isArray(v.edges)) throw invalidInput('export.edges', 'expected an array');
  v.nodes.forEach((n, i) => {
    if (!n || typeof n.id !== 'string' || typeof n.text !== 'string' || !n.embedding || !Array.isArray(n.embedding.vector)) {
      throw invalidInput(`export.nodes[${i}]`, 'expected a node with id, text and embedding');
    }
  });
  v.edges.forEach((e, i) => {
    if (!e || typeof e.id !== 'string' || typeof e.from !== 'string' || typeof e.to !== 'string') throw invalidInput(`export.edges[${i}]`, 'expected an edge with id, from and to');
  });
  return v as MemoryExport;
}
