/**
 * A {@link SqlConnection} over an in-memory node-sqlite3-wasm database, for the SQL record
 * driver's tests (no file, no lock: `ready` resolves at once, as a Durable Object's does).
 */
import sqlite from 'node-sqlite3-wasm';
import type { SqlConnection, SqlParam, SqlRow } from '../../src/plane/drivers/record-sql.js';

/** An in-memory SQLite connection (or one on the file `path`, with no lock of its own); `close()` releases it. */
export function memorySqlConnection(path = ':memory:'): SqlConnection & { close(): void; statements: number } {
  const db = new sqlite.Database(path);
  db.exec('PRAGMA secure_delete = ON'); // as the Node driver sets it: deleted bytes are zeroed
  let depth = 0;
  const conn = {
    statements: 0,
    query(sql: string, params: readonly SqlParam[] = []): SqlRow[] {
      conn.statements++;
      return db.all(sql, params as SqlParam[]) as SqlRow[];
    },
    transaction<T>(fn: () => T): T {
      if (depth > 0) return fn();
      db.exec('BEGIN IMMEDIATE');
      depth++;
      try {
        const out = fn();
        db.exec('COMMIT');
        return out;
      } catch (e) {
        db.exec('ROLLBACK');
        throw e;
      } finally {
        depth--;
      }
    },
    async ready(): Promise<void> {},
    settle(): void {},
    close(): void {
      if (db.isOpen) db.close();
    },
  };
  return conn;
}
