/**
 * One page of a namespace's memories for the `list` tool: `memory.list` (cursor paging in
 * insertion order, no embeddings) reduced to the fields a model needs.
 *
 * @module
 */
import type { Memory } from '../memory.js';
import type { ListOptions, ListedMemory as StoredListedMemory } from '../memory/types.js';

/** A listed memory as the tool returns it. */
export interface ListedMemory {
  id: string;
  text: string;
  status: StoredListedMemory['status'];
  observedAt?: string;
  speaker?: string;
  sessionId?: string;
  /** Ingestion time, ISO-8601. */
  ingestedAt: string;
}

/** One page. */
export interface ListPage {
  memories: ListedMemory[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

function listed(n: StoredListedMemory): ListedMemory {
  const out: ListedMemory = { id: n.id, text: n.text, status: n.status, ingestedAt: n.ingestedAt };
  if (n.observedAt !== undefined) out.observedAt = n.observedAt;
  if (n.provenance.speaker !== undefined) out.speaker = n.provenance.speaker;
  if (n.provenance.sessionId !== undefined) out.sessionId = n.provenance.sessionId;
  return out;
}

/**
 * One page of the namespace's memories, in insertion order (`Memory.list`).
 * @param options.limit - memories per page, 1-1000.
 * @throws JevMemError `INVALID_INPUT` (`options.cursor`, `options.limit`); the memory's errors.
 */
export async function listPage(memory: Memory, options: { cursor?: string; limit: number; namespace?: string }): Promise<ListPage> {
  const o: ListOptions = { limit: options.limit };
  if (options.cursor !== undefined) o.cursor = options.cursor;
  if (options.namespace !== undefined) o.namespace = options.namespace;
  const page = await memory.list(o);
  const out: ListPage = { memories: page.memories.map(listed) };
  if (page.cursor !== undefined) out.nextCursor = page.cursor;
  return out;
}
