/**
 * `jev-mem check` and `jev-mem repair` (issue 22, damage stays local), and the exit code of a
 * damaged store.
 *
 * - `check`: verifies every node record and checkpoint of the store (or of `--namespace`)
 *   against their checksums (`StorageAdapter.damaged`), and the whole file with SQLite's
 *   `PRAGMA integrity_check` (pages of edges, indexes and the FTS5 tables too), and prints one JSON
 *   object `{ store, clean, namespaces: [{ namespace, count, ids, checkpoint }], sqlite: [...] }`
 *   (`sqlite`: integrity_check's findings, empty when it says ok); exit {@link EXIT_DAMAGED} when
 *   anything is damaged, 0 when clean. Reads only.
 * - `repair`: copies every readable record into a fresh database, keeping the damaged file as a
 *   backup beside it while it runs (`sql-salvage.ts`), then opens each namespace once so that the
 *   memory rebuilds its indexes and checkpoint from the rows, checks the result, and removes the
 *   damaged file (unless `--keep-backup`, or the result does not check clean); prints `{ store,
 *   backup, removed, namespaces: [{ namespace, nodes, edges, edgesDropped, damaged, edgesLost, edgesUnread? }] }`
 *   and exits 0 (`edgesDropped`: edges of a damaged node, left out with it; `edgesLost`: any
 *   other edge is gone, `edgesUnread` of them counted by the store but found by no read).
 *
 * @module
 */
import { closeSync, openSync, readSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isJevMemError } from '../errors.js';
import { openNodeSqlDriver } from '../plane/drivers/sqlite-node.js';
import { isReadOnlyStore, readOnlyStoreError } from '../plane/drivers/sqlite-read-only.js';
import type { Memory } from '../memory.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../plane/store/sqlite-file-storage.js';
import { writeDamageFile } from '../plane/store/damage-file.js';
import { headerlessRefusal, rowsReadableByPages } from '../plane/store/sql-page-salvage.js';
import { hasSqliteHeader } from '../plane/store/sqlite-pages.js';
import { removeSalvageBackup, salvageSqliteStore, type SalvageReport } from '../plane/store/sql-salvage.js';
import { shellQuote } from '../util/shell-quote.js';
import type { CliIO } from './io.js';

/** Exit code of a command that found the store damaged (`check`, `export` without `--skip-damaged`, a write refused with `STORE_DAMAGED`). */
export const EXIT_DAMAGED = 3;

/** What `check` found in one namespace. */
export interface NamespaceCheck {
  namespace: string;
  /** Damaged node records: `ids` plus `unreadable`. */
  count: number;
  /** Records the store counts that no read could reach (a damaged index hides them; no id known); absent when none. */
  unreadable?: number;
  /** Their ids, sorted. */
  ids: string[];
  /** The checkpoint is damaged (the next open rebuilds it). */
  checkpoint: boolean;
  /** The damaged records other than node records (`DamageReport.records`: `adj:<id>`, `meta:<key>`, `spaces:` …); absent when none. */
  records?: string[];
}

/**
 * Runs `jev-mem check` on the store at `store`.
 * @returns the exit code: {@link EXIT_DAMAGED} on damage, 0 when clean.
 * @throws JevMemError `STORE_MISSING` and the store's errors (a file SQLite cannot open at all is `STORE_DAMAGED`).
 */
export async function runCheck(store: string, namespace: string | undefined, io: CliIO): Promise<number> {
  const storage = await createSqliteFileStorage({ dir: store, create: false, logger: () => undefined });
  try {
    const names = namespace === undefined ? await storage.namespaces() : [namespace];
    const namespaces: NamespaceCheck[] = [];
    for (const ns of names) {
      const d = await storage.damaged(ns);
      const records = d.records ?? [];
      const found: NamespaceCheck = { namespace: ns, count: d.ids.length + (d.unreadable ?? 0) + records.length, ids: d.ids, checkpoint: d.checkpoint };
      if (d.unreadable !== undefined && d.unreadable > 0) found.unreadable = d.unreadable;
      if (records.length > 0) found.records = records;
      namespaces.push(found);
    }
    const sqlite = integrityCheck(join(store, SQLITE_FILE_NAME));
    const clean = sqlite.length === 0 && namespaces.every((n) => n.count === 0 && !n.checkpoint);
    // Every later process knows what this pass found (stats().damaged, puts refused) until a
    // check finds the store clean or a repair; a store this user may only read keeps no file.
    if (namespace === undefined && !isReadOnlyStore(store, join(store, SQLITE_FILE_NAME))) {
      await writeDamageFile(store, { namespaces: namespaces.map((n) => ({ namespace: n.namespace, ids: n.ids, records: n.records ?? [] })), sqlite });
    }
    io.out(JSON.stringify({ store, clean, namespaces, sqlite }));
    if (!clean) {
      for (const n of namespaces) {
        if (n.ids.length > 0) io.err(`jev-mem: namespace ${JSON.stringify(n.namespace)}: ${n.ids.length} damaged node record(s): ${n.ids.join(', ')}`);
        if ((n.unreadable ?? 0) > 0) io.err(`jev-mem: namespace ${JSON.stringify(n.namespace)}: ${n.unreadable} records unreadable (the store counts them, but no read reaches them: a damaged index hides them)`);
        if ((n.records ?? []).length > 0) io.err(`jev-mem: namespace ${JSON.stringify(n.namespace)}: ${n.records!.length} damaged record(s) besides node records: ${n.records!.join(', ')}`);
        if (n.checkpoint) io.err(`jev-mem: namespace ${JSON.stringify(n.namespace)}: the checkpoint is damaged (rebuilt from the rows at the next open)`);
      }
      for (const line of sqlite.slice(0, 10)) io.err(`jev-mem: SQLite integrity_check: ${line}`);
      io.err(repairHint(store));
    }
    return clean ? 0 : EXIT_DAMAGED;
  } finally {
    await storage.close();
  }
}

/**
 * The last line of a `check` that found damage: what `repair` does with the damaged file, as
 * {@link runRepair} does it (removed once the repaired store checks clean, kept with
 * `--keep-backup` or when the result does not check clean).
 */
export function repairHint(store: string): string {
  return `jev-mem: the store is damaged; jev-mem repair --store ${store} copies every readable record into a fresh file and removes the damaged one once the repaired store checks clean (pass --keep-backup to keep it beside the store as ${SQLITE_FILE_NAME}.damaged-<time>)`;
}

/** SQLite's `PRAGMA integrity_check` of the file (`quick_check` where it fails on a page it cannot read): its findings, or none when it answers ok (an error of the check itself is one finding). */
function integrityCheck(path: string): string[] {
  let driver: ReturnType<typeof openNodeSqlDriver> | undefined;
  try {
    // A store this user may only read is checked read-only (sqlite-read-only.ts), not reported damaged.
    driver = openNodeSqlDriver(path, { readOnly: isReadOnlyStore(dirname(path), path) });
    const run = (pragma: string): string[] => driver!.query(`PRAGMA ${pragma}`).map((r) => String(Object.values(r)[0]));
    let lines: string[];
    try {
      // integrity_check also compares every index with its table (a changed key of the key index: h-break15 finding 1).
      lines = run('integrity_check');
    } catch (e) {
      // It stops at a page it cannot read (a zeroed index page); quick_check then names where.
      const quick = run('quick_check');
      lines = quick.length === 1 && quick[0] === 'ok' ? [e instanceof Error ? e.message : String(e)] : quick;
    }
    return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
  } catch (e) {
    return [e instanceof Error ? e.message : String(e)];
  } finally {
    driver?.close();
  }
}

/**
 * After a salvage wrote a fresh file (`repair`, and the CLI's erasure by copy): clears what a
 * check found in the damaged file (the fresh one holds none of it) and opens each salvaged
 * namespace once, so that its indexes and checkpoint are rebuilt before the next user.
 * @throws JevMemError what opening a namespace throws (STORAGE_FAILED, STORE_DAMAGED).
 */
export async function settleSalvagedStore(store: string, report: SalvageReport, open: (namespace: string) => Promise<Memory>): Promise<void> {
  await writeDamageFile(store, { namespaces: [], sqlite: [] });
  for (const n of report.namespaces) {
    const memory = await open(n.namespace);
    try {
      await memory.stats({ namespace: n.namespace });
    } finally {
      await memory.close();
    }
  }
}

/**
 * Runs `jev-mem repair` on the store at `store`: salvage (`sql-salvage.ts`), then one open of each
 * namespace through `open` (which rebuilds the indexes and, at close, writes the checkpoint), then
 * a check of every record of the repaired store. The damaged file is the backup of the salvage
 * only: once the repaired store checks clean it is removed (issue 22: a kept copy would hold, for
 * good, the text of every memory the user erases later), unless `keepBackup`, or unless pages of
 * the file were lost (read page by page, `SalvageReport.pages`): what was on them cannot be
 * counted, so the file is kept and the line on stderr says why. Prints
 * `{ store, backup, removed, namespaces }` (`backup`: the kept file or null; `removed`: the
 * removed one or null) and a line on stderr that says which.
 * @returns 0.
 * @throws JevMemError `STORE_MISSING`, and `STORE_DAMAGED` / `STORAGE_FAILED` when the file
 *   cannot be read at all (it is then left as it was); `STORAGE_FAILED` with `details.readOnly`
 *   for a store this process may not write (before anything is touched).
 */
export async function runRepair(store: string, io: CliIO, open: (namespace: string) => Promise<Memory>, keepBackup = false): Promise<number> {
  if (isReadOnlyStore(store, join(store, SQLITE_FILE_NAME))) throw readOnlyStoreError(resolve(store), 'repair it');
  const report = await salvageSqliteStore(store);
  await settleSalvagedStore(store, report, open);
  const problems = keepBackup ? [] : await repairedProblems(store);
  // Pages of the record table lost (a truncated or overwritten file): what was on them cannot be
  // counted, a namespace whose every record was there is not in the report at all (h-break7
  // finding 2), so the damaged file is kept for the user to decide, never removed for them.
  // So too when records the damaged store counted were not found (a damaged page of the key
  // index and of the table together: the rowid walk skips the table page, the index cannot name
  // its records), or surviving edges name records found nowhere.
  const uncounted = report.namespaces.reduce((k, n) => k + (n.unreadable ?? 0) + (n.missing?.length ?? 0), 0);
  const pagesLost = (report.pages !== undefined && (report.pages.pagesMissing > 0 || report.pages.rowsLost > 0 || report.pages.header === false)) || uncounted > 0;
  const remove = !keepBackup && problems.length === 0 && !pagesLost;
  if (remove) await removeSalvageBackup(report.backup);
  io.out(JSON.stringify({ store, backup: remove ? null : report.backup, removed: remove ? report.backup : null, namespaces: report.namespaces, ...(report.pages !== undefined ? { pages: report.pages } : {}) }));
  const kept = report.namespaces.reduce((k, n) => k + n.nodes, 0);
  const lost = report.namespaces.reduce((k, n) => k + n.damaged.length, 0);
  if (report.pages !== undefined) io.err(pagesLine(report));
  const edges = report.namespaces.reduce((k, n) => k + n.edges, 0);
  const dropped = report.namespaces.reduce((k, n) => k + n.edgesDropped, 0);
  const unread = report.namespaces.reduce((k, n) => k + (n.edgesUnread ?? 0), 0);
  const edgesLost = report.namespaces.some((n) => n.edgesLost);
  const gone = !edgesLost ? '' : unread > 0 ? `, ${unread} edge(s) the store counted found by no read (lost)` : ', the edges after an unreadable edge page lost';
  const head = `jev-mem: repaired ${store}: ${kept} node(s) and ${edges} edge(s) kept, ${lost} damaged node(s) left out${dropped > 0 ? ` with their ${dropped} edge(s)` : ''}${report.pages === undefined && uncounted > 0 ? `, ${uncounted} memory record(s) the store counted found by no read (lost: their ids are not known)` : ''}${gone}`;
  if (remove) {
    io.err(`${head}; the damaged file ${report.backup} was removed (the repaired store checks clean; pass --keep-backup to keep it)`);
  } else if (pagesLost && !keepBackup) {
    io.err(`${head}; the damaged file is kept as ${report.backup}, because ${report.pages?.header === false ? 'its first page (SQLite\'s header and schema) was lost' : 'pages of it were lost'}: the memories on them cannot be counted, and a namespace whose every record was on them is not listed in the report (other tools may read more of it; remove the file once you have checked the store, since it also keeps every record as it was, after a later delete or forget too)`);
  } else if (keepBackup) {
    io.err(`${head}; the damaged file is kept as ${report.backup} (--keep-backup: it holds every record as it was, also after a later delete or forget: remove it once you have checked the store)`);
  } else {
    io.err(`${head}; the damaged file is kept as ${report.backup}, because the repaired store does not check clean (${problems.slice(0, 3).join('; ')}): run jev-mem check --store ${store}`);
  }
  return 0;
}

/** What a repair that read the damaged file page by page says it lost (`SalvageReport.pages`). */
function pagesLine(report: SalvageReport): string {
  const p = report.pages!;
  const missing = report.namespaces.reduce((k, n) => k + (n.missing?.length ?? 0), 0);
  const uncounted = report.namespaces.reduce((k, n) => k + (n.unreadable ?? 0), 0);
  const named = report.namespaces.filter((n) => (n.missing ?? []).length > 0).map((n) => `${JSON.stringify(n.namespace)}: ${n.missing!.slice(0, 5).join(', ')}${n.missing!.length > 5 ? ', …' : ''}`);
  const header = p.header === false ? ' (its first page, SQLite\'s header and schema, is lost: the page size was guessed from the pages and every page holding record rows was read, so what else was lost cannot be counted)' : '';
  return `jev-mem: SQLite could not read the damaged file, so its records were read page by page${header}: ${p.rows} record row(s) from ${p.pages} page(s); lost: ${p.pagesMissing} page(s) of the record table (past the end of the file or overwritten) and ${p.rowsLost} row(s) cut off; ${uncounted} memory record(s) the kept counts hold were not found${missing > 0 ? `, ${missing} of them named by surviving edges (${named.join('; ')}; all in "missing" of the report)` : ''}`;
}

/** What a check of every namespace of the repaired store finds (empty when clean). */
async function repairedProblems(store: string): Promise<string[]> {
  const storage = await createSqliteFileStorage({ dir: store, create: false, logger: () => undefined });
  try {
    const found: string[] = [];
    for (const ns of await storage.namespaces()) {
      const d = await storage.damaged(ns);
      if (d.ids.length + (d.unreadable ?? 0) + (d.records ?? []).length > 0 || d.checkpoint) found.push(`namespace ${JSON.stringify(ns)} is damaged`);
    }
    return [...found, ...integrityCheck(join(store, SQLITE_FILE_NAME))];
  } finally {
    await storage.close();
  }
}

/**
 * After a `delete` or `forget` on the store at `store`: a warning on stderr for each backup that
 * `repair` left there (`jev-mem.sqlite.damaged-<time>`), which holds every record as it was at
 * the repair, erased ones included, and which no erasure reaches (issue 22).
 */
export function warnRepairBackups(store: string, io: CliIO): void {
  let names: string[];
  try {
    names = readdirSync(store).filter((n) => n.startsWith(`${SQLITE_FILE_NAME}.damaged-`));
  } catch {
    return;
  }
  for (const n of names.sort()) {
    io.err(`jev-mem: warning: ${join(store, n)} (the backup jev-mem repair kept) still holds the records as they were at the repair, the erased text included; remove it once you have checked the store`);
  }
}

/**
 * What `check` or `repair` says after the store's `STORE_DAMAGED` error of its own (the file
 * cannot be opened or its namespaces listed). When its record table can still be read page by
 * page (`sql-page-salvage.ts`), check says how many rows and points to repair, which salvages
 * them; otherwise (and after a repair that failed all the same) repair can salvage nothing, so
 * the error's advice to run check and repair does not help.
 */
export function unreadableStoreHint(store: string, cmd: string): string {
  const file = join(store, SQLITE_FILE_NAME);
  const rows = cmd === 'check' ? rowsReadableByPages(store) : 0;
  const refusal = rows > 0 && !headerReadable(file) ? headerlessRefusal(store) : undefined;
  if (refusal !== undefined) return `jev-mem: ${rows} row(s) of its record table can still be read page by page, but jev-mem repair will not salvage them: ${refusal.message}`;
  if (rows > 0) return `jev-mem: SQLite cannot open ${file} or list its namespaces (a truncated or overwritten file), but ${rows} row(s) of its record table can still be read page by page: jev-mem repair --store ${shellQuote(store)} salvages every record whose pages are still there, and says what was lost`;
  return `jev-mem: ${file} cannot be read at all (SQLite cannot open it or list its namespaces), so repair can salvage nothing from it; restore the store from an export, or try SQLite's own \`sqlite3 ${file} .recover\``;
}

/** Whether the file at `file` starts with SQLite's header (false also when it cannot be read). */
function headerReadable(file: string): boolean {
  try {
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(16);
      readSync(fd, head, 0, 16, 0);
      return hasSqliteHeader(head);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Whether `e` is the error of a damaged store (exit {@link EXIT_DAMAGED}). */
export function isDamaged(e: unknown): boolean {
  return isJevMemError(e, 'STORE_DAMAGED');
}
