/**
 * What an import rebuilds of an export file's bookkeeping across records (issue 22), after each
 * record passed its own checks (plane/store/export.ts `checkExport`) and before anything is
 * written. A file this library writes needs none of it; an edited, merged or tampered one would
 * otherwise be stored as it is, with wrong results and no word:
 *
 * - `seq` (the order of ingestion `list` pages by) must be unique in a namespace: a cursor is
 *   the last seq returned, so two nodes of one seq lose one of them at a page boundary. Nodes
 *   sharing a seq with an earlier one (in seq order, then file order) get the next free one,
 *   later nodes move up as needed; the order of the file is kept.
 * - `supersededBy` names the newer versions of a node: an id the file does not hold (or the
 *   node's own) is dropped, and a `superseded` node left without a newer version becomes
 *   `active` again, as deleting its successor would make it (relink.ts); kept as is it would stay
 *   demoted in recall for ever. A scoped export (`export({ scope })`) may leave a newer version
 *   out of the file.
 * - An edge whose `from` or `to` is not a node of the file joins nothing: it is dropped (the
 *   nodes a store held damaged, listed in the file's `damaged`, are such ends).
 *
 * Each is counted, so the import's result says what was rebuilt.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { MemoryEdge, MemoryNode } from '../types.js';

/** Counts of what {@link repairImport} rebuilt; each 0 for a file as this library writes it. */
export interface ImportRepairs {
  /** Nodes whose `seq` an earlier node (in seq order, then file order) already had. */
  seqShared: number;
  /**
   * Nodes given a new `seq`: those of {@link ImportRepairs.seqShared} and the later ones moved up
   * to make room (so at least `seqShared`).
   */
  seqRenumbered: number;
  /** Nodes whose `supersededBy` named a node the file does not hold, the node itself or one node twice (dropped; `active` when no newer version is left), or `superseded` nodes without any newer version. */
  successorsDropped: number;
  /** Edges dropped because one of their ends is not a node of the file. */
  edgesDropped: number;
}

/**
 * The file's nodes and edges with their cross-record bookkeeping rebuilt (see the module
 * comment); records that need nothing are returned as they are (same objects). O((n + e) log n).
 * @param nodes - The file's nodes, each checked (`checkExport`), ids unique.
 * @param edges - The file's edges, each checked.
 * @param field - Name of the nodes array in errors (`export.nodes`).
 * @throws JevMemError `INVALID_INPUT` naming `export.nodes[i].seq` when a repeated seq cannot be
 *   moved up within the safe integers (the file's seqs reach 2^53 − 1).
 */
export function repairImport(nodes: readonly MemoryNode[], edges: readonly MemoryEdge[], field = 'export.nodes'): { nodes: MemoryNode[]; edges: MemoryEdge[]; repairs: ImportRepairs } {
  const repairs: ImportRepairs = { seqShared: 0, seqRenumbered: 0, successorsDropped: 0, edgesDropped: 0 };
  const out = [...nodes];
  // Unique seqs: in (seq, file index) order, each takes its own seq or the one after the previous.
  const order = out.map((_, i) => i).sort((a, b) => (out[a] as MemoryNode).seq - (out[b] as MemoryNode).seq || a - b);
  let previous = 0;
  let previousGiven: number | undefined; // the seq the file gave the node before (in this order)
  for (const i of order) {
    const n = out[i] as MemoryNode;
    if (n.seq === previousGiven) repairs.seqShared++;
    previousGiven = n.seq;
    const seq = Math.max(n.seq, previous + 1);
    if (!Number.isSafeInteger(seq)) throw invalidInput(`${field}[${i}].seq`, `seq ${n.seq} is another node's and no higher safe integer is free; give each node its own seq`);
    if (seq !== n.seq) {
      out[i] = { ...n, seq };
      repairs.seqRenumbered++;
    }
    previous = seq;
  }
  const ids = new Set(out.map((n) => n.id));
  for (const [i, n] of out.entries()) {
    const kept = [...new Set(n.supersededBy.filter((s) => s !== n.id && ids.has(s)))];
    const orphan = n.status === 'superseded' && kept.length === 0;
    if (kept.length === n.supersededBy.length && !orphan) continue;
    out[i] = { ...n, supersededBy: kept, status: kept.length === 0 ? 'active' : n.status };
    repairs.successorsDropped++;
  }
  const keptEdges = edges.filter((e) => ids.has(e.from) && ids.has(e.to));
  repairs.edgesDropped = edges.length - keptEdges.length;
  return { nodes: out, edges: keptEdges, repairs };
}
