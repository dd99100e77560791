/**
 * The public shape of a memory: the {@link Memory} interface that `createMemory()` (memory.ts)
 * returns. Types only; the options and results of its read and answer calls are in
 * read-options.ts, its stats in memory-stats.ts, and this module re-exports them; the factory in
 * memory.ts re-exports every name, so `jev-mem` and `src/memory.js` keep their surface.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { Encoder } from '../encoder/encoder.js';
import type { MemoryExport } from '../plane/store/export.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import type { MemoryEdge, MemoryNode, Observation } from '../types.js';
import type { ChatMessageInput } from './input.js';
import type { MemoryStats } from './memory-stats.js';
import type { AnswerOptions, AnswerStreamEvent, MemoryAnswer, RecallOptions, RecallResult } from './read-options.js';
import type { ImportResult } from './transfer.js';
import type { AddManyOptions, AddOptions, AddResult, CallOptions, ExportOptions, ImportOptions, ListedMemory, ListOptions, ListPage, ResetOptions, ScopedCallOptions } from './types.js';

export type { MemoryStats } from './memory-stats.js';
export type { AnswerOptions, AnswerStreamEvent, MemoryAnswer, RecallOptions, RecallResult } from './read-options.js';

/** The live memory object returned by {@link createMemory}. */
export interface Memory {
  /** Default namespace. */
  readonly namespace: string;
  /** Resolved parameters (frozen). */
  readonly parameters: Readonly<MemoryParameters>;
  /** The configured System One. */
  readonly systemOne: SystemOneBackend;
  /** The encoder. */
  readonly encoder: Encoder;
  /**
   * Writes one observation through the write path (SPEC 4): validate, type, deterministic
   * edges, ≤ K_w candidates, one relation request, atomic commit. Once it resolves, the node is
   * durable in the storage adapter (a crash afterwards loses nothing).
   *
   * Chat messages `{ role, content, name? }` are accepted as they are (issue 23): the text is
   * `content`, the speaker `name` when given, else `role` (`'user'`, `'assistant'`, …); other
   * observation fields (`observedAt`, `sessionId`, `userId`, …) may be added to the message.
   * Scope fields `userId` / `agentId` (or `options.scope` for fields the observation leaves
   * out) are kept in `provenance.metadata`; `expiresAt` (ISO string, Date or epoch ms) in
   * `metadata.expiresAt` as ISO UTC: from that time (the memory's clock) the memory is never
   * returned, and `maintain()` erases it, as does the first call of a memory that opens the
   * namespace after then (memory/expiry.ts). An `expiresAt` at or before the write time (the
   * memory's clock) is refused: the memory would be hidden at once.
   *
   * Exact repeats are not stored twice: a write with the same text (NFC, white space
   * collapsed), the same `observedAt`, the same `source`, the same scope (`userId`, `agentId`),
   * the same other `metadata` (same keys and values, key order aside; `role` among them) and the
   * same `speaker` (NFC, case aside) as a stored node is merged into it: the node gains the
   * repeat's provenance in `duplicates` (shown by `get` and on recalled memories) and its id is
   * returned with `deduplicated: true` (issue 7 item 4). `sessionId` and `turnId` are
   * provenance and do not count; a write that differs in metadata (`{ project: 'A' }` and
   * `{ project: 'B' }`) or in speaker (an assistant's turn with the words of the user's turn
   * before it) is a memory of its own (issue 22/25, hostile review h-break13).
   *
   * Text limit: at most `parameters.maxTextChars` UTF-16 code units (default 100,000, about
   * 20,000 words). Longer texts are refused with `TOO_LARGE`, not chunked: a node is one
   * observation kept verbatim, and only the caller knows where its text may be split without
   * losing meaning (split it into several observations with the same provenance).
   * The cost of an add is linear in its text (issue 22/25; `bench/scale/long-text.ts`): the
   * embedding, the lexical index, the entities and the time references (chrono in windows of
   * 2,000 characters) read the whole text; System One's typing, relation and maintenance
   * requests, the state-update head and the keywords read a text longer than 4,000 characters as
   * its first ~3,000 and last ~800 (`write/passage.ts`).
   * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the field (nothing written; field
   *   `observation.expiresAt` for an expiry already due), `STORAGE_FAILED` / `QUOTA_EXCEEDED`
   *   (nothing written), `INVALID_OPTION` (`newId` returned an id in use; nothing written),
   *   `ABORTED`, `CLOSED`.
   */
  add(observation: Observation | ChatMessageInput, options?: AddOptions): Promise<AddResult>;
  /**
   * Writes many observations in order. Every observation is validated before anything is
   * written; then chunks of `chunkSize` are committed atomically one after another. On a failure,
   * the chunks already committed stay (they were reported by `onProgress`), the failing chunk
   * leaves nothing, and the error carries `details.committed` (the number of observations
   * committed, a multiple of `chunkSize`, or all of them when it failed after the last chunk).
   * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the field, `observations[i]…`
   *   (`observations[i].expiresAt` for an expiry at or before the write time; nothing written),
   *   `STORAGE_FAILED` / `QUOTA_EXCEEDED`, `ABORTED` (`options.signal`; also when
   *   `options.onProgress` throws: field `options.onProgress`, the callback's error as `cause`),
   *   `CLOSED`; each with `details.committed` once a chunk was attempted.
   */
  addMany(observations: Array<Observation | ChatMessageInput>, options?: AddManyOptions): Promise<AddResult[]>;
  /**
   * Recalls memories for a query through the read path (SPEC 6), with the trace. Each memory
   * carries its final `score` (the order) and System One's calibrated `relevance`; `filter`, `scope` and the time window select among the
   * candidates, `minScore` cuts by score (a prefix of the ranking), and expired memories are never returned (so fewer
   * than `k` may come back). The query holds at most {@link MAX_QUERY_CHARS} (4,000) characters.
   * @throws JevMemError `INVALID_INPUT` (empty query, `options.k` not an integer from 1 to
   *   `MAX_RECALL_K` (1,000), `options.minScore` outside [0,1],
   *   `options.filter…` / `options.scope…` naming the bad part), `INVALID_OPTION` (an unknown
   *   option or parameter, naming it; `options.deadlineMs` negative, NaN or infinite),
   *   `TOO_LARGE` (field `query`, over {@link MAX_QUERY_CHARS} characters), `ABORTED`, `CLOSED`.
   */
  recall(query: string, options?: RecallOptions): Promise<RecallResult>;
  /**
   * Recall + one System-Two call (eq. (27)). The prompt always carries the current date:
   * `options.now` (a Date, written as ISO-8601 UTC, or a string written as given), else the
   * memory's clock (`now` of `createMemory`, default the machine clock). With
   * `options.minScore`, only memories with `score` ≥ it are given to System Two and returned
   * (`minScore: 0`: every recalled memory). Without it, the {@link DEFAULT_ANSWER_KEEP_TOP} (3)
   * top-ranked memories whatever their relevance, and below them every memory down to the last
   * one with relevance ≥ {@link DEFAULT_ANSWER_MIN_SCORE} (0.01): the relevance has no signal for
   * some questions (other languages, small stores), where a floor alone would give System Two
   * nothing although recall ranked the evidence first. Either way the evidence is a prefix of the
   * ranking (memory/relevance.ts `answerEvidence`).
   * @throws JevMemError `SYSTEM_TWO_NOT_CONFIGURED`, `INVALID_INPUT` (field `options.now`: not a
   *   valid Date or a non-empty string), the System-Two errors, and recall's.
   */
  answer(query: string, options?: AnswerOptions): Promise<MemoryAnswer>;
  /**
   * {@link Memory.answer} as an async iterator (issue 23): `{ type: 'token', token }` for each
   * piece System Two streams, then one `{ type: 'answer', answer }` with the whole
   * {@link MemoryAnswer}. Leaving the loop early aborts the System-Two call.
   * @example
   * ```ts
   * for await (const ev of memory.answerStream('What is my dog called?')) {
   *   if (ev.type === 'token') process.stdout.write(ev.token);
   *   else console.log('\n', ev.answer.memories.length, 'memories used');
   * }
   * ```
   * @throws (from the iterator) the errors of `answer`.
   */
  answerStream(query: string, options?: Omit<AnswerOptions, 'onToken'>): AsyncGenerator<AnswerStreamEvent, void, undefined>;
  /**
   * Pages the stored memories of a namespace (active and superseded) in insertion order
   * (ascending `seq`), without embeddings (issue 23). Pass the returned `cursor` to get the next
   * page; it is absent after the last one. The order is stable under writes: a memory added
   * while paging has a higher `seq` and appears on a later page; a deleted one is skipped.
   * Expired memories (`expiresAt` at or before the memory's clock) are left out.
   *
   * Cost: the ids come from the resident node directory (O(namespace) ids, no body read); one
   * call reads at most `limit` bodies without a filter, at most {@link LIST_SCAN_LIMIT} with one
   * (a filtered page may then hold fewer than `limit` memories and still carry a cursor).
   * @example
   * ```ts
   * for (let page = await memory.list({ limit: 100 }); ; page = await memory.list({ limit: 100, cursor: page.cursor })) {
   *   for (const m of page.memories) console.log(m.seq, m.text);
   *   if (page.cursor === undefined) break;
   * }
   * ```
   * @throws JevMemError `INVALID_INPUT` (`options.limit` outside 1..1000, `options.cursor`
   *   not a list cursor of this namespace, `options.filter…` / `options.scope…` naming the bad
   *   part), `INVALID_OPTION` (unknown option), `ABORTED` (`options.signal`, checked before
   *   any work and before each batch of nodes read), `CLOSED`.
   */
  list(options?: ListOptions): Promise<ListPage>;
  /**
   * The versions of a memory across {@link Memory.update}, oldest first (issue 23): the memory
   * itself, the versions it replaced and the versions that replaced it (explicit updates only;
   * relations System One inferred are not versions), at most {@link MAX_HISTORY}. Old versions
   * are ordinary superseded nodes, so `delete` of a version erases its text from the history
   * too (nothing else keeps it). With `options.scope`, only a memory of that scope is answered,
   * and only the versions of that scope are listed.
   * @throws JevMemError `NOT_FOUND` (field `id`) when the namespace holds no such memory (or it
   *   expired, or it is outside `options.scope`: the same error, so another scope's memories
   *   cannot be probed), `INVALID_INPUT` (field `id`; `options.scope…`), `INVALID_OPTION` (an
   *   unknown option, naming it), `ABORTED` (`options.signal`, checked before any work), `CLOSED`.
   */
  history(id: string, options?: ScopedCallOptions): Promise<ListedMemory[]>;
  /**
   * One node by id (a copy), or `undefined` (also for an id of another namespace, for an
   * expired memory, and for a memory outside `options.scope`).
   * @throws JevMemError `INVALID_INPUT` (`options.scope…`), `INVALID_OPTION` (an unknown option, naming it), `ABORTED` (`options.signal`, checked before any work), `CLOSED`.
   */
  get(id: string, options?: ScopedCallOptions): Promise<MemoryNode | undefined>;
  /** Edges touching a node (both directions; copies). With `options.scope`, a node outside it answers as an unknown id (`[]`) and an edge whose other end is outside it is left out. @throws JevMemError `INVALID_INPUT` (`options.scope…`), `INVALID_OPTION` (an unknown option, naming it), `ABORTED` (`options.signal`, checked before any work), `CLOSED`. */
  edges(id: string, options?: ScopedCallOptions): Promise<MemoryEdge[]>;
  /**
   * Writes `observation` as the newer version of node `id` (issue 7 item 1), in one atomic
   * commit: a new node, the old node marked `superseded` with the new id in its `supersededBy`,
   * and a semantic `updates` edge (new → old, weight 1, origin rule `explicit-update`). Nothing is
   * destroyed: the old node keeps its text, provenance and edges, stays retrievable, and recall
   * ranks it below current memories with its "as of" limit in `supersededAt`. The update is
   * never merged as a repeat, even when its text equals an existing node's. The caller named what
   * the new version replaces, so it supersedes nothing else: neither the write's state-update
   * decision nor maintenance (its state-update pass or System One's `maint.obsolete`) infers a
   * replacement of another memory by it (h-endgate; `update(a, 'note 4 changed')` replaces `a`,
   * not note 4). A memory observed later than the new version can still supersede it.
   *
   * The new version keeps the old node's `speaker`, `sessionId` and `source` when `observation`
   * does not give them (who said it and where stay the same when only the text changes); it
   * does not copy `turnId` (the turn that said the old text did not say the new one) nor
   * `metadata`, except the scope (`userId`, `agentId`) and the expiry (`expiresAt`), which stay
   * with the memory unless `observation` gives its own. `observedAt` is as given: absent, the new version is timed by ingestion (the
   * memory's clock, `now` of `createMemory`), as for `add`. The old node's `supersededAt` in recall
   * is the new version's `observedAt`, else its ingestion time.
   *
   * Only the current version of a chain is updated: `id` must not have been replaced by an
   * earlier `update` already (that would start a second branch of its history). Updating such an
   * old version is refused with `CONFLICT`, whose `details.activeId` names the newest version
   * (the end of the chain of explicit updates), the one to update instead. A memory that System
   * One or maintenance marked superseded (an inferred state change, not a version) can still be
   * updated.
   *
   * With `options.scope`, only a memory of that scope is updated (another scope's memory is
   * `NOT_FOUND`, as an unknown id), and the observation may not move the new version out of it
   * (an `observation.userId` / `agentId` / `sessionId` that differs from the scope's is
   * `INVALID_INPUT`).
   * @throws JevMemError `NOT_FOUND` (field `id`; no such node in the namespace, or outside
   *   `options.scope`), `INVALID_OPTION` (an unknown option, naming it), `CONFLICT`
   *   (field `id`, `details.activeId`: `id` was already replaced by an update, also when a
   *   concurrent update replaced it first),
   *   `INVALID_INPUT` (field `observation.expiresAt`) when the new version would already be due
   *   (it would hide the old version and itself: delete the memory instead), `INVALID_INPUT`
   *   (field `observation.userId` / `observation.agentId`) when the new version's scope differs
   *   from the memory's (even without `options.scope`: a version never moves to, or gains, another
   *   user or agent, so no edge joins two scopes), and add's errors.
   */
  update(id: string, observation: Observation, options?: ScopedCallOptions): Promise<AddResult>;
  /**
   * Removes a node, its edges and its index entries in one atomic commit: it is gone from
   * recall at once and after a reload. The nodes it superseded pass to the nodes that
   * superseded it (memory/relink.ts): deleting the newest version makes the previous one
   * `active` again (when nothing else superseded it); deleting a middle version relinks the
   * chain (a → b → c without b is a → c: a stays superseded, by c, with an `updates` edge c → a,
   * of origin `explicit-update` when both links were explicit updates, so `history` and the
   * `CONFLICT` of `update` follow it); deleting the oldest changes no other node.
   * With `options.scope`, only a memory of that scope is deleted (checked under the namespace's
   * write lock).
   * @returns false when no such node exists in the namespace, or it is outside `options.scope`
   *   (nothing changes; the two cases are not told apart).
   * @throws JevMemError `INVALID_INPUT` (`options.scope…`), `INVALID_OPTION` (an unknown option,
   *   naming it), `STORAGE_FAILED` / `QUOTA_EXCEEDED` (nothing changed), `ABORTED`, `CLOSED`;
   *   `STORE_DAMAGED` (nothing changed) when SQLite refuses to change a malformed page of the
   *   store file: the message says the memory is still stored, whole (`details.stillStored`:
   *   `{ namespace, ids }`), and `details.run` is the `jev-mem delete` that erases it by a copy
   *   (which also leaves out the records on the damaged pages, so it runs on the user's word;
   *   issue 22).
   *
   * Bytes on disk (issue 22, README "Erasure"): the Node SQLite store zeroes the record where it
   * lives when the commit returns (`secure_delete`), and an older copy that SQLite left in a
   * page's unused space when it moved the record between pages is cleared by a rewrite of the
   * file (`VACUUM`): before this call returns when the file is at most 32 MiB
   * (`createSqliteFileStorage({ vacuumBytes })`), else at `maintain()` or `close()` (counted in
   * `stats().erasuresPending` meanwhile; the CLI's commands close the store); the memory store
   * keeps no byte (`test/lifecycle/erasure.test.ts`). IndexedDB in Chromium (LevelDB) keeps the
   * deleted values in its log and table files until a compaction drops them, which a page cannot
   * ask for: run `compactIdbDatabase()` (`jev-mem/browser`) with the memory closed to rebuild the
   * database so that none stays; Firefox's and Safari's IndexedDB (SQLite) are untested. Durable
   * Object SQL cannot VACUUM: its freed pages may keep the bytes (README, Erasure).
   */
  delete(id: string, options?: ScopedCallOptions): Promise<boolean>;
  /**
   * Erases memory `id` and every version of it across {@link Memory.update} (what
   * {@link Memory.history} lists: the versions it replaced and the ones that replaced it, with no
   * {@link MAX_HISTORY} bound, expired ones included), with their edges and index entries, in one
   * atomic commit: what a user asks to forget, where `delete` of the current version would make
   * the previous one current again. A memory that a version superseded by an inferred relation
   * (not an update: not a version) passes, as for `delete`, to what else superseded it, or is
   * current again. Bytes on disk as {@link Memory.delete}.
   * With `options.scope`, only a memory of that scope is erased (its versions share its scope).
   * @returns the ids erased, oldest version first; empty when no such node exists in the
   *   namespace, or it is outside `options.scope` (nothing changes; the two cases are not told apart).
   * @throws as {@link Memory.delete}.
   */
  deleteVersions(id: string, options?: ScopedCallOptions): Promise<string[]>;
  /**
   * Removes a whole namespace (nodes, edges, meta) and nothing else. The name follows the
   * namespace rule (plane/store/names.ts), except that a name the store already holds from before
   * the rule is accepted, so it can be cleaned up.
   * @throws JevMemError `INVALID_INPUT` (a name the rule refuses and the store does not hold),
   *   `STORAGE_FAILED`, `CLOSED`; `STORE_DAMAGED` (nothing changed) when SQLite refuses to
   *   change a malformed page of the store file: the whole namespace is still stored
   *   (`details.stillStored`: `{ namespace }`), and `details.run` is the `jev-mem forget` that
   *   erases it by a copy (issue 22).
   *
   * Bytes on disk (issue 22, README "Erasure"): the Node SQLite store zeroes the namespace's records where they
   * live when the commit returns (`secure_delete`), and an older copy that SQLite left in a
   * page's unused space when it moved a record between pages is cleared by a rewrite of the
   * file (`VACUUM`): before this call returns when the file is at most 32 MiB
   * (`createSqliteFileStorage({ vacuumBytes })`), else at `maintain()` or `close()` (counted in
   * `stats().erasuresPending` meanwhile; the CLI's commands close the store). In a browser's
   * IndexedDB (Chromium) the namespace's records stay in LevelDB's files until
   * `compactIdbDatabase()` rebuilds the database; Durable Object SQL as {@link Memory.delete}.
   */
  forget(namespace: string): Promise<void>;
  /**
   * Erases memories of one namespace exactly, as `delete` / `forget` do (issue 23): without
   * `scope` and `filter`, the whole namespace (as `forget(namespace)`: nodes, edges, meta,
   * checkpoint); with them, each memory they select (expired ones included), one `delete` each
   * (so their texts leave the store, its checkpoint and the caches). A `scope` or `filter` that
   * is given but selects nothing in particular (`{}`, or a key whose value is `undefined`) is
   * refused, never read as "everything": an unset variable must not erase every user's memories.
   * @returns how many memories were erased.
   * @throws JevMemError `INVALID_INPUT` (`options.filter…`, `options.scope…` — also for `{}` —,
   *   `options.namespace`),
   *   `INVALID_OPTION` (unknown option), `STORAGE_FAILED`, `ABORTED`, `CLOSED`;
   *   `STORE_DAMAGED` when SQLite refuses to change a malformed page of the store file: without
   *   `scope` / `filter` as {@link Memory.forget}; with them, the memories erased before the
   *   refusal stay erased, the message says how many, `details.stillStored.ids` names the
   *   selected ones still stored, and `details.run` holds a `jev-mem delete` for each (issue 22).
   */
  reset(options?: ResetOptions): Promise<{ deleted: number }>;
  /**
   * Runs maintenance (SPEC 4 step 7) over the nodes written since the last pass (the list is
   * kept in the store, so a restart loses none). Writes run it every J_c writes on their own;
   * there a failed pass does not fail the acknowledged write, and its nodes stay pending.
   * Maintenance adds edges and marks superseded nodes; the only memories it deletes are expired
   * ones (`expiresAt` at or before the memory's clock; counted in `expired`), found by one scan
   * of the namespace's nodes and erased like `delete`. Last, a store that counts erasures not yet
   * rewritten (`stats().erasuresPending`: the Node SQLite store) rewrites its file (`VACUUM`,
   * O(file size)) whatever its size, so no older copy of an erased record stays in it: the way to
   * force that rewrite.
   * @throws also JevMemError `STORAGE_FAILED` when the rewrite failed (the erasures stay pending).
   */
  maintain(options?: CallOptions): Promise<{ redundant: number; contradiction: number; obsolete: number; link: number; expired: number }>;
  /**
   * One versioned export of a namespace (plane/store/export.ts): every node with its embedding, every
   * edge, the namespace meta (schema version included), the encoder fingerprint and the
   * System-One model id. JSON-safe. Like `forget`, accepts a namespace the store holds under a
   * name from before the namespace rule.
   *
   * With `options.scope` and/or `options.filter` (ANDed, as in `list`), the export holds only the
   * memories they select and the edges whose two ends it holds (the namespace meta, less the
   * ids of other memories still pending maintenance); a per-user export for a data-access
   * request is `export({ scope: { userId } })`. `damaged` still names every damaged record of
   * the namespace (a damaged record cannot be read, so its scope is unknown). Without either,
   * the whole namespace. Memories due (`expiresAt` at or before the memory's clock) but not yet
   * erased are left out, as get/list/recall leave them out, with the version chains through them
   * relinked as their erasure will relink them.
   * @throws JevMemError `INVALID_INPUT` (namespace name, `options.scope…`, `options.filter…`,
   *   also for `{}`), `INVALID_OPTION` (an unknown option, naming it), `STORAGE_FAILED`, `ABORTED` (`options.signal`, checked before any work and between the
   *   steps of the export), `CLOSED`.
   */
  export(options?: ExportOptions): Promise<MemoryExport>;
  /**
   * Imports an export into an empty namespace (the file's, or `options.namespace`), in one
   * atomic commit: the namespace gets the whole file or nothing. Recall over the import equals
   * recall over the exported memory (same encoder and System One). The file is checked record by
   * record before anything is written (ids without control characters; a node `active` or
   * `superseded`: a deleted memory is never exported); an older schema version is migrated.
   * What holds across records is rebuilt and counted in the result, never stored wrong
   * (memory/import-repair.ts): nodes sharing a `seq` get the next free ones in file order
   * (`seqShared` of them had another's seq; `seqRenumbered` were moved, later ones included), `supersededBy` ids naming no node of the file are dropped and a
   * `superseded` node left without a newer version is imported `active` (`successorsDropped`),
   * edges with an end outside the file are left out (`edgesDropped`).
   * @returns The counts written and the namespace ({@link ImportResult}).
   * @throws JevMemError `INVALID_INPUT` (bad file, naming the field as `export.nodes[3].status`; or the namespace is not
   *   empty), `SCHEMA_MISMATCH` (newer export or schema version), `ENCODER_MISMATCH` (embeddings
   *   of another encoder and `reembed` false), `STORAGE_FAILED` / `QUOTA_EXCEEDED` (nothing written),
   *   `INVALID_OPTION` (`options.onProgress` not a function), `ABORTED` (`options.signal` before the
   *   commit, or `options.onProgress` threw; nothing written).
   * Each step is told to `options.onProgress` as it begins ({@link ImportOptions.onProgress}).
   */
  import(data: unknown, options?: ImportOptions): Promise<ImportResult>;
  /**
   * Counts of a namespace (like `forget`, also of a name the store holds from before the namespace
   * rule). Memories that fell due since the namespace was opened are erased first, as `maintain()`
   * erases them (nothing to do, O(1), when the kept earliest expiry is not due), so the counts are
   * of what `list` and `recall` can return; when that erasure fails (another process holds the
   * write lock) it is logged as `EXPIRY_DEFERRED` and the due memories are still counted.
   * @throws JevMemError `INVALID_INPUT` (namespace name), `ABORTED`, `STORAGE_FAILED`, `CLOSED`.
   */
  stats(options?: CallOptions): Promise<MemoryStats>;
  /** Namespaces that hold data. */
  namespaces(): Promise<string[]>;
  /**
   * Waits for every call already started (reads included; their results and errors go to their
   * callers), then releases storage handles, indexes and the fallback. The encoder and
   * `options.systemOne` are the caller's and stay open (close them yourself). Calls started
   * after `close()` throw `CLOSED`.
   */
  close(): Promise<void>;
}
