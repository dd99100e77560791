/**
 * What every persistent store does with damaged records (issue 22, "damage stays local"), on top
 * of its connection's {@link DamageLog}: decoding stored node records while skipping and logging
 * the ones that fail their checksum or their decoding ({@link soundNodes}), refusing writes into a
 * namespace known to hold damaged records ({@link refuseDamagedWrite}), the full pass of
 * `StorageAdapter.damaged` ({@link verifyDamage}) and the whole `damaged` method with its
 * O(1) answer (`scan: false`) and its count of unreachable records ({@link damagedMethod},
 * issue 25). The store supplies its record codec and words.
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../../errors.js';
import type { MemoryNode } from '../../types.js';
import type { DamageLog, DamageReport } from './checksum.js';
import type { DamageOptions, WriteBatch } from './storage.js';

/** How a store reads one stored node record (see {@link soundNodes}). */
export interface NodeRecordCodec<R> {
  /** The node id of record `r`, the `i`-th of the records read (for the damage log). */
  id(r: R, i: number): string;
  /** Whether `r` matches its checksum (a record without one fails). */
  sound(r: R): boolean;
  /** The node `r` stores. @throws on a record that cannot be decoded. */
  decode(r: R): MemoryNode;
}

/**
 * The nodes of stored records, each checked against its checksum and decoded; a record that
 * fails either is left out and its id kept in `damage`. Absent (`undefined`) records are skipped.
 */
export function soundNodes<R>(damage: DamageLog, namespace: string, records: ReadonlyArray<R | undefined>, codec: NodeRecordCodec<R>): MemoryNode[] {
  const out: MemoryNode[] = [];
  records.forEach((r, i) => {
    if (r === undefined) return;
    const id = codec.id(r, i);
    if (!codec.sound(r)) {
      damage.node(namespace, id);
      return;
    }
    try {
      out.push(codec.decode(r));
    } catch {
      damage.node(namespace, id);
    }
  });
  return out;
}

/** The words of a store's refusal (see {@link refuseDamagedWrite}). */
export interface DamageWords {
  /** The store's label, first in the message (`IndexedDB`). */
  store: string;
  /** The namespace as the message shows it (quoted). */
  namespace: string;
  /** What the user can do, last in the message. */
  remedy: string;
}

/**
 * Refuses a batch that puts nodes or edges into a namespace whose damaged node records, or
 * damaged adjacency or edge-id records, are known (deletes alone pass: they are how damage is
 * cleaned up). A put would write over what a repair still rebuilds: the edges a damaged adjacency
 * record held are read from their other ends until then. Damaged meta, counters and change lists
 * do not refuse: a write stores them sound again.
 * A store whose file SQLite found malformed (`DamageLog.malformed`, from `jev-mem check`)
 * refuses puts into every namespace.
 * @throws JevMemError `STORE_DAMAGED` (field `namespace`, `ids`: the damaged node ids, `records`:
 *   the other damaged records named `<table>:<key>`), naming up to ten of them; for a malformed
 *   file field `store` and `sqlite`, SQLite's findings.
 */
export function refuseDamagedWrite(damage: DamageLog, namespace: string, batch: WriteBatch, words: DamageWords): void {
  const puts = (batch.putNodes ?? []).length + (batch.putEdges ?? []).length > 0;
  const malformed = damage.malformed();
  if (puts && malformed.length > 0) {
    throw new JevMemError(
      'STORE_DAMAGED',
      `${words.store}: SQLite found the store file malformed (${malformed[0]}); writes are refused (nothing was written), deletes and forget still work. Run jev-mem repair`,
      { field: 'store', ids: [], sqlite: [...malformed] },
    );
  }
  const ids = damage.ids(namespace);
  const records = damage.records(namespace).filter((r) => r.startsWith('adj:') || r.startsWith('edge-ids:'));
  if (ids.length + records.length === 0 || ((batch.putNodes ?? []).length === 0 && (batch.putEdges ?? []).length === 0)) return;
  const all = [...ids.map((id) => JSON.stringify(id)), ...records.map((r) => `${r.slice(0, r.indexOf(':'))} record of ${JSON.stringify(r.slice(r.indexOf(':') + 1))}`)];
  const shown = all.slice(0, 10).join(', ') + (all.length > 10 ? `, … (${all.length} in all)` : '');
  throw new JevMemError(
    'STORE_DAMAGED',
    `${words.store}: namespace ${words.namespace} holds damaged record(s) ${shown}; writes are refused (nothing was written). ${words.remedy}`,
    records.length > 0 ? { field: 'namespace', ids, records } : { field: 'namespace', ids },
  );
}

/**
 * The damage of one namespace (`StorageAdapter.damaged`): the first call of a connection reads
 * every node record (`scanNodes`, which logs the damaged ones), every other record
 * (`scanOthers`, the same) and the checkpoint (a
 * `STORE_DAMAGED` answer is logged, not thrown), then marks the namespace verified; later calls
 * answer from the log, which reads keep up to date.
 * @throws whatever `scanNodes` or `readCheckpoint` throw but `STORE_DAMAGED` of the checkpoint.
 */
export async function verifyDamage(
  damage: DamageLog,
  namespace: string,
  scanNodes: () => AsyncIterable<unknown>,
  readCheckpoint: () => Promise<unknown>,
  scanOthers: () => Promise<void> = async () => undefined,
): Promise<DamageReport> {
  if (!damage.verified(namespace)) {
    damage.startPass(namespace);
    for await (const _ of scanNodes()) {
      // the scan checks every record and logs the damaged ones
    }
    await scanOthers();
    await readCheckpoint().catch((e: unknown) => {
      if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
    });
    damage.markVerified(namespace);
  }
  return damage.report(namespace);
}

/** What {@link damagedMethod} reads of a store. */
export interface DamagePassReads {
  /** Every sound node record of the namespace in batches (damaged ones are logged, not yielded). */
  scanNodes(namespace: string): AsyncIterable<readonly unknown[]>;
  /** The namespace's checkpoint; `STORE_DAMAGED` for a damaged one (logged by the store). */
  readCheckpoint(namespace: string): Promise<unknown>;
  /** The store's kept node counter of the namespace (issue 25), or undefined when it keeps none. */
  keptNodes(namespace: string): Promise<number | undefined>;
  /** Reads every other record of the namespace (adjacency, meta, bookkeeping …); the damaged ones are logged. */
  scanOthers(namespace: string): Promise<void>;
}

/**
 * The `StorageAdapter.damaged` of a store (issue 25). With `scan: false`, or once this
 * connection made its full pass of the namespace, the answer is the damage already known, O(1):
 * what reads met (`damage`) and what the last full pass found. Otherwise the full pass
 * ({@link verifyDamage}) reads every node record and the checkpoint, and compares the records
 * it reached (sound or damaged) with the kept node counter: a shortfall is records the store
 * counts that no read reaches (`DamageReport.unreadable`; their ids are unknown; none is claimed
 * when the counter changed during the pass: another writer). Dropping the
 * namespace (`DamageLog.drop`) forgets the pass and its shortfall.
 * @throws whatever `reads` throw but `STORE_DAMAGED` of the checkpoint.
 */
export function damagedMethod(damage: DamageLog, reads: DamagePassReads): (namespace: string, options?: DamageOptions) => Promise<DamageReport> {
  /** Records the last full pass could not reach, by namespace. */
  const unreadable = new Map<string, number>();
  const known = (namespace: string): DamageReport => {
    const report = damage.report(namespace);
    const n = damage.verified(namespace) ? (unreadable.get(namespace) ?? 0) : 0;
    return n > 0 ? { ...report, unreadable: n } : report;
  };
  return async (namespace, options) => {
    if (options?.scan === false || damage.verified(namespace)) return known(namespace);
    let read = 0;
    const counted = async function* (): AsyncIterable<unknown> {
      for await (const batch of reads.scanNodes(namespace)) {
        read += batch.length;
        yield batch;
      }
    };
    // The counter before and after the pass: the pass reads in several transactions, so another
    // process's writes meanwhile (a changed counter) make the comparison meaningless; no
    // shortfall is then claimed (an export during an ingest is no damaged store).
    const keptBefore = await reads.keptNodes(namespace);
    const report = await verifyDamage(damage, namespace, counted, () => reads.readCheckpoint(namespace), () => reads.scanOthers(namespace));
    const kept = await reads.keptNodes(namespace);
    const short = kept === undefined || kept !== keptBefore ? 0 : kept - read - report.ids.length;
    if (short > 0) unreadable.set(namespace, short);
    else unreadable.delete(namespace);
    return known(namespace);
  };
}
