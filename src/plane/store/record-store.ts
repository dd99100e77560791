/**
 * The one record store (issue 22): the storage behaviour written once over a narrow
 * {@link RecordDriver} (`../drivers/record-driver.ts`), for the in-memory and IndexedDB stores.
 * The store owns everything but the platform: batch and checkpoint validation
 * (`record-batch.ts`), the commit in one driver transaction with the change log and the kept
 * counters that make `counts` and `sizeBytes` O(1) (`record-commit.ts`, `record-edges.ts`,
 * `record-counters.ts`), checkpoints with a CRC-32 per part and the
 * change-log floor (`record-checkpoint.ts`), reads with damage detection, skipping and naming
 * (`record-reads.ts`, `store-damage.ts`; `damaged(ns, { scan: false })` answers the damage
 * already known without a full pass, issue 25), whole-namespace operations (`record-namespaces.ts`) and
 * error mapping (`record-errors.ts`). The lexical index stays with the memory (MiniSearch, in its
 * checkpoint), unless the driver keeps one (`options.lexicalIndex`: the SQL driver's FTS5 index).
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import type { RecordDriver } from '../drivers/record-driver.js';
import type { LexicalIndex } from '../indexes/indexes.js';
import { DamageLog, type KnownDamage } from './checksum.js';
import { checkExistingNamespaceName } from './names.js';
import { checkpointMethods } from './record-checkpoint.js';
import { recordCommit } from './record-commit.js';
import type { StoreWords } from './record-errors.js';
import { namespaceMethods } from './record-namespaces.js';
import { readMethods } from './record-reads.js';
import { screenedDriver } from './record-screen.js';
import type { StorageAdapter } from './storage.js';
import type { LanguageCode } from '../text/language.js';

/** What a record store is called, in `kind` and in its messages. */
export interface RecordStoreOptions extends StoreWords {
  /** The adapter kind (`'memory'`, `'indexeddb'`, `'sqlite'`, `'durable-object'`). */
  kind: string;
  /**
   * The lexical index the driver keeps itself (the SQL driver's FTS5 index, `record-sql-lexical.ts`),
   * answered by `lexicalIndex` (contract in `storage.ts`); without it `lexicalIndex` answers
   * undefined and the memory keeps MiniSearch in its checkpoints.
   */
  lexicalIndex?: (namespace: string, language?: LanguageCode) => LexicalIndex | undefined;
  /** Damage an earlier full pass found (`damage-file.ts`): the damage log starts from it. */
  knownDamage?: KnownDamage | undefined;
  /** Told each damaged record a read finds that the log did not hold (`DamageLog.onFound`): the Node store keeps it for the next process. */
  onDamage?: ((namespace: string, found: { ids: string[]; records: string[] }) => void) | undefined;
}

/** Methods of the port that take a namespace first (checked, and refused after `close()`). */
type NamespacedMethod = Exclude<keyof StorageAdapter, 'kind' | 'namespaces' | 'lexicalIndex' | 'close' | 'pendingErasures' | 'vacuum' | 'settleErasures'>;

/**
 * A {@link StorageAdapter} over `driver` (see the module). Every method throws JevMemError
 * `CLOSED` after `close()` and `INVALID_INPUT` (field `namespace`) on a namespace that is not a
 * non-empty string; `commit` and `writeCheckpoint` throw `INVALID_INPUT` naming the field of a
 * malformed batch or checkpoint, `QUOTA_EXCEEDED` when the platform refused for space and
 * `STORE_DAMAGED` for puts into a namespace with damaged records, and `STORAGE_FAILED` marked
 * `CHANGED_ELSEWHERE` (nothing written) when the stored meta differs from the batch's
 * `expectMeta` (checked inside the commit's transaction: two writers of one driver, such as two
 * tabs on one IndexedDB database, never both commit on one state); reads throw `STORAGE_FAILED`,
 * and `readCheckpoint` `STORE_DAMAGED` (field `checkpoint`) for a checkpoint that fails its sums.
 * `close()` closes the driver (idempotent).
 */
export function createRecordStore(raw: RecordDriver, options: RecordStoreOptions): StorageAdapter {
  const words: StoreWords = { label: options.label, quotaRemedy: options.quotaRemedy };
  const damage = new DamageLog();
  if (options.knownDamage !== undefined) damage.seed(options.knownDamage);
  if (options.onDamage !== undefined) damage.onFound(options.onDamage);
  // Every read of every method passes the screen: damaged records are skipped, logged and named.
  const driver = screenedDriver(raw, damage);
  let closed = false;
  const live = (): void => {
    if (closed) throw new JevMemError('CLOSED', `the ${options.kind === 'indexeddb' ? 'IndexedDB' : options.kind} storage adapter was used after close()`);
  };
  const checkpoints = checkpointMethods(driver, damage, words);
  const methods = {
    ...readMethods(driver, damage, words, (namespace) => checkpoints.readCheckpoint(namespace)),
    commit: recordCommit(driver, damage, words),
    ...checkpoints,
    ...namespaceMethods(driver, damage, words),
  };
  /**
   * The method `name`, checking the store is open and the namespace is a non-empty string first
   * (a rejected promise; the scans, which return an iterable, throw at the call).
   */
  const scoped = <K extends NamespacedMethod>(name: K): StorageAdapter[K] => {
    const call = (namespace: string, ...rest: unknown[]): unknown => {
      live();
      checkExistingNamespaceName(namespace);
      return (methods[name] as (ns: string, ...r: unknown[]) => unknown)(namespace, ...rest);
    };
    const sync = name === 'scanNodes' || name === 'scanEdges';
    return (sync ? call : async (namespace: string, ...rest: unknown[]) => call(namespace, ...rest)) as StorageAdapter[K];
  };
  return {
    kind: options.kind,
    load: scoped('load'),
    commit: scoped('commit'),
    loadMeta: scoped('loadMeta'),
    async namespaces() {
      live();
      return methods.namespaces();
    },
    dropNamespace: scoped('dropNamespace'),
    sizeBytes: scoped('sizeBytes'),
    getNodes: scoped('getNodes'),
    getEdges: scoped('getEdges'),
    scanNodes: scoped('scanNodes'),
    scanEdges: scoped('scanEdges'),
    counts: scoped('counts'),
    readCheckpoint: scoped('readCheckpoint'),
    writeCheckpoint: scoped('writeCheckpoint'),
    dropCheckpoint: scoped('dropCheckpoint'),
    changesSince: scoped('changesSince'),
    damaged: scoped('damaged'),
    /** The driver's own index, or none: the memory then keeps MiniSearch in its checkpoint. */
    lexicalIndex: (namespace, language) => options.lexicalIndex?.(namespace, language),
    // Only the Node SQLite store rewrites its file after an erasure (sqlite-file-storage.ts).
    pendingErasures: () => 0,
    vacuum: async () => 0,
    settleErasures: async () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      driver.close();
    },
  };
}
