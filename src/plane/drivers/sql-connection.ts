/**
 * The synchronous SQLite connection under the SQL record driver (`record-sql.ts`, issue 22):
 * node-sqlite3-wasm in Node (`sqlite-node.ts`), a Durable Object's `ctx.storage.sql`
 * (`edge/do-storage.ts`). Types only.
 *
 * @module
 */

/** A value a statement binds (BLOBs as Uint8Array). */
export type SqlParam = string | number | Uint8Array | null;

/** One result row keyed by column name (BLOBs as Uint8Array). */
export type SqlRow = Record<string, string | number | bigint | Uint8Array | null>;

/**
 * What {@link SqlConnection.ready} answers: the lease of the database lock the caller's statements
 * run in (Node: a number naming it, `0` for none), to hand back to {@link SqlConnection.settle};
 * nothing where there are no leases (a Durable Object).
 */
export type SqlClaim = number | undefined;

/** The synchronous SQLite connection under the driver. No member is optional. */
export interface SqlConnection {
  /** Runs one statement with `?` bindings and returns its rows. @throws Error on a SQL failure. */
  query(sql: string, params?: readonly SqlParam[]): SqlRow[];
  /** Runs `fn` as one transaction: a throw rolls every statement back and is rethrown. */
  transaction<T>(fn: () => T): T;
  /**
   * Resolves when the synchronous statements that follow in this turn of the event loop can run
   * without waiting (`'write'`: as the one writer, in the write transaction the next
   * {@link transaction} of the turn runs in). A Durable Object resolves at once.
   * @returns the claim to hand to {@link settle} once those statements are done.
   */
  ready(mode: 'read' | 'write'): Promise<SqlClaim | void>;
  /**
   * Says that the statements that followed the {@link ready} that answered `claim` are done (the
   * end of one record transaction, one search of the lexical index), so a lock shared with other
   * processes may be given back now when one of them waits for it (Node: sqlite-node.ts). A claim
   * of a lease that has ended since is ignored (it never ends a later lease another caller
   * holds); no claim at all settles one of the lease open now (the behaviour before claims).
   * A Durable Object does nothing.
   */
  settle(claim?: SqlClaim | void): void;
}

