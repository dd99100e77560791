/**
 * `jev-mem export` of a damaged store (issue 22). An export is a backup, so it is never silently
 * partial: without `--skip-damaged`, a namespace that holds damaged records (named by id, or
 * counted by the store but reached by no read) prints nothing, exits 3 and says how many records
 * are damaged, names them, and how many memories and edges `--skip-damaged` would write; with
 * it, the readable records are printed and what was left out is said on stderr.
 *
 * A store SQLite cannot read through (hostile review: 64 KiB of zeros mid-file made the export
 * of a namespace fail `STORE_DAMAGED` although most of its records were readable) is read page by
 * page, as
 * `jev-mem repair` does (plane/store/sql-page-salvage.ts), into a temporary copy inside the store
 * directory (removed after), and the namespace is exported from that copy: what it can read is
 * exported, and what it left out is named on stderr (the damaged records by id, the memories the
 * store counted but no page gave back, the pages of the record table that could not be read).
 * The damaged file is only read, under the store's writer lock, and never changed.
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isJevMemError } from '../errors.js';
import type { Memory } from '../memory.js';
import type { MemoryExport } from '../plane/store/export.js';
import { storeFromPages } from '../plane/store/sql-page-salvage.js';
import { releaseStoreLock, takeStoreLock } from '../plane/store/store-lock.js';
import { quoteVisible } from '../util/invisible.js';
import { EXIT_DAMAGED } from './check.js';
import type { OptionValues } from './commands.js';
import type { CliIO } from './io.js';
import { need, openForCleanup, openMemory, requireMemories } from './open.js';

/** The temporary copy of the readable rows, inside the store directory (same owner and permissions). */
export const EXPORT_PAGES_DIR = '.export-pages';

/** An export read page by page ({@link exportFromPages}): the export, why SQLite failed, and what was left out (words). */
export interface PagesExport {
  exported: MemoryExport;
  /** SQLite's failure, in words. */
  why: string;
  /** What the page-by-page read left out, one phrase each (empty: nothing found missing). */
  left: string[];
}

/**
 * Exports namespace `ns` of the damaged store at `store` from a page-by-page read of its record
 * table (see the module). Prints nothing.
 * @param open - Opens a memory over a store directory (the CLI's options otherwise).
 * @param cause - The error the export through SQLite failed with (rethrown when the pages give nothing back).
 * @returns the export and what it left out; throws `cause` when the file cannot be read page by
 *   page or the copy does not hold `ns`, and the salvage's refusal (`sql-page-salvage.ts`).
 */
export async function exportFromPages(store: string, ns: string, open: (dir: string) => Promise<Memory>, cause: unknown): Promise<PagesExport> {
  const root = resolve(store);
  const dir = join(root, EXPORT_PAGES_DIR);
  const lockPath = join(root, 'lock');
  let memory: Memory | undefined;
  try {
    // Nobody writes the damaged file while its pages are read.
    await takeStoreLock(root, lockPath);
    let read;
    try {
      read = await storeFromPages(root, dir, () => undefined);
    } finally {
      await releaseStoreLock(root, lockPath).catch(() => undefined);
    }
    if (read === undefined) throw cause;
    const held = await read.store.namespaces().catch(() => [] as string[]);
    const counted = held.includes(ns) ? await read.store.damaged(ns).catch(() => ({ ids: [] as string[], unreadable: undefined })) : undefined;
    await read.store.close();
    if (counted === undefined) throw cause;
    memory = await open(dir);
    const exported = await memory.export({ namespace: ns });
    const why = cause instanceof Error ? cause.message.replace(/; nothing was written.*$/s, '') : String(cause);
    const left = [
      exported.damaged !== undefined && exported.damaged.length > 0 ? `${exported.damaged.length} damaged node record(s) (${exported.damaged.join(', ')})` : '',
      (counted.unreadable ?? 0) > 0 ? `${counted.unreadable} memory record(s) the store counted but no readable page holds (their ids are not known)` : '',
      exported.edgesLeftOut ? `${exported.edgesLeftOut} edge(s) joining a memory left out` : '',
      read.read.pagesMissing > 0 || read.read.rowsLost > 0 ? `whatever else lay on the ${read.read.pagesMissing} unreadable page(s) of the record table${read.read.rowsLost > 0 ? ` and in ${read.read.rowsLost} broken row(s)` : ''}` : '',
      read.read.header === false ? "whatever else lay on the file's lost first page (SQLite's header and schema)" : '',
    ].filter((x) => x !== '');
    return { exported, why, left };
  } finally {
    await memory?.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** What a failed write of the export leaves (one JSON line: a cut one is no backup). */
function cutExport(ns: string): string {
  return `the export of namespace ${quoteVisible(ns)} is incomplete: what was written is not a usable backup`;
}

/**
 * Runs `jev-mem export` (see the module).
 * @param hold - Told the memory the command holds open (the CLI closes it), and undefined once closed.
 * @returns 0 with the export on stdout, or {@link EXIT_DAMAGED} when damaged records would be left
 *   out without `--skip-damaged` (nothing printed on stdout).
 * @throws the store's errors (a `STORE_DAMAGED` that no page-by-page read can get past too).
 */
export async function runExport(v: OptionValues, io: CliIO, hold: (memory: Memory | undefined) => void): Promise<number> {
  const skip = v['skip-damaged'] === true;
  let ns: string | undefined;
  let memory: Memory | undefined;
  let exported: MemoryExport;
  let lost: string[];
  try {
    const opened = await openForCleanup(v);
    hold((memory = opened.memory));
    ns = opened.namespace;
    await requireMemories(memory, ns);
    exported = await memory.export({ namespace: ns });
    // The export made the full pass: records the store counts that no read reached are known now.
    const d = (await memory.stats({ namespace: ns })).damaged;
    const unreadable = d.count - d.ids.length - (d.records?.length ?? 0);
    const ids = exported.damaged ?? [];
    lost = [
      ids.length > 0 ? `${ids.length} damaged memory record(s): ${ids.join(', ')}` : '',
      unreadable > 0 ? `${unreadable} memory record(s) the store counts that no read reaches (a damaged page hides them; their ids are not known)` : '',
    ].filter((x) => x !== '');
    if (lost.length > 0 && exported.edgesLeftOut) lost.push(`the ${exported.edgesLeftOut} edge(s) joining them`);
    if (exported.edgesUnread) lost.push(`${exported.edgesUnread} edge(s) the store counts that no read reaches (a damaged page hides them)`);
  } catch (e) {
    // SQLite cannot read through the damaged file: read it page by page.
    const name = ns ?? v.namespace;
    if (!isJevMemError(e, 'STORE_DAMAGED') || name === undefined) throw e;
    await memory?.close().catch(() => undefined);
    hold(undefined);
    const read = await exportFromPages(need(v.store, 'store'), name, (dir) => openMemory({ ...v, store: dir, namespace: name }), e);
    const counts = `${read.exported.nodes.length} memories and ${read.exported.edges.length} edges`;
    const said = `jev-mem: SQLite could not read namespace ${quoteVisible(name)} through the damaged file (${read.why}); it was read page by page instead, as jev-mem repair reads it: ${counts}`;
    if (!skip) {
      io.err(`${said} are readable; left out would be: ${read.left.length > 0 ? read.left.join('; ') : 'nothing found missing, though what lay on the damaged pages cannot be counted'}.`);
      io.err(`jev-mem: nothing was printed (a backup that leaves records out is partial); jev-mem export --skip-damaged writes those ${counts}, jev-mem repair salvages them into a fresh file`);
      return EXIT_DAMAGED;
    }
    io.err(`${said} exported; left out: ${read.left.length > 0 ? read.left.join('; ') : 'nothing found missing'}. The store was not changed; run jev-mem repair to fix it`);
    io.output?.(cutExport(name));
    io.out(JSON.stringify(read.exported));
    return 0;
  }
  if (lost.length > 0 && !skip) {
    io.err(`jev-mem: namespace ${quoteVisible(ns)} holds ${lost.join('; ')}`);
    io.err(`jev-mem: nothing was printed (a backup without them would be silently partial); jev-mem export --skip-damaged writes the other ${exported.nodes.length} memories and ${exported.edges.length} edges${(exported.damaged ?? []).length > 0 ? ' (the damaged ids in its "damaged")' : ''}, jev-mem check names every damaged record, jev-mem repair salvages the store`);
    return EXIT_DAMAGED;
  }
  const ids = exported.damaged ?? [];
  if (ids.length > 0) io.err(`jev-mem: ${ids.length} damaged node record(s) left out of the export${exported.edgesLeftOut ? `, with the ${exported.edgesLeftOut} edge(s) joining them` : ''}: ${ids.join(', ')}`);
  const unread = lost.filter((x) => x.includes('no read reaches'));
  if (unread.length > 0) io.err(`jev-mem: also left out: ${unread.join('; ')}`);
  io.output?.(cutExport(ns));
  io.out(JSON.stringify(exported));
  return 0;
}
