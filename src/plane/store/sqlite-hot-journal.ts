/**
 * Plays back the rollback journal of a SQLite database whose writer died (a *hot journal*),
 * for node-sqlite3-wasm. SQLite rolls a hot journal back by itself only when no connection holds
 * a RESERVED lock; node-sqlite3-wasm's VFS answers that check with "is `<file>.lock` there",
 * which is true as soon as the reader has locked the file itself, so SQLite never plays the
 * journal back and would read the half-written pages. The driver (`sqlite-node.ts`) calls this
 * when it takes over the lock of a dead writer, before anything reads the file.
 *
 * The format is SQLite's (https://www.sqlite.org/fileformat.html#the_rollback_journal): a header
 * of one sector (magic, record count `nRec`, checksum seed, the database's page count before
 * the transaction, sector size, page size), then records of page number, the page's original
 * bytes and a checksum; a journal may hold several headers, each at a sector boundary. Playback
 * restores every record whose checksum holds (the first bad one ends it), cuts the database to
 * its page count before the transaction, syncs it, and removes the journal, as SQLite's
 * `pager_playback` does. A header with `nRec = 0` was never synced, so the database was not
 * written under it: nothing to restore.
 *
 * @module
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';

const MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/** What {@link rollBackHotJournal} did. */
export interface HotJournalPlayback {
  /** Whether a journal was there (and is now removed). */
  found: boolean;
  /** Pages restored from it. */
  pages: number;
}

/** SQLite's journal checksum of one page (`pager_cksum`): the seed plus every 200th byte from the end. */
export function journalChecksum(seed: number, page: Uint8Array): number {
  let sum = seed >>> 0;
  for (let i = page.length - 200; i > 0; i -= 200) sum = (sum + (page[i] as number)) >>> 0;
  return sum;
}

function readAt(fd: number, length: number, offset: number): Buffer | undefined {
  const buf = Buffer.alloc(length);
  const n = readSync(fd, buf, 0, length, offset);
  return n === length ? buf : undefined;
}

/**
 * Rolls the hot journal `<file>-journal` back into `file` and removes it (see the module note).
 * The caller knows that no live connection writes the file.
 * @throws Error when the database or the journal cannot be read or written.
 */
export function rollBackHotJournal(file: string): HotJournalPlayback {
  const journalPath = `${file}-journal`;
  let jfd: number;
  try {
    jfd = openSync(journalPath, 'r');
  } catch {
    return { found: false, pages: 0 };
  }
  let pages = 0;
  try {
    const size = fstatSync(jfd).size;
    const dbfd = openSync(file, 'r+');
    try {
      let off = 0;
      let first = true;
      for (;;) {
        const head = off + 28 <= size ? readAt(jfd, 28, off) : undefined;
        if (head === undefined || !head.subarray(0, 8).equals(MAGIC)) break;
        let nRec = head.readUInt32BE(8);
        const seed = head.readUInt32BE(12);
        const dbPages = head.readUInt32BE(16);
        const sector = head.readUInt32BE(20);
        const pageSize = head.readUInt32BE(24);
        if (sector < 32 || sector > 65536 || pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) break;
        const recSize = pageSize + 8;
        off += sector;
        if (nRec === 0xffffffff) nRec = Math.floor((size - off) / recSize);
        if (first) {
          ftruncateSync(dbfd, dbPages * pageSize);
          first = false;
        }
        let ok = true;
        for (let r = 0; r < nRec; r++, off += recSize) {
          const rec = off + recSize <= size ? readAt(jfd, recSize, off) : undefined;
          if (rec === undefined) {
            ok = false;
            break;
          }
          const pgno = rec.readUInt32BE(0);
          const data = rec.subarray(4, 4 + pageSize);
          if (pgno === 0 || rec.readUInt32BE(4 + pageSize) !== journalChecksum(seed, data)) {
            ok = false;
            break;
          }
          if (pgno <= dbPages) {
            writeSync(dbfd, data, 0, pageSize, (pgno - 1) * pageSize);
            pages++;
          }
        }
        if (!ok || nRec === 0) break;
        off = Math.ceil(off / sector) * sector; // the next header starts at a sector boundary
      }
      fsyncSync(dbfd);
    } finally {
      closeSync(dbfd);
    }
  } finally {
    closeSync(jfd);
  }
  try {
    unlinkSync(journalPath);
  } catch {
    // removed by another process taking over at the same time
  }
  return { found: true, pages };
}
