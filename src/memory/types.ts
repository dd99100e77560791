/**
 * Call options and results shared by the memory's modules (re-exported by `memory.ts`, where the
 * rest of the public API is declared).
 *
 * @module
 */

/** Per-call options shared by every operation. */
export interface CallOptions {
  /**
   * Namespace of the call, under the namespace rule of plane/store/names.ts (1-256 UTF-8 bytes,
   * NFC, nothing invisible, no white space at either end). @default the memory's namespace
   */
  namespace?: string;
  /** Cancels the call (JevMemError `ABORTED`). */
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

/** Options of `Memory.addMany`. */
export interface AddManyOptions extends CallOptions {
  /** Called after each committed chunk. */
  onProgress?: (p: WriteProgress) => void;
  /** Observations per atomic storage commit. @default 64 */
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
  /** True when an exact repeat (same text, time and source) was merged into an existing node. */
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
}
