/**
 * Erasure bookkeeping of the Node SQLite store (`sqlite-file-storage.ts`, issue 22): the count of
 * erasures not yet followed by a rewrite of the file (VACUUM), kept in `<dir>/erasures-pending`
 * so that it survives a crash, and the error of an erasure SQLite refuses on a malformed page.
 *
 * The count is changed only by the holder of the store's writer lock, so it is read from the
 * file once per hold of the lock and kept in memory meanwhile; the file is written only when
 * the pending state changes (none → some, before the first erasure's commit; some → none,
 * after a rewrite) and with the exact count when the lock is given back. A crash during a hold
 * therefore leaves the erasures pending (a count ≥ 1, maybe lower than the true one); no
 * erasure reads or writes the file.
 *
 * @module
 */
import { rmSync, writeFileSync } from 'node:fs';
import { readPendingErasures } from './pending-erasures-file.js';
import { join } from 'node:path';
import { isJevMemError, JevMemError } from '../../errors.js';
import { forgetInDamageFile } from './damage-file.js';
import { shellQuote } from '../../util/shell-quote.js';

/** File in the store directory that counts the erasures not yet followed by a VACUUM. */
export const PENDING_ERASURES_FILE = 'erasures-pending';

/** The pending count of one store directory, as one adapter sees it (see the module). */
export class PendingErasures {
  readonly #path: string;
  /** The count during a hold of the writer lock, else undefined (the file is read). */
  #held: number | undefined;
  /** What the file says, as read or written during the hold. */
  #filed = 0;

  constructor(dir: string) {
    this.#path = join(dir, PENDING_ERASURES_FILE);
  }

  /** A file that does not hold a count reads as 1 pending (pending-erasures-file.ts). */
  #read(): number {
    return readPendingErasures(this.#path);
  }

  #write(n: number): void {
    if (n > 0) writeFileSync(this.#path, String(n));
    else rmSync(this.#path, { force: true });
    this.#filed = n;
  }

  /** The count under the writer lock (read from the file at the first use of a hold). */
  #hold(): number {
    if (this.#held === undefined) this.#filed = this.#held = this.#read();
    return this.#held;
  }

  /** The pending count (kept during a hold, else read from the file). */
  count(): number {
    return this.#held ?? this.#read();
  }

  /**
   * Counts one erasure before it commits. `lockHeld`: whether the caller holds the writer lock
   * (it should; without it the file is read and written at once).
   */
  mark(lockHeld: boolean): void {
    if (!lockHeld) return this.#write(this.#read() + 1);
    this.#held = this.#hold() + 1;
    if (this.#filed === 0) this.#write(this.#held);
  }

  /**
   * Takes back one {@link PendingErasures.mark} whose erasure did not commit (a full disk, a
   * refused page: SQLite rolled it back, nothing was erased), so a failed erasure leaves no
   * pending count, and no file when none other is pending.
   */
  unmark(lockHeld: boolean): void {
    if (!lockHeld) return this.#write(Math.max(0, this.#read() - 1));
    this.#held = Math.max(0, this.#hold() - 1);
    if (this.#held === 0 && this.#filed !== 0) this.#write(0);
  }

  /** Under the writer lock, before a rewrite: the erasures it will clear. */
  beforeRewrite(): number {
    return this.#hold();
  }

  /** Under the writer lock, after a rewrite that cleared `cleared`: erasures counted meanwhile stay pending. */
  afterRewrite(cleared: number): void {
    this.#held = this.#hold() - cleared;
    if (this.#held === 0 || this.#filed === 0) this.#write(this.#held);
  }

  /** Writes the exact count before the writer lock is given back; the next hold reads the file again. */
  release(): void {
    const held = this.#held;
    this.#held = undefined;
    if (held !== undefined && held !== this.#filed) this.#write(held);
  }
}

/**
 * The `STORE_DAMAGED` error of an erasure SQLite refused on a malformed page of `file`: nothing
 * was erased; the message says what is still stored, whole, and the CLI commands that erase it
 * by a copy (`details.run`; `details.stillStored`: `{ namespace, ids }`, without `ids` for the
 * whole namespace). The library does not make that copy itself: it also leaves out every record
 * on the damaged pages, which the caller did not ask to erase, so it runs on the user's word.
 * @param ids - the node ids of a delete, undefined for a dropped namespace.
 */
export function erasureRefusal(dir: string, file: string, namespace: string, ids: readonly string[] | undefined, cause: JevMemError): JevMemError {
  const ns = shellQuote(namespace);
  const run = ids === undefined ? [`jev-mem forget --store ${shellQuote(dir)} --namespace ${ns}`] : ids.map((id) => `jev-mem delete ${shellQuote(id)} --store ${shellQuote(dir)} --namespace ${ns}`);
  const one = ids?.length === 1;
  const what =
    ids === undefined
      ? `every memory of namespace ${JSON.stringify(namespace)} is`
      : `${one ? 'memory' : `${ids.length} memories`} ${ids.map((id) => JSON.stringify(id)).join(', ')} of namespace ${JSON.stringify(namespace)} ${one ? 'is' : 'are'}`;
  return new JevMemError(
    'STORE_DAMAGED',
    `${cause.message.replace(/ Run `jev-mem check` and `jev-mem repair`$/, '')} Nothing was erased: ${what} still stored in ${file} (text, terms, vector, names and edges). ` +
      `To erase all the same, close this memory (and every other process using the store) and run ${run.join(', then ')}: it copies every other readable record into a fresh file, as jev-mem repair does (records on the damaged pages, which SQLite cannot read, are not copied), and overwrites the damaged file with zeros before removing it`,
    { cause, ids: [], field: 'store', run, stillStored: ids === undefined ? { namespace } : { namespace, ids: [...ids] } },
  );
}

/**
 * An erasure (a delete-only batch, a dropped namespace) runs `erase`; afterwards what check
 * kept beside the store no longer names what it erased (issue 22). When SQLite refuses to
 * change a page it calls malformed, nothing is erased, and the error says exactly what is
 * still stored (`details.stillStored`) and what to run to erase it: the CLI's delete or
 * forget, which builds the erasure as a copy (`cli/erase-copy.ts`). The library does not make
 * that copy itself: the copy also leaves out every record on the damaged pages, which the
 * caller did not ask to erase, so it is run only on the user's word (the command says so).
 * @param ids - the node ids of a delete, undefined for a dropped namespace.
 * @throws what `erase` throws; {@link erasureRefusal} for a `STORE_DAMAGED` without a field.
 */
export async function eraseOrRefuse(store: { dir: string; file: string; readOnly: boolean }, namespace: string, ids: readonly string[] | undefined, erase: () => Promise<void>): Promise<void> {
  try {
    await erase();
  } catch (e) {
    if (!isJevMemError(e, 'STORE_DAMAGED') || e.field !== undefined) throw e;
    throw erasureRefusal(store.dir, store.file, namespace, ids, e);
  }
  if (!store.readOnly) await forgetInDamageFile(store.dir, namespace, ids);
}
