/**
 * Erasure that always works (issue 22): a `jev-mem delete` or `forget` that SQLite refuses
 * because the store file has a page it calls malformed is built as a copy instead, as
 * `jev-mem repair` builds one: every readable record but the erased ones goes into a fresh
 * file (`salvageSqliteStore` with `omit`), which takes the damaged file's place; the damaged
 * file is then overwritten with zeros and removed (`removeSalvageBackup`), whatever the copy
 * lost, since it holds the text the user asked to erase. A copy that would lose records it cannot
 * name is refused before anything changes (`salvageSqliteStore`): `jev-mem repair` first. Each namespace is opened once
 * afterwards, so that its indexes and checkpoint are rebuilt from the rows.
 *
 * Node only.
 *
 * @module
 */
import { isJevMemError } from '../errors.js';
import type { Memory } from '../memory.js';
import { removeSalvageBackup, salvageSqliteStore, type SalvageOmit } from '../plane/store/sql-salvage.js';
import { settleSalvagedStore } from './check.js';
import type { CliIO } from './io.js';

/**
 * Whether `e` is the store's refusal of an erasure on a malformed page (`STORE_DAMAGED` with
 * `details.run`, `sqlite-file-storage.ts`), which {@link eraseByCopy} does instead.
 */
export function erasureRefused(e: unknown): boolean {
  return isJevMemError(e, 'STORE_DAMAGED') && Array.isArray((e.details as { run?: unknown }).run);
}

/**
 * Erases `omit` from the store at `store` by copying everything else into a fresh file (see the
 * module), and says so on stderr: how many readable nodes the copy kept and how many damaged
 * ones it could not read.
 * @param open - opens a namespace of the repaired store (its indexes are rebuilt).
 * @throws JevMemError `STORE_DAMAGED` / `STORAGE_FAILED` when the damaged file cannot be read at
 *   all, and `STORE_DAMAGED` with `details.run` = the `jev-mem repair` to run first when the copy
 *   would lose records it cannot name (pages of the file lost, counted records unread: h-break9
 *   finding 5); nothing is then changed. Also the file system's errors.
 */
export async function eraseByCopy(store: string, omit: SalvageOmit, io: CliIO, open: (namespace: string) => Promise<Memory>): Promise<void> {
  const report = await salvageSqliteStore(store, undefined, new Date(), omit);
  await removeSalvageBackup(report.backup);
  await settleSalvagedStore(store, report, open);
  const kept = report.namespaces.reduce((k, n) => k + n.nodes, 0);
  const lost = report.namespaces.reduce((k, n) => k + n.damaged.length, 0);
  io.err(`jev-mem: SQLite could not change the damaged store file, so the erasure was made as a copy: ${kept} other node(s) copied into a fresh ${store}/jev-mem.sqlite, ${lost} damaged node(s) could not be read and were left out (as jev-mem repair does); the damaged file was overwritten with zeros and removed`);
}
