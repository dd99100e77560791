/**
 * What the method groups of a memory share (memory/read-methods.ts, write-methods.ts,
 * lifecycle-methods.ts): the wiring `createMemory()` (memory.ts) builds once per memory — the
 * storage adapter, namespace caches, write path, expiry pass, encoder, System One and Two — and
 * the small helpers every method uses (closed check, namespace of a call, NOT_FOUND error).
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { Encoder } from '../encoder/encoder.js';
import type { JevMemError } from '../errors.js';
import type { StorageAdapter } from '../plane/store/storage.js';
import type { Controller } from '../system-one/controller.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import type { SystemTwo } from '../system-two/types.js';
import type { Logger } from '../util/logger.js';
import type { Memory } from './api.js';
import type { CallTracker } from './calls.js';
import type { NamespaceCaches } from './concurrency.js';
import type { ExpiryOnOpen } from './expiry.js';
import type { IssueOrder } from './issue-order.js';
import type { PlattParameters } from './relevance.js';
import type { TransferDeps } from './transfer.js';
import type { NodePredicate } from '../read/filter.js';
import type { CallOptions, ScopedCallOptions } from './types.js';
import type { WritePath } from './write.js';

/** The shared state of one memory, handed to each method group by `createMemory()`. */
export interface MemoryContext {
  /** Namespace of a call that names none (`MemoryOptions.namespace`, checked). */
  readonly defaultNamespace: string;
  /** The storage adapter (the source of truth). */
  readonly storage: StorageAdapter;
  /** The sentence encoder (the caller's). */
  readonly encoder: Encoder;
  /** The configured System One (the caller's, or the heuristic stand-in). */
  readonly systemOne: SystemOneBackend;
  /** The heuristic stand-in the controller fails over to; the memory closes it. */
  readonly fallback: SystemOneBackend;
  /** System-One controller (backend + fallback). */
  readonly controller: Controller;
  /** Resolved parameters of the memory (SPEC 8). */
  readonly params: Readonly<MemoryParameters>;
  /** Relevance calibration of the System-One model (memory/relevance.ts); none → identity. */
  readonly calibration: Readonly<PlattParameters> | undefined;
  /** The memory's clock (checked `MemoryOptions.now`). */
  readonly now: () => Date;
  /** Receives the failures the memory recovers from. */
  readonly logger: Logger;
  /** System Two, when configured (`answer` needs it). */
  readonly systemTwo: SystemTwo | undefined;
  /** Resident namespaces, the namespace lock and its reads (memory/concurrency.ts). */
  readonly caches: NamespaceCaches;
  /** The write path (memory/write.ts). */
  readonly writes: WritePath;
  /** Issue order of `add` / `addMany` / `update` / `delete` per namespace (memory/issue-order.ts). */
  readonly order: IssueOrder;
  /** The erasure of expired memories at open and by `maintain()` (memory/expiry.ts). */
  readonly expiry: ExpiryOnOpen;
  /** What export and import need (memory/transfer.ts). */
  readonly transfer: TransferDeps;
  /** @throws JevMemError `CLOSED` once the memory was closed. */
  ensureOpen(): void;
  /** The namespace a call names, else the default. @throws JevMemError `INVALID_INPUT` (namespace name). */
  nsOf(o?: CallOptions): string;
  /**
   * The namespace of a call that only reads or removes one (`forget`, `export`, `stats`,
   * `reset`): as {@link nsOf}, but a name the rule refuses is accepted when the store holds it
   * (memory/validate.ts `heldNamespaceOf`). @throws JevMemError `INVALID_INPUT` naming `field`.
   */
  heldNsOf(value: unknown, field?: string): Promise<string>;
  /**
   * The start of a call on one memory id (`get`, `edges`, `delete`): the closed check, the
   * option keys (`namespace`, `signal`, `scope`), the namespace, the scope predicate (`undefined`
   * without a scope) and the expiry pass of the namespace's first touch.
   * @throws JevMemError `CLOSED`, `INVALID_OPTION` (an unknown option, naming it),
   *   `INVALID_INPUT` (namespace name; `options.scope…`).
   */
  openScoped(o: ScopedCallOptions | undefined): Promise<{ ns: string; keep: NodePredicate | undefined }>;
  /** The `NOT_FOUND` error (field `id`) of an id unknown to `ns`. */
  notFound(id: unknown, ns: string): JevMemError;
  /** Drops the process caches of erased texts (all of them for `undefined`). */
  evictTexts(texts: readonly string[] | undefined): void;
  /** The memory object itself (answerStream → answer: a call of its own, refused once closed). */
  self(): Memory;
  /**
   * The methods one call runs as part of itself (answer → recall, reset → forget): counted in
   * {@link calls}, and refused (`CLOSED`) only once `close()` released the store, so a call that
   * started before `close()` finishes instead of failing half-way.
   */
  internal(): Pick<Memory, 'recall' | 'forget'>;
  /** The calls in flight; `close()` waits for them (memory/calls.ts). */
  readonly calls: CallTracker;
}
