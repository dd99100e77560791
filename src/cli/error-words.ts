/**
 * The CLI's words for some errors of the library: an observation named by its JSONL line instead
 * of its index, the store's path named by the flag `--store`, and what a `delete` or `forget` on a
 * full disk needs. Each returns an error (or a message); `main.ts` prints it.
 *
 * @module
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { JevMemError, isJevMemError } from '../errors.js';
import { SQLITE_FILE_NAME } from '../plane/store/sqlite-file-storage.js';

/**
 * An error of `addMany` that names an observation by its index (`observations[3].text: …`),
 * named by the field of the input file instead: `textFields[i]` is where observation `i`'s text
 * is (`line 7.content`, `file[0].haystack_sessions[1][1].content`); another field of it is named
 * beside that (`line 7.observedAt`), and the index follows (`… (observation 4)`). Any other error
 * as it is.
 */
export function bySource(e: unknown, textFields: readonly string[] | undefined): unknown {
  if (textFields === undefined || !isJevMemError(e) || typeof e.details.field !== 'string') return e;
  const m = /^observations\[(\d+)\](.*)$/.exec(e.details.field);
  const textField = m === null ? undefined : textFields[Number(m[1])];
  if (m === null || textField === undefined) return e;
  const rest = m[2] ?? '';
  const field = rest === '.text' || rest.startsWith('.text.') || rest.startsWith('.text[') ? `${textField}${rest.slice(5)}` : `${textField.replace(/\.[^.[\]]+$/, '')}${rest}`;
  const message = e.message.startsWith(e.details.field) ? `${field}${e.message.slice(e.details.field.length)}` : `${field}: ${e.message}`;
  return new JevMemError(e.code, `${message} (observation ${Number(m[1]) + 1})`, { ...e.details, field, cause: e });
}

/**
 * The message of an error about the store's path in the CLI's words: the library's option
 * `store` (`createNodeMemory`) or `dir` (`createSqliteFileStorage`, `check` / `repair`) is the flag `--store` here (`--store: /etc/passwd is a file, not a directory; …`), and an error
 * of a path that cannot be opened or made names the flag and the path as given
 * (`--store /proc/x: could not create the store directory /proc/x (ENOENT: …)`). Others as they are.
 */
export function storeFlagMessage(e: JevMemError, store: string | undefined): string {
  for (const option of ['store', 'dir']) {
    const head = `option ${option}: `;
    if (e.details.field === option && e.message.startsWith(head)) return `--store: ${e.message.slice(head.length)}`;
  }
  if (e.details.field === 'store' && typeof e.details.path === 'string') return `--store ${store ?? e.details.path}: ${e.message}`;
  return e.message;
}

/**
 * The `QUOTA_EXCEEDED` of a `delete` or `forget` on a full disk, in words that say why an erasure
 * needs space and how much: SQLite copies every page a commit changes into its rollback journal
 * first (and the namespace's checkpoint is rewritten in the same commit), so the journal is at
 * most the size of the database file, about what to free (pages the commit adds are few).
 * @returns JevMemError `QUOTA_EXCEEDED` (field `store`, `details.storeBytes`), `e` as its cause.
 */
export function erasureOnFullDisk(command: 'delete' | 'forget', store: string, e: JevMemError): JevMemError {
  let bytes: number | undefined;
  try {
    bytes = statSync(join(store, SQLITE_FILE_NAME)).size;
  } catch {
    bytes = undefined;
  }
  const enough = bytes === undefined ? 'the size of the store is enough' : `${(bytes / 2 ** 20).toFixed(1)} MiB, the size of ${join(store, SQLITE_FILE_NAME)}, is enough, usually far less`;
  return new JevMemError(
    'QUOTA_EXCEEDED',
    `${command} refused: the disk is full and nothing was erased. SQLite needs free space to commit an erasure too: it copies every page it changes into its rollback journal before it commits; free some space (${enough}) and run the same ${command} again`,
    { field: 'store', cause: e, ...(bytes === undefined ? {} : { storeBytes: bytes }) },
  );
}
