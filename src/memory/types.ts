/**
 * Call options and results shared by the memory's modules (re-exported by `memory.ts`, where the
 * rest of the public API is declared).
 *
 * @module
 */
import type { MemoryFilter } from '../read/filter.js';
import type { MemoryNode } from '../types.js';

/** Per-call options shared by every operation. */
export interface CallOptions {
  /**
   * Namespace of the call, under the namespace rule of plane/store/names.ts (1-256 UTF-8 bytes,
   * NFC, nothing invisible, no white space at either end). @default the memory's namespace
   */
  namespace?: string;
  /**
   * Cancels the call (JevMemError `ABORTED`). Anything but an AbortSignal (a string, a plain
   * object, null) is refused: JevMemError `INVALID_OPTION`, field `options.signal`.
   */
  signal?: AbortSignal;
}

/** Progress of a long write (`addMany`). */
export interface WriteProgress {
  done: number;
  total: number;
  /** ms since the call started. */
  elapsedMs: number;
  /** Observations per second so far. */
  perSecond: number;
}

/** Options of `Memory.add`. */
export interface AddOptions extends CallOptions {
  /** Scope of the observations, for the fields they do not give themselves (see {@link MemoryScope}). */
  scope?: MemoryScope;
}

/** Options of `Memory.addMany`. */
export interface AddManyOptions extends AddOptions {
  /**
   * Called after each committed chunk. When it throws, `addMany` stops there: it rejects with
   * JevMemError `ABORTED` (field `options.onProgress`, `details.committed` the observations
   * committed, the thrown error as `cause`).
   */
  onProgress?: (p: WriteProgress) => void;
  /**
   * Observations per atomic storage commit, a positive integer (else JevMemError `INVALID_INPUT`,
   * field `options.chunkSize`). A chunk is the unit of the bulk
   * path (issue 25): one embedding batch, one typing call, one call for the relation requests of
   * all but its first observation (each planned over the chunk's earlier ones), one commit, then
   * at most one maintenance pass. A chunk whose relation call fails falls back to the heuristic
   * for all of them (counted per observation in `AddResult.systemOne`). Larger chunks make fewer
   * calls and commits; a failed or aborted chunk loses (and reports) up to this many.
   * @default 64
   */
  chunkSize?: number;
}

/**
 * The System-One requests made for one write and who answered them (SPEC 5, "per call budgets
 * and failure"). A request the configured backend could not answer (it failed, was later than
 * `parameters.writeDeadlineMs`, or the call cap was spent) is answered by the deterministic
 * fallback (the heuristic stand-in) and counted in `fallbacks`: the write still succeeds, but
 * its types and edges are the heuristic's.
 */
export interface WriteDecisions {
  /**
   * System-One requests made for this observation: its typing request, and its relation request
   * when it had candidates (0 or 1). Counted per request as in a recall trace's `decisions`.
   */
  calls: number;
  /** How many of `calls` were answered by the fallback instead of the configured backend. */
  fallbacks: number;
  /**
   * Model id that actually answered: the backend's, the fallback's (`heuristic-...`) when every
   * call fell back, or both joined by `+` (in the order they answered) when only some did.
   */
  model: string;
  /** Why the first fallback happened (`error: ...`, `deadline`, `call-cap`), when one did. */
  fallbackReason?: string;
}

/** Result of one write. */
export interface AddResult {
  /** Id of the node (the existing one when the observation was an exact repeat). */
  id: string;
  /** True when an exact repeat (same text, time, source, scope and metadata; `Memory.add`) was merged into an existing node. */
  deduplicated: boolean;
  /** Edges written with the node. */
  edges: number;
  /** System-One requests of this write and who answered them (see {@link WriteDecisions}). */
  systemOne: WriteDecisions;
}

/** Options of `Memory.import`. */
export interface ImportOptions extends CallOptions {
  /** Re-embed nodes whose embeddings come from another encoder instead of refusing. @default false */
  reembed?: boolean;
  /**
   * Told when each step of the import begins (issue 22: a 50,000-node file takes minutes), with
   * the file's node and edge counts and the milliseconds since the call began. The steps, in
   * order: `checking` (every record against add's rules), `embedding` (only when nodes are
   * re-embedded or edited texts derived again), `indexing` (the namespace's indexes built from
   * the file, before anything is written), `committing` (the one atomic commit: the call can no
   * longer be aborted from here), `opening` (the namespace reopened from the store). Nothing is
   * written before `committing`; an abort before it leaves the namespace as it was. A callback
   * that throws ends the call as an abort does (`ABORTED`, field `options.onProgress`).
   */
  onProgress?: (p: ImportProgress) => void;
}

/** One step of an import ({@link ImportOptions.onProgress}). */
export interface ImportProgress {
  /** The step beginning now. */
  phase: 'checking' | 'embedding' | 'indexing' | 'committing' | 'opening';
  /** Nodes in the file. */
  nodes: number;
  /** Edges in the file. */
  edges: number;
  /** Milliseconds since the import began. */
  elapsedMs: number;
}

/**
 * Scope of a memory inside one namespace (issue 23): who it belongs to. `userId` and `agentId`
 * are stored in the node's `provenance.metadata` under those keys (so `get`, `list` and `export`
 * show them there, and a filter names them as `userId` / `agentId`); `sessionId` is the
 * provenance field of that name. A namespace is still the unit of isolation and erasure; scopes
 * select inside it (recall, list, and `reset({ scope })` which erases one scope exactly).
 */
export interface MemoryScope {
  /** The end user the memory is about or from. */
  userId?: string;
  /** The agent (assistant, tool) that holds the memory. */
  agentId?: string;
  /** The conversation session (provenance `sessionId`). */
  sessionId?: string;
}

/**
 * Options of the calls that address one memory by id: `get`, `delete`, `history`, `update`.
 * With `scope`, the call acts only on a memory of that scope (each field given equals the
 * memory's); a memory of another scope is treated exactly as an id the namespace does not hold
 * (`get` → `undefined`, `delete` → `false`, `history` / `update` → `NOT_FOUND`), so a caller
 * cannot tell whether another user's memory exists.
 */
export interface ScopedCallOptions extends CallOptions {
  /** Act only on a memory of this scope (see {@link MemoryScope}). @default any memory of the namespace */
  scope?: MemoryScope;
}

/**
 * Options of `Memory.export`. With `scope` and/or `filter` (ANDed), the export holds only the
 * memories they select and the edges between two of them; without either, the whole namespace.
 */
export interface ExportOptions extends CallOptions {
  /** Export only the memories of this scope. */
  scope?: MemoryScope;
  /** Export only the memories this filter selects (read/filter.ts `MemoryFilter`). */
  filter?: MemoryFilter;
}

/** Options of `Memory.list`. */
export interface ListOptions extends CallOptions {
  /**
   * Where to continue: the `cursor` of the previous page, opaque (it carries the last sequence
   * number returned and the namespace). Absent: from the first memory.
   * @throws JevMemError `INVALID_INPUT` (field `options.cursor`) on a cursor that is not one of
   *   this API's or belongs to another namespace.
   */
  cursor?: string;
  /** Page size, an integer in [1, 1000]. @default 50 */
  limit?: number;
  /** Metadata filter (read/filter.ts `MemoryFilter`). */
  filter?: MemoryFilter;
  /** Scope (ANDed with `filter`). */
  scope?: MemoryScope;
}

/** A stored memory as `list` and `history` return it: the node without its embedding. */
export type ListedMemory = Omit<MemoryNode, 'embedding'>;

/** One page of `Memory.list`. */
export interface ListPage {
  /** The memories of the page, in insertion order (ascending `seq`); never more than `limit`. */
  memories: ListedMemory[];
  /**
   * Cursor of the next page; absent when the namespace holds nothing after this page. With a
   * filter, a page may hold fewer than `limit` memories (even none) and still have a cursor:
   * one call reads at most `LIST_SCAN_LIMIT` (5,000) nodes.
   */
  cursor?: string;
}

/** Options of `Memory.reset`. */
export interface ResetOptions extends CallOptions {
  /** Erase only the memories of this scope. */
  scope?: MemoryScope;
  /** Erase only the memories this filter selects (ANDed with `scope`). */
  filter?: MemoryFilter;
}
