/**
 * The commit of a {@link WriteBatch} to the SQL store (`sql-storage.ts`): the batch checked
 * (shape, U+0000 in a key, cloneable, JSON-safe, no puts into a namespace known to hold damaged
 * records) and encoded before anything is written, then applied in one transaction as deletes,
 * puts and meta, with its change-log entry, its checkpoint change, the FTS table and the kept
 * counts (`sql-stats.ts`, issue 25) kept in step;
 * every failure mapped to the error family with nothing written.
 *
 * @module
 */
import { JevMemError, invalidInput } from '../../errors.js';
import { quoteVisible } from '../../util/invisible.js';
import { changedNodeIds, cloneBatch, validateBatch } from './memory-storage.js';
import type { SqlCheckpoints } from './sql-checkpoint.js';
import { type EdgeRow, type NodeRow, canonicalSplits, encodeEdges, encodeMeta, encodeNodes, num } from './sql-codec.js';
import { sqlError } from './sql-errors.js';
import type { SqlIds } from './sql-ids.js';
import type { SqlRows } from './sql-rows.js';
import { MAX_BINDINGS, chunked, placeholders } from './sql-schema.js';
import type { SqlSession } from './sql-session.js';
import { applyDelta, measureTouched, readStat, recount, writeStat } from './sql-stats.js';
import type { SqlStoreLexical } from './sql-store-lexical.js';
import { CHANGED_ELSEWHERE, type StorageAdapter, type WriteBatch } from './storage.js';
import { refuseDamagedWrite } from './store-damage.js';

/**
 * Refuses a batch with a U+0000 in a node or edge id or a meta key: a driver may bind a string
 * only up to its first NUL (node-sqlite3-wasm does), which would store `"a\u0000b"` as `"a"`,
 * one record for two names.
 * @throws JevMemError `INVALID_INPUT` naming the field (`batch.putNodes[2].id`).
 */
function refuseNul(batch: WriteBatch): void {
  const check = (field: string, value: unknown): void => {
    if (typeof value === 'string' && value.includes('\u0000')) throw invalidInput(field, `${quoteVisible(value)} holds U+0000, which this store cannot keep whole`);
  };
  batch.putNodes?.forEach((n, i) => check(`batch.putNodes[${i}].id`, n.id));
  batch.putEdges?.forEach((e, i) => {
    for (const key of ['id', 'from', 'to'] as const) check(`batch.putEdges[${i}].${key}`, e[key]);
  });
  for (const key of Object.keys(batch.meta ?? {})) check(`batch.meta.${key}`, key);
}

/**
 * Refuses a batch planned on an older state of the namespace (issue 22: two writers, one seq):
 * each key of `batch.expectMeta` must hold the value given (`null`: absent), compared as JSON.
 * Run inside the commit's transaction, under the write lock, so no other writer can commit
 * between this check and the batch.
 * @throws JevMemError `STORAGE_FAILED` with detail {@link CHANGED_ELSEWHERE} (the key that differed).
 */
function refuseChanged(s: SqlSession, ids: SqlIds, namespace: string, expect: Record<string, unknown>): void {
  const ns = ids.nsId(namespace);
  for (const [key, want] of Object.entries(expect)) {
    const row = ns === undefined ? undefined : s.q(`SELECT value FROM ${s.t.kv} WHERE ns = ? AND key = ?`, [ns, key])[0];
    const have = row === undefined ? 'null' : String(row.value);
    if (have === JSON.stringify(want ?? null)) continue;
    throw new JevMemError(
      'STORAGE_FAILED',
      `${s.label} refused a commit to namespace ${JSON.stringify(namespace)}: another writer committed to it since this one loaded it (meta ${JSON.stringify(key)} changed); nothing was written, reload and write again`,
      { field: 'namespace', [CHANGED_ELSEWHERE]: key },
    );
  }
}

/** The parts of a session a commit writes through. */
export interface SqlCommitParts {
  ids: SqlIds;
  rows: SqlRows;
  lexical: SqlStoreLexical;
  checkpoints: SqlCheckpoints;
}

/** The adapter's `commit` over session `s` (see the module header). */
export function sqlCommit(s: SqlSession, { ids, rows, lexical, checkpoints }: SqlCommitParts): StorageAdapter['commit'] {
  const { q, t } = s;
  return async (namespace, batch) => {
    s.live();
    validateBatch(namespace, batch);
    refuseNul(batch);
    cloneBatch(batch);
    // Encode everything before the transaction opens: nothing can fail half-way for JSON.
    const putNodes = batch.putNodes ?? [];
    const putEdges = batch.putEdges ?? [];
    const nodeRows = encodeNodes(putNodes, 'batch.putNodes');
    const edgeRows = encodeEdges(putEdges, 'batch.putEdges');
    const meta = encodeMeta(batch.meta ?? {});
    const changed = batch.change === undefined ? [] : changedNodeIds(batch);
    s.ensureReady();
    await s.write();
    refuseDamagedWrite(s.damage, namespace, batch, {
      store: s.label,
      namespace: JSON.stringify(namespace),
      remedy: 'Run `jev-mem check`, then `jev-mem repair` (or delete the damaged nodes)',
    });
    try {
      s.tx(() => {
        if (batch.expectMeta !== undefined) refuseChanged(s, ids, namespace, batch.expectMeta);
        const ns = ids.ensureNs(namespace);
        // The kept counts (issue 25): the rows this batch can touch, measured before and after.
        const stat = readStat(q, t, ns) ?? recount(q, t, ns);
        const nodeIds = [...(batch.deleteNodeIds ?? []), ...putNodes.map((n) => n.id)];
        const edgeIds = [...(batch.deleteEdgeIds ?? []), ...putEdges.map((e) => e.id)];
        const fromIds = [...putEdges.map((e) => e.from), ...edgeIds.flatMap((id) => canonicalSplits(id).map((split) => split.from))];
        const srcSlots = [...ids.slotsOf(ns, fromIds).values()];
        for (const part of chunked([...new Set(edgeIds)], MAX_BINDINGS - 1)) {
          for (const r of q(`SELECT src FROM ${t.edge} WHERE ns = ? AND eid IN (${placeholders(part.length)}) AND eid <> ''`, [ns, ...part])) srcSlots.push(num(r.src));
        }
        const metaKeys = meta.map(([k]) => k);
        const before = measureTouched(q, t, ns, ids.slotsOf(ns, nodeIds).values(), srcSlots, metaKeys);
        lexical.checkLexical(ns);
        const freed: number[] = [];
        /** A damaged row left the FTS table: rebuild it from the sound rows at the end. */
        let rebuild = false;
        for (const id of batch.deleteNodeIds ?? []) {
          const slot = ids.slotOf(ns, id);
          if (slot === undefined) continue;
          if (lexical.unindex(ns, slot)) rebuild = true;
          q(`DELETE FROM ${t.node} WHERE slot = ?`, [slot]);
          freed.push(slot);
        }
        for (const id of batch.deleteEdgeIds ?? []) freed.push(...rows.deleteEdgeById(ns, id));
        ids.prefetchSlots(ns, [...putNodes.map((n) => n.id), ...putEdges.flatMap((e) => [e.from, e.to])]);
        putNodes.forEach((n, i) => {
          rebuild = lexical.putIndexed(ns, n, rebuild, () => rows.putNodeRow(ns, n, nodeRows[i] as NodeRow));
        });
        putEdges.forEach((e, i) => {
          const row = edgeRows[i] as EdgeRow;
          freed.push(...rows.deleteEdgeById(ns, e.id, { edge: e, row }));
          rows.putEdgeRow(ns, e, row);
        });
        for (const [k, v] of meta) rows.setMeta(ns, k, v);
        for (const id of changed) q(`INSERT OR IGNORE INTO ${t.changes} (ns, change, id) VALUES (?, ?, ?)`, [ns, batch.change as number, id]);
        if (rebuild) lexical.rebuildLexical(ns);
        srcSlots.push(...ids.slotsOf(ns, putEdges.map((e) => e.from)).values());
        writeStat(q, t, ns, applyDelta(stat, before, measureTouched(q, t, ns, ids.slotsOf(ns, nodeIds).values(), srcSlots, metaKeys)));
        rows.collectSlots(ns, freed);
        // The checkpoint change of the batch (issue 22): same transaction as the node changes.
        if (batch.checkpoint === null) checkpoints.clearCheckpoint(ns);
        else if (batch.checkpoint !== undefined) checkpoints.putCheckpoint(ns, batch.checkpoint);
      });
    } catch (e) {
      throw sqlError(s.label, `commit to namespace ${JSON.stringify(namespace)}`, e);
    }
    for (const id of batch.deleteNodeIds ?? []) s.damage.clear(namespace, id);
  };
}
