/**
 * The injectable logger (as MiniSearch's `logger` option): where the library reports a failure it
 * recovered from without failing the call (a vector index that could not be upgraded, a storage
 * compaction that will be retried, a best-effort maintenance pass). Each such report is also
 * counted where the caller looks (`Memory.stats()`), so a silent logger loses no information.
 *
 * @module
 */

/** Severity of a {@link LogEntry}: `warn` (degraded, nothing lost), `error` (something needs attention). */
export type LogLevel = 'warn' | 'error';

/** What one report carries besides its message. */
export interface LogEntry {
  /**
   * Stable id of the kind of event: `VECTOR_UPGRADE_FAILED`, `COMPACTION_FAILED`,
   * `MAINTENANCE_FAILED`, `TRASH_NOT_EMPTIED`, `HANDLE_NOT_CLOSED`, `CHECKPOINT_FAILED`,
   * `CHECKPOINT_DAMAGED` (a checkpoint failed its checksum or could not be decoded, and the
   * namespace was rebuilt from its stored records; issue 22), `EXPIRY_DEFERRED` (the expired
   * memories of a namespace could not be erased when it was opened; reads hide them),
   * `RECORDS_DAMAGED` (a recall left out memory records the store could not read, and answered
   * from the rest: `trace.damaged`, `stats().damaged`; issue 22).
   */
  code: string;
  /** Namespace concerned, when there is one. */
  namespace?: string;
  /** The error that was recovered from. */
  error?: unknown;
}

/**
 * Receives reports of recovered failures.
 * @param level `warn` or `error`.
 * @param message What failed, the value, and what happens now (one line, English).
 * @param entry The stable code, namespace and error.
 */
export type Logger = (level: LogLevel, message: string, entry: LogEntry) => void;

/** The default logger: `console.warn` / `console.error` with the code in front. */
export const consoleLogger: Logger = (level, message, entry) => {
  const write = level === 'error' ? console.error : console.warn;
  write.call(console, `jev-mem ${entry.code}: ${message}`);
};

/** A logger that drops every report (for callers that read the counts in `stats()` instead). */
export const silentLogger: Logger = () => undefined;

/** `String(e)` for any thrown value, the message for an Error. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
