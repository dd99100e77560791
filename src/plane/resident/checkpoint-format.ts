/**
 * The checkpoint format of a namespace's resident state (issue 13, issue 22): the parts a
 * checkpoint holds, their names and order, the format tag, and the checks that decide whether a
 * stored checkpoint can be restored. Parts:
 *
 * - `dir.*`: the node directory's typed arrays (`NodeDirectory.toParts`); from @3, `dir.vecrow`
 *   (each slot's row number in the int8 rows of `vectors`) instead of `dir.vec` when the
 *   `vectors` part holds every row, so each vector is stored once (issue 22);
 * - `header.json`: `{ dimension, directory, encoder?, vecRows? }` (the directory's JSON header;
 *   `vecRows` names the part whose rows `dir.vecrow` numbers);
 * - `book.json`: the bookkeeping maps (`NamespaceBook.toJSON`, book.ts); from @3 their repeat
 *   keys in the binary part `book.dedup` (`NamespaceBook.toParts`);
 * - `lexical.json`: I^lex (absent when the store keeps the lexical index itself);
 * - `vectors`: I^vec's `serialize()` bytes (absent when the index does not serialise);
 * - `vectors.exact` (@2 only, read, no longer written): the exact index of a namespace that writes
 *   through an approximate one but opens exact; from @3 that open builds it from the directory.
 *
 * Changing any of this needs a new {@link CHECKPOINT_FORMAT}; `test/plane/resident-checkpoint-format.test.ts`
 * holds checkpoints written by commit 27aa880 that must load and be written again byte for byte.
 *
 * @module
 */
import type { Checkpoint } from '../store/storage.js';
import type { BookJson } from './book.js';
import type { DirectoryHeader } from './node-directory.js';

/**
 * Format tag of this build's checkpoints ({@link Checkpoint.format}). @2 (issue 22): the book's
 * speakers carry a node count, so a speaker's name leaves with its last node. @3 (issue 22,
 * stop 33): each vector is stored once (`dir.vecrow` points into the rows of `vectors`; no
 * `vectors.exact`), and the book's repeat keys are binary (`book.dedup`). @4 (h-break13, h-fair):
 * the same parts, but the repeat key a node is filed under (`book.dedup`'s hashes) includes its
 * speaker when it has one (`keys.ts`: the 7-element key), so a build of @3, which looks up only
 * keys without the speaker, must not restore it (it would miss every repeat of a node with a
 * speaker): it rebuilds from a scan. An @2 or @3 checkpoint is still restored, with the keys it
 * holds (the write path looks those older keys up too, `nodeOlderDedupKeys`, and unfiles them),
 * and replaced by an @4 one at the next checkpoint; one of another format (@1) is not: the open
 * rebuilds from a scan.
 */
export const CHECKPOINT_FORMAT = 'jev-mem/namespace-checkpoint@4';

/** The previous format tags, still restored ({@link CHECKPOINT_FORMAT}). */
export const CHECKPOINT_FORMAT_2 = 'jev-mem/namespace-checkpoint@2';
export const CHECKPOINT_FORMAT_3 = 'jev-mem/namespace-checkpoint@3';

/** Checkpoint part (@2) with the exact index of a namespace that writes through an approximate one. */
export const EXACT_VECTORS_PART = 'vectors.exact';

/** Checkpoint part (@3) with the book's repeat keys (`NamespaceBook.toParts`). */
export const BOOK_DEDUP_PART = 'book.dedup';

/** The JSON part of a checkpoint's header (`header.json`). */
export interface CheckpointHeader {
  dimension: number;
  encoder?: string;
  directory: { ids?: unknown[] };
  /** The part whose int8 rows the directory's `dir.vecrow` numbers (@3; absent when it keeps `dir.vec`). */
  vecRows?: string;
}

/** What one checkpoint is made of, before encoding. */
export interface CheckpointContent {
  /** The commit the state reflects ({@link Checkpoint.change}). */
  change: number;
  dimension: number;
  encoder?: string;
  /** `NodeDirectory.toParts()`. */
  directory: { header: DirectoryHeader; parts: Record<string, Uint8Array> };
  /** The part whose rows `directory`'s `dir.vecrow` numbers (when it has that part). */
  vecRows?: string;
  book: BookJson;
  /** The `book.dedup` part (`NamespaceBook.toParts`). */
  bookDedup?: Uint8Array;
  /** I^lex's `toJSON()`; absent when the store keeps the lexical index. */
  lexical?: unknown;
  /** I^vec's `serialize()`. */
  vectors?: Uint8Array;
}

/** Encodes a checkpoint: the parts in the order listed in the module note. */
export function encodeCheckpoint(c: CheckpointContent): Checkpoint {
  const enc = new TextEncoder();
  const header: CheckpointHeader = {
    dimension: c.dimension,
    directory: c.directory.header,
    ...(c.encoder !== undefined ? { encoder: c.encoder } : {}),
    ...(c.vecRows !== undefined ? { vecRows: c.vecRows } : {}),
  };
  return {
    change: c.change,
    format: CHECKPOINT_FORMAT,
    parts: {
      ...c.directory.parts,
      'header.json': enc.encode(JSON.stringify(header)),
      'book.json': enc.encode(JSON.stringify(c.book)),
      ...(c.bookDedup !== undefined ? { [BOOK_DEDUP_PART]: c.bookDedup } : {}),
      ...(c.lexical !== undefined ? { 'lexical.json': enc.encode(JSON.stringify(c.lexical)) } : {}),
      ...(c.vectors !== undefined ? { vectors: c.vectors } : {}),
    },
  };
}

/** A checkpoint's JSON part, parsed. @throws SyntaxError / TypeError when the part is missing or not JSON. */
function jsonPart(cp: Checkpoint, name: string): unknown {
  return JSON.parse(new TextDecoder().decode(cp.parts[name]));
}

/**
 * Why a checkpoint cannot be restored into a namespace whose store is at commit `change`, with
 * vectors of `dimension` made by `encoder` (another format, a checkpoint newer than the store,
 * another dimension or encoder); else its header, and `previous: true` for an @2 or @3
 * checkpoint (restored, then replaced at the next checkpoint).
 * @throws SyntaxError when `header.json` is missing or not JSON (a damaged checkpoint).
 */
export function checkCheckpoint(cp: Checkpoint, want: { change: number; dimension: number; encoder?: string }): { reason: string } | { header: CheckpointHeader; previous: boolean } {
  if (cp.format !== CHECKPOINT_FORMAT && cp.format !== CHECKPOINT_FORMAT_3 && cp.format !== CHECKPOINT_FORMAT_2) return { reason: `the checkpoint has format ${JSON.stringify(cp.format)}` };
  if (cp.change > want.change) return { reason: `the checkpoint (change ${cp.change}) is newer than the store (change ${want.change})` };
  const header = jsonPart(cp, 'header.json') as CheckpointHeader;
  if (header.dimension !== want.dimension) return { reason: `the checkpoint has dimension ${header.dimension}, the encoder ${want.dimension}` };
  if (want.encoder !== undefined && header.encoder !== undefined && header.encoder !== want.encoder) return { reason: `the checkpoint was built with encoder ${header.encoder}` };
  return { header, previous: cp.format !== CHECKPOINT_FORMAT };
}

/** Number of live nodes a checkpoint's directory header lists (its non-null ids). */
export function liveCount(header: CheckpointHeader): number {
  return Array.isArray(header.directory?.ids) ? header.directory.ids.reduce((n: number, id: unknown) => (id === null ? n : n + 1), 0) : 0;
}

/** The checkpoint's `book.json`. @throws SyntaxError when missing or not JSON. */
export function bookOf(cp: Checkpoint): BookJson {
  return jsonPart(cp, 'book.json') as BookJson;
}

/** The checkpoint's `lexical.json` as text, or `undefined` when it has none (written with a store-kept lexical index). */
export function lexicalTextOf(cp: Checkpoint): string | undefined {
  const part = cp.parts['lexical.json'];
  return part === undefined ? undefined : new TextDecoder().decode(part);
}
