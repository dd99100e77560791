/**
 * The one error family of jev-mem. Every error the library throws on purpose is a
 * {@link JevMemError} with a stable {@link JevMemErrorCode}; messages say what failed, the value,
 * what was expected and which option fixes it.
 *
 * @module
 */
import { quoteVisible } from './util/invisible.js';

/**
 * Stable error codes. Codes never change meaning between versions; new codes may be added.
 *
 * | code | when |
 * |---|---|
 * | `INVALID_INPUT` | an observation, query or argument is malformed (the `field` names it) |
 * | `INVALID_OPTION` | an option is unknown or has a bad value (the `field` names it) |
 * | `NOT_FOUND` | a node, namespace or store does not exist |
 * | `CONFLICT` | the call contradicts what is stored: `update` of a version that a newer version already replaced (`details.activeId` names the version to update); `compactIdbDatabase()` while a memory on that IndexedDB database is open in the origin (`details.inUse`, field `dbName`; nothing changed) |
 * | `STORE_MISSING` | the store directory / database is missing and `create` was not allowed |
 * | `STORAGE_FAILED` | the storage adapter failed; nothing was written |
 * | `QUOTA_EXCEEDED` | the browser or disk refused the write for lack of space; nothing was written |
 * | `SCHEMA_MISMATCH` | stored data has a schema version this build cannot read |
 * | `ENCODER_MISMATCH` | stored or imported embeddings come from another encoder |
 * | `LANGUAGE_MISMATCH` | the `language` option gives a namespace another language than the one stored with it (`details.stored`, `details.given`; field `language` or `language.<namespace>`); pass `changeLanguage: true` to change it |
 * | `MODEL_LOAD_FAILED` | a model file is missing, corrupt or fails its checksum |
 * | `DEPENDENCY_MISSING` | an optional peer package is needed and not installed (`details.package` names it: `npm i <package>`) |
 * | `SYSTEM_ONE_FAILED` | a System-One backend failed (network, worker crash, bad answer) |
 * | `SYSTEM_ONE_INVALID_REQUEST` | a System-One request breaks the wire contract (SPEC 5) |
 * | `SYSTEM_TWO_NOT_CONFIGURED` | `answer()` was called without a System-Two endpoint |
 * | `SYSTEM_TWO_HTTP` | System Two answered with a non-2xx status |
 * | `SYSTEM_TWO_TIMEOUT` | System Two did not answer within the timeout |
 * | `SYSTEM_TWO_BAD_RESPONSE` | System Two answered with a body that is not a chat completion |
 * | `ABORTED` | the caller's `AbortSignal` fired |
 * | `CLOSED` | the memory was used after `close()` |
 * | `TOO_LARGE` | a text or body is over its documented limit |
 * | `FORBIDDEN` | the caller's credentials do not allow the call: a Worker token bound to one user (`JEV_MEM_TOKENS`) naming another scope, or asking for a whole-namespace operation (HTTP 403) |
 * | `STORE_DAMAGED` | stored records failed their checksum or SQLite reports the file malformed; writes are refused until `jev-mem repair` (`details.ids` names the damaged node ids); a delete, forget or reset SQLite refuses on a malformed page erases nothing more, names what is still stored in `details.stillStored` (`{namespace, ids?}`) and in `details.run` the `jev-mem delete` / `forget` commands that erase it by a copy |
 */
export type JevMemErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_OPTION'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'STORE_MISSING'
  | 'STORAGE_FAILED'
  | 'QUOTA_EXCEEDED'
  | 'SCHEMA_MISMATCH'
  | 'ENCODER_MISMATCH'
  | 'LANGUAGE_MISMATCH'
  | 'MODEL_LOAD_FAILED'
  | 'DEPENDENCY_MISSING'
  | 'SYSTEM_ONE_FAILED'
  | 'SYSTEM_ONE_INVALID_REQUEST'
  | 'SYSTEM_TWO_NOT_CONFIGURED'
  | 'SYSTEM_TWO_HTTP'
  | 'SYSTEM_TWO_TIMEOUT'
  | 'SYSTEM_TWO_BAD_RESPONSE'
  | 'ABORTED'
  | 'CLOSED'
  | 'TOO_LARGE'
  | 'FORBIDDEN'
  | 'STORE_DAMAGED';

/** Every code, for validation and documentation. */
export const ERROR_CODES: readonly JevMemErrorCode[] = Object.freeze([
  'INVALID_INPUT',
  'INVALID_OPTION',
  'NOT_FOUND',
  'CONFLICT',
  'STORE_MISSING',
  'STORAGE_FAILED',
  'QUOTA_EXCEEDED',
  'SCHEMA_MISMATCH',
  'ENCODER_MISMATCH',
  'LANGUAGE_MISMATCH',
  'MODEL_LOAD_FAILED',
  'DEPENDENCY_MISSING',
  'SYSTEM_ONE_FAILED',
  'SYSTEM_ONE_INVALID_REQUEST',
  'SYSTEM_TWO_NOT_CONFIGURED',
  'SYSTEM_TWO_HTTP',
  'SYSTEM_TWO_TIMEOUT',
  'SYSTEM_TWO_BAD_RESPONSE',
  'ABORTED',
  'CLOSED',
  'TOO_LARGE',
  'FORBIDDEN',
  'STORE_DAMAGED',
] as const);

/** Extra, machine-readable facts attached to an error. */
export interface JevMemErrorDetails {
  /** The input field or option at fault, as a dotted path (`observation.observedAt`). */
  field?: string;
  /** HTTP status for the `*_HTTP` codes. */
  status?: number;
  /** The underlying error, when one exists. */
  cause?: unknown;
  /** Anything else worth logging (never secrets). */
  [key: string]: unknown;
}

/**
 * Key of {@link JevMemErrorDetails} set on the `STORAGE_FAILED` error of a store that another
 * live process is writing (its `{ pid, host }`): a reader's own opportunistic work (a checkpoint
 * at close) is skipped on it rather than reported.
 */
export const WRITER_ELSEWHERE = 'writerElsewhere' as const;

/** True for the error of a store that another live process is writing ({@link WRITER_ELSEWHERE}). */
export function isWriterElsewhere(e: unknown): boolean {
  return isJevMemError(e, 'STORAGE_FAILED') && e.details[WRITER_ELSEWHERE] !== undefined;
}

/**
 * The error class of jev-mem. `name` is always `'JevMemError'`; branch on `code`.
 *
 * @example
 * ```ts
 * try { await memory.add({ text: '' }); }
 * catch (e) { if (isJevMemError(e) && e.code === 'INVALID_INPUT') console.log(e.field); }
 * ```
 */
export class JevMemError extends Error {
  override readonly name = 'JevMemError' as const;
  /** Stable code, see {@link JevMemErrorCode}. */
  readonly code: JevMemErrorCode;
  /** The field or option at fault, when there is one. */
  readonly field: string | undefined;
  /** HTTP status, for errors that come from an HTTP answer. */
  readonly status: number | undefined;
  /** Extra details (see {@link JevMemErrorDetails}). */
  readonly details: JevMemErrorDetails;

  constructor(code: JevMemErrorCode, message: string, details: JevMemErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.field = details.field;
    this.status = details.status;
    this.details = details;
  }

  /** A plain object that survives `structuredClone` / `postMessage` (used across workers). */
  toJSON(): { name: 'JevMemError'; code: JevMemErrorCode; message: string; field?: string; status?: number } {
    const out: { name: 'JevMemError'; code: JevMemErrorCode; message: string; field?: string; status?: number } = {
      name: this.name,
      code: this.code,
      message: this.message,
    };
    if (this.field !== undefined) out.field = this.field;
    if (this.status !== undefined) out.status = this.status;
    return out;
  }

  /** Rebuilds an error from {@link JevMemError.toJSON} output (the worker transfer handler uses it). */
  static fromJSON(value: { code: JevMemErrorCode; message: string; field?: string; status?: number }): JevMemError {
    const details: JevMemErrorDetails = {};
    if (value.field !== undefined) details.field = value.field;
    if (value.status !== undefined) details.status = value.status;
    return new JevMemError(value.code, value.message, details);
  }
}

/** True when `e` is a {@link JevMemError} (optionally with the given code). */
export function isJevMemError(e: unknown, code?: JevMemErrorCode): e is JevMemError {
  return e instanceof JevMemError && (code === undefined || e.code === code);
}

/** Shorthand for an `INVALID_INPUT` error naming `field`. */
export function invalidInput(field: string, message: string): JevMemError {
  return new JevMemError('INVALID_INPUT', `${field}: ${message}`, { field });
}

/** Shorthand for an `INVALID_OPTION` error naming `field`. */
export function invalidOption(field: string, message: string): JevMemError {
  return new JevMemError('INVALID_OPTION', `option ${field}: ${message}`, { field });
}

/**
 * A value as an error message shows it after "got": numbers as they print (`10`, `NaN`), every
 * other type with its type named, so a stringified number cannot pass for a number
 * (`"10" (a string)`, `true (a boolean)`, `null`, `undefined`, `an array`, `an object`). A `Date`
 * shows its instant (`a Date (2024-03-10T10:00:00.000Z)`), or `an invalid Date` when it holds
 * none (`new Date('nope')`). Strings longer than 40 characters are cut with `…`; invisible
 * characters in a string show as escapes (`"a\u200bb" (a string)`, util/invisible.ts).
 * @example `expected a positive integer, got ${describeValue('10')}` → `… got "10" (a string)`
 */
export function describeValue(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return String(v);
    case 'string':
      return `${quoteVisible(v.length > 40 ? `${v.slice(0, 40)}…` : v, Number.POSITIVE_INFINITY)} (a string)`;
    case 'boolean':
      return `${String(v)} (a boolean)`;
    case 'bigint':
      return `${String(v)}n (a bigint)`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : `a Date (${v.toISOString()})`;
      return v === null ? 'null' : Array.isArray(v) ? `an array of ${v.length}` : 'an object';
  }
}

/** Throws `ABORTED` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: signal.reason });
  }
}
