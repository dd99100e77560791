/**
 * A stand-in for a Durable Object's `ctx.storage` over a node-sqlite3-wasm database (in memory or
 * on a file): `sql.exec` with ArrayBuffer blobs as the runtime gives them, `transactionSync`.
 */
import type { Database } from 'node-sqlite3-wasm';
import type { DurableObjectStorageLike, SqlValue } from '../../src/edge/do-storage.js';

export function fakeDoStorage(db: Database): DurableObjectStorageLike {
  return {
    sql: {
      exec: (query: string, ...bindings: SqlValue[]) => {
        const params = bindings.map((v) => (v instanceof ArrayBuffer ? new Uint8Array(v) : v));
        const rows = db.all(query, params as never) as Array<Record<string, unknown>>;
        return { toArray: () => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Uint8Array ? v.slice().buffer : (v as SqlValue)]))) };
      },
    },
    transactionSync: <T>(fn: () => T): T => {
      db.exec('BEGIN');
      try {
        const out = fn();
        db.exec('COMMIT');
        return out;
      } catch (e) {
        db.exec('ROLLBACK');
        throw e;
      }
    },
  };
}
