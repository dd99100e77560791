/**
 * Checkpoints in the SQL store (`sql-storage.ts`): a checkpoint's parts cut in chunks of
 * {@link CHECKPOINT_CHUNK_BYTES}, each with its checksum (`sql-schema.ts` `chunkSum`), written
 * with the change-log floor it sets and the log entries it covers dropped; read back whole, a
 * chunk that fails its checksum (or lies on a damaged page) making the checkpoint damaged
 * (`STORE_DAMAGED`, kept in the damage log; the memory rebuilds it from the rows). Also the
 * adapter's `readCheckpoint`, `writeCheckpoint` and `dropCheckpoint`.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { bytes, num } from './sql-codec.js';
import { isCorruptError, sqlError } from './sql-errors.js';
import type { SqlIds } from './sql-ids.js';
import { CHECKPOINT_CHUNK_BYTES, type SqlRow, chunkSum } from './sql-schema.js';
import type { SqlSession } from './sql-session.js';
import type { Checkpoint, StorageAdapter } from './storage.js';

/** The checkpoint rows and methods of one session (see the module header). */
export interface SqlCheckpoints {
  /** Replaces the checkpoint of namespace row `ns` and drops the log it covers (inside a transaction). */
  putCheckpoint(ns: number, checkpoint: Checkpoint): void;
  /** Removes the checkpoint of namespace row `ns` (inside a transaction). */
  clearCheckpoint(ns: number): void;
  /** The adapter methods. */
  methods: Pick<StorageAdapter, 'readCheckpoint' | 'writeCheckpoint' | 'dropCheckpoint'>;
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The checkpoint rows and methods over session `s`. */
export function createSqlCheckpoints(s: SqlSession, ids: SqlIds): SqlCheckpoints {
  const { q, t, label } = s;
  /** The error of a damaged checkpoint (kept in the damage log); the memory rebuilds it from the rows. */
  const checkpointDamaged = (namespace: string, why: string): JevMemError => {
    s.damage.checkpoint(namespace);
    return new JevMemError('STORE_DAMAGED', `${label}: the checkpoint of namespace ${JSON.stringify(namespace)} is damaged (${why}); it is rebuilt from the node rows`, { field: 'checkpoint', ids: [] });
  };
  const putCheckpoint = (ns: number, checkpoint: Checkpoint): void => {
    q(`DELETE FROM ${t.part} WHERE ns = ?`, [ns]);
    q(`INSERT OR REPLACE INTO ${t.checkpoint} (ns, change, format) VALUES (?, ?, ?)`, [ns, checkpoint.change, checkpoint.format]);
    for (const [name, data] of Object.entries(checkpoint.parts)) {
      const count = Math.max(1, Math.ceil(data.length / CHECKPOINT_CHUNK_BYTES));
      for (let c = 0; c < count; c++) {
        const chunk = data.subarray(c * CHECKPOINT_CHUNK_BYTES, (c + 1) * CHECKPOINT_CHUNK_BYTES);
        q(`INSERT INTO ${t.part} (ns, name, chunk, data, sum) VALUES (?, ?, ?, ?, ?)`, [ns, name, c, chunk, chunkSum(name, c, chunk)]);
      }
    }
    q(`DELETE FROM ${t.changes} WHERE ns = ? AND change <= ?`, [ns, checkpoint.change]);
    q(`UPDATE ${t.names} SET floor = MAX(floor, ?) WHERE ns = ?`, [checkpoint.change, ns]);
  };
  const clearCheckpoint = (ns: number): void => {
    q(`DELETE FROM ${t.part} WHERE ns = ?`, [ns]);
    q(`DELETE FROM ${t.checkpoint} WHERE ns = ?`, [ns]);
  };
  return {
    putCheckpoint,
    clearCheckpoint,
    methods: {
      async readCheckpoint(namespace): Promise<Checkpoint | undefined> {
        s.enter(namespace);
        return s.read(`read the checkpoint of namespace ${JSON.stringify(namespace)}`, () => {
          const ns = ids.nsId(namespace);
          if (ns === undefined) return undefined;
          const head = q(`SELECT change, format FROM ${t.checkpoint} WHERE ns = ?`, [ns])[0];
          if (head === undefined) return undefined;
          const chunks = new Map<string, Uint8Array[]>();
          let rows: SqlRow[];
          try {
            rows = q(`SELECT name, chunk, data, sum FROM ${t.part} WHERE ns = ? ORDER BY name, chunk`, [ns]);
          } catch (e) {
            if (!isCorruptError(e)) throw e;
            throw checkpointDamaged(namespace, `SQLite reports its pages damaged (${e instanceof Error ? e.message : String(e)})`);
          }
          for (const r of rows) {
            const name = String(r.name);
            const data = r.data instanceof Uint8Array ? r.data : undefined;
            if (data === undefined || r.sum === null || r.sum === undefined || chunkSum(name, num(r.chunk), data) !== num(r.sum)) {
              throw checkpointDamaged(namespace, `chunk ${num(r.chunk)} of part ${JSON.stringify(name)} fails its checksum`);
            }
            const list = chunks.get(name) ?? [];
            list.push(bytes(data));
            chunks.set(name, list);
          }
          const parts: Record<string, Uint8Array> = {};
          for (const [name, list] of chunks) parts[name] = concat(list);
          return { change: num(head.change), format: String(head.format), parts };
        });
      },

      async writeCheckpoint(namespace, checkpoint): Promise<void> {
        s.enter(namespace);
        await s.write();
        try {
          s.tx(() => {
            putCheckpoint(ids.ensureNs(namespace), checkpoint);
          });
        } catch (e) {
          throw sqlError(label, `write the checkpoint of namespace ${JSON.stringify(namespace)}`, e);
        }
      },

      async dropCheckpoint(namespace): Promise<void> {
        s.enter(namespace);
        await s.write();
        try {
          s.tx(() => {
            const ns = ids.nsId(namespace);
            if (ns !== undefined) clearCheckpoint(ns);
          });
        } catch (e) {
          throw sqlError(label, `drop the checkpoint of namespace ${JSON.stringify(namespace)}`, e);
        }
      },
    },
  };
}
