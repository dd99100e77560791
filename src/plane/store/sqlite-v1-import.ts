/**
 * The import of a v1 file store into the Node store's database (`sqlite-file-storage.ts`, module
 * note there): into `jev-mem.sqlite.migrating` in transactions of {@link MIGRATION_CHUNK} records,
 * renamed into place once whole, then the v1 files removed. Node only.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '../../util/logger.js';
import { openNodeSqlDriver } from '../drivers/sqlite-node.js';
import { importLegacyV1Store, removeLegacyV1Files } from './legacy-v1.js';
import { createSqlRecordStore } from './sql-record-store.js';

/** Records (nodes or edges) per transaction when a v1 store is imported. */
export const MIGRATION_CHUNK = 2000;

/**
 * Imports the v1 file store in `dir` into the database file `target` (in `dir`), then removes the
 * v1 files (see the module comment). The caller holds the writer lock.
 * @throws what `importLegacyV1Store` and the file system throw (the v1 store is then unchanged).
 */
export async function importV1(dir: string, target: string, logger: Logger): Promise<void> {
  if (!existsSync(target)) {
    const temp = `${target}.migrating`;
    await rm(temp, { force: true });
    await rm(`${temp}-journal`, { force: true });
    const driver = openNodeSqlDriver(temp);
    const into = createSqlRecordStore(
      { query: (sql, params) => driver.query(sql, params), transaction: (fn) => driver.transaction(fn), ready: (mode) => driver.ready(mode), settle: (claim) => driver.settle(claim) },
      { kind: 'sqlite', label: `the store being imported at ${temp}`, quotaRemedy: 'Free disk space and open the store again.', lexical: 'fts5', vacuum: false },
    );
    let counts;
    try {
      counts = await importLegacyV1Store(dir, into, MIGRATION_CHUNK);
    } finally {
      await into.close();
      driver.close();
    }
    await rename(temp, target);
    logger('warn', `imported the v1 file store at ${dir} into ${basename(target)}: ${counts.namespaces} namespaces, ${counts.nodes} nodes, ${counts.edges} edges`, { code: 'STORE_MIGRATED' });
  }
  await removeLegacyV1Files(dir);
  logger('warn', `removed the v1 store files of ${dir} (format.json, ns/, trash/): ${basename(target)} holds every memory they held, and no copy of deleted ones is kept`, { code: 'LEGACY_REMOVED' });
}

