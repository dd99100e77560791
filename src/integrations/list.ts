/**
 * One page of a namespace's memories for the `list` tool and the LangGraph store: the fields a
 * model needs (no embeddings), oldest first, with an opaque cursor.
 *
 * INTERIM: pages over `memory.export()` (every node, embeddings included, read per page) until
 * `memory.list({cursor, limit, filter})` (issue 23, branch h-api) is merged; then this module
 * calls it instead. The order (insertion `seq`) and the result shape stay the same.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { Memory } from '../memory.js';
import type { MemoryNode } from '../types.js';

/** A listed memory: what a model or a store adapter reads, no embedding. */
export interface ListedMemory {
  id: string;
  text: string;
  status: MemoryNode['status'];
  observedAt?: string;
  speaker?: string;
  sessionId?: string;
  metadata?: Record<string, unknown>;
  /** Ingestion time, ISO-8601. */
  ingestedAt: string;
}

/** One page. */
export interface ListPage {
  memories: ListedMemory[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

function listed(n: MemoryNode): ListedMemory {
  const out: ListedMemory = { id: n.id, text: n.text, status: n.status, ingestedAt: n.ingestedAt };
  if (n.observedAt !== undefined) out.observedAt = n.observedAt;
  if (n.provenance.speaker !== undefined) out.speaker = n.provenance.speaker;
  if (n.provenance.sessionId !== undefined) out.sessionId = n.provenance.sessionId;
  if (n.provenance.metadata !== undefined) out.metadata = n.provenance.metadata;
  return out;
}

/** The cursor: the `seq` after which the next page starts, base-36 (opaque to callers). */
function readCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const seq = /^s[0-9a-z]{1,12}$/.test(cursor) ? parseInt(cursor.slice(1), 36) : NaN;
  if (!Number.isSafeInteger(seq)) throw new JevMemError('INVALID_INPUT', `cursor: ${JSON.stringify(cursor)} is not a cursor this list returned`, { field: 'cursor' });
  return seq;
}

/**
 * One page of the namespace's memories, in insertion order.
 * @param options.limit - memories per page, 1-1000.
 * @param options.namespace - @default the memory's namespace.
 * @throws JevMemError `INVALID_INPUT` (field `cursor` or `limit`); the memory's errors.
 */
export async function listPage(memory: Memory, options: { cursor?: string; limit: number; namespace?: string }): Promise<ListPage> {
  const { limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new JevMemError('INVALID_INPUT', `limit: expected an integer from 1 to 1000, got ${JSON.stringify(limit)}`, { field: 'limit' });
  const after = readCursor(options.cursor);
  const exported = await memory.export(options.namespace === undefined ? {} : { namespace: options.namespace });
  const nodes = (exported.nodes as MemoryNode[]).filter((n) => n.seq > after).sort((a, b) => a.seq - b.seq);
  const page = nodes.slice(0, limit);
  const out: ListPage = { memories: page.map(listed) };
  const last = page[page.length - 1];
  if (nodes.length > limit && last !== undefined) out.nextCursor = `s${last.seq.toString(36)}`;
  return out;
}
