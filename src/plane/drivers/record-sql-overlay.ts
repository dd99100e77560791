/**
 * The write overlay of one transaction of the SQL record driver (`record-sql.ts`): the writes a
 * transaction issues are kept here, in order, until its work has finished, and its reads see
 * them (a write transaction sees its own writes); then the driver applies them all in one
 * synchronous SQL transaction. Values are encoded at the write (`record-sql-codec.ts`), which
 * copies them and refuses what cannot be stored before anything reaches the database.
 *
 * @module
 */
import type { RecordKey, RecordTable } from './record-driver.js';

/** One write of a transaction, in issue order. */
export type OverlayOp =
  | { kind: 'put'; table: RecordTable; ns: string; key: RecordKey; blob: Uint8Array; value: unknown }
  | { kind: 'delete'; table: RecordTable; ns: string; key: RecordKey }
  | { kind: 'range'; table: RecordTable; ns: string; upTo: RecordKey | undefined };

/** What the overlay knows of one key: `'absent'` (deleted), a stored blob, or nothing (ask the database). */
export type OverlayAnswer = { blob: Uint8Array } | 'absent' | undefined;

const encoder = new TextEncoder();

/** The driver's key order (numbers first, strings by UTF-8 bytes, as SQLite orders the stored keys). */
export function compareSqlKeys(a: RecordKey, b: RecordKey): number {
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
    return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  }
  if (a === b) return 0;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

const pointKey = (table: RecordTable, ns: string, key: RecordKey): string => `${table}:${ns.length}:${ns}:${typeof key === 'number' ? `n${key}` : `s${key}`}`;
const spaceKey = (table: RecordTable, ns: string): string => `${table}:${ns.length}:${ns}`;

/** The writes of one transaction and the answers they give its reads. */
export class Overlay {
  /** Every write, in issue order. */
  readonly ops: OverlayOp[] = [];
  private readonly points = new Map<string, number>();
  /** Positions in {@link ops} of the range deletes, ascending. */
  private readonly ranges: number[] = [];
  private readonly touched = new Set<string>();
  private readonly tables = new Set<RecordTable>();
  /** Keys this transaction read from the database and found absent or held in one chunk, and never put in more. */
  private readonly oneChunk = new Set<string>();
  /** Keys this transaction put in more than one chunk. */
  private readonly multi = new Set<string>();

  /** @param chunkBytes - the size of a stored chunk: a put of a longer value is stored in more than one. */
  constructor(private readonly chunkBytes = Infinity) {}

  /** Records a write. */
  add(op: OverlayOp): void {
    this.ops.push(op);
    this.touched.add(spaceKey(op.table, op.ns));
    this.tables.add(op.table);
    if (op.kind !== 'range') this.points.set(pointKey(op.table, op.ns, op.key), this.ops.length - 1);
    // From this put on, the key may hold more than one chunk: later puts of it delete the rest.
    if (op.kind === 'put' && op.blob.byteLength > this.chunkBytes) {
      this.multi.add(pointKey(op.table, op.ns, op.key));
      this.oneChunk.delete(pointKey(op.table, op.ns, op.key));
    }
    else this.ranges.push(this.ops.length - 1);
  }

  /**
   * Notes that the database holds no chunk after the first of `(table, ns, key)` (a read of
   * this transaction found it absent or in one chunk): a put of it then has no later chunk to
   * remove ({@link hasOneChunk}). Nothing else writes the database while a write transaction
   * runs (`record-sql.ts`), and a put of one chunk adds none, so what the read found is what
   * the transaction's puts meet, unless this transaction puts the key in more than one chunk
   * (before the read resolved or after: then every put of it deletes the rest).
   */
  noteOneChunk(table: RecordTable, ns: string, key: RecordKey): void {
    const k = pointKey(table, ns, key);
    if (!this.multi.has(k)) this.oneChunk.add(k);
  }

  /** Whether a read of this transaction found `(table, ns, key)` absent or in one chunk ({@link noteOneChunk}). */
  hasOneChunk(table: RecordTable, ns: string, key: RecordKey): boolean {
    return this.oneChunk.has(pointKey(table, ns, key));
  }

  /** Whether a write of this transaction touched `(table, ns)`. */
  touches(table: RecordTable, ns: string): boolean {
    return this.touched.has(spaceKey(table, ns));
  }

  /** Whether a write of this transaction touched `table` (any namespace). */
  touchesTable(table: RecordTable): boolean {
    return this.tables.has(table);
  }

  /** Namespaces of `table` that this transaction put a record into. */
  putNamespaces(table: RecordTable): string[] {
    return [...new Set(this.ops.filter((o) => o.kind === 'put' && o.table === table).map((o) => o.ns))];
  }

  /** What this transaction's writes say of `(table, ns, key)`. */
  answer(table: RecordTable, ns: string, key: RecordKey): OverlayAnswer {
    if (!this.touches(table, ns)) return undefined;
    const at = this.points.get(pointKey(table, ns, key)) ?? -1;
    for (let r = this.ranges.length - 1; r >= 0 && (this.ranges[r] as number) > at; r--) {
      const op = this.ops[this.ranges[r] as number] as OverlayOp;
      if (op.kind === 'range' && op.table === table && op.ns === ns && (op.upTo === undefined || compareSqlKeys(key, op.upTo) <= 0)) return 'absent';
    }
    if (at < 0) return undefined;
    const op = this.ops[at] as OverlayOp;
    return op.kind === 'put' ? { blob: op.blob } : 'absent';
  }

  /** Keys after `after` that this transaction put into `(table, ns)` and still holds. */
  putKeys(table: RecordTable, ns: string, after: RecordKey | undefined): RecordKey[] {
    const keys = new Map<string, RecordKey>();
    for (const op of this.ops) {
      if (op.kind !== 'put' || op.table !== table || op.ns !== ns) continue;
      if (after !== undefined && compareSqlKeys(op.key, after) <= 0) continue;
      keys.set(pointKey(table, ns, op.key), op.key);
    }
    return [...keys.values()].filter((k) => typeof this.answer(table, ns, k) === 'object');
  }
}
