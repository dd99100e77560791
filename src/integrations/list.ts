/**
 * One page of a namespace's memories for the `list` tool, and the versions of the `history`
 * tool: `memory.list` / `memory.history` (no embeddings) reduced to the fields a model needs.
 *
 * @module
 */
import type { Memory } from '../memory.js';
import type { MemoryFilter } from '../read/filter.js';
import type { ListOptions, ListedMemory as StoredListedMemory, MemoryScope } from '../memory/types.js';

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
  /** Ids of the versions that replaced it (status `superseded`); absent when none did. */
  supersededBy?: string[];
  /** The caller's metadata, with the scope fields `userId` / `agentId` and `expiresAt` (ISO UTC); absent when empty. */
  metadata?: Record<string, unknown>;
}

/** One page. */
export interface ListPage {
  memories: ListedMemory[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** A stored memory (of `Memory.list` or `Memory.history`) as the tools return it. */
export function listedView(n: StoredListedMemory): ListedMemory {
  const out: ListedMemory = { id: n.id, text: n.text, status: n.status, ingestedAt: n.ingestedAt };
  if (n.observedAt !== undefined) out.observedAt = n.observedAt;
  if (n.provenance.speaker !== undefined) out.speaker = n.provenance.speaker;
  if (n.provenance.sessionId !== undefined) out.sessionId = n.provenance.sessionId;
  if (n.supersededBy.length > 0) out.supersededBy = [...n.supersededBy];
  if (n.provenance.metadata !== undefined && Object.keys(n.provenance.metadata).length > 0) out.metadata = n.provenance.metadata;
  return out;
}

/**
 * One page of the namespace's memories, in insertion order (`Memory.list`).
 * @param options.limit - memories per page, 1-1000.
 * @param options.filter - metadata filter (read/filter.ts); with one, a page may hold fewer than
 *   `limit` memories and still have a `nextCursor`.
 * @param options.scope - `userId` / `agentId` / `sessionId`, ANDed with the filter.
 * @throws JevMemError `INVALID_INPUT` (`options.cursor`, `options.limit`, `options.filter.…`,
 *   `options.scope.…`); the memory's errors.
 */
export async function listPage(memory: Memory, options: { cursor?: string; limit: number; namespace?: string; filter?: MemoryFilter; scope?: MemoryScope }): Promise<ListPage> {
  const o: ListOptions = { limit: options.limit };
  if (options.cursor !== undefined) o.cursor = options.cursor;
  if (options.namespace !== undefined) o.namespace = options.namespace;
  if (options.filter !== undefined) o.filter = options.filter;
  if (options.scope !== undefined) o.scope = options.scope;
  const page = await memory.list(o);
  const out: ListPage = { memories: page.memories.map(listedView) };
  if (page.cursor !== undefined) out.nextCursor = page.cursor;
  return out;
}
