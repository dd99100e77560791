/**
 * The kept counters of the record store (issue 22, issue 25: O(1) `counts()` and `stats()`): a
 * {@link RecordTx} wrapper that tallies, for one namespace, how many node records and how many
 * bytes (the estimate of {@link recordBytes}) the writes of a transaction add or remove. Each
 * write takes the size of the value it replaces or removes in the same transaction (read once
 * per key: a read issued before the write sees the state before it; a key already read or
 * written is not read again), so the tally is exact however often a key is written; the store
 * adds the tally to the namespace's bookkeeping in the same transaction.
 *
 * @module
 */
import type { RecordKey, RecordTable, RecordTx } from '../drivers/record-driver.js';
import type { SpaceRecord } from './record-codec.js';

/** UTF-8 length of a string, without encoding it. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Rough bytes of a key or value: strings as UTF-8, numbers 8, binary at its length, containers summed (object keys too), anything else 1. */
export function approxBytes(value: unknown): number {
  if (typeof value === 'string') return utf8Length(value);
  if (typeof value === 'number') return 8;
  if (value === null || typeof value !== 'object') return 1;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (Array.isArray(value)) {
    let n = 0;
    for (const v of value) n += approxBytes(v);
    return n;
  }
  let n = 0;
  for (const [k, v] of Object.entries(value)) n += utf8Length(k) + approxBytes(v);
  return n;
}

/** The estimated stored size of one record: its namespace, key and value ({@link approxBytes}). */
export function recordBytes(namespace: string, key: RecordKey, value: unknown): number {
  return utf8Length(namespace) + approxBytes(key) + approxBytes(value);
}

/** Tables whose records the byte counter covers (the checkpoint and the bookkeeping are added when read). */
export const SIZED_TABLES: readonly RecordTable[] = ['node', 'adj', 'edge-ids', 'meta', 'changes'];
const SIZED: ReadonlySet<RecordTable> = new Set(SIZED_TABLES);

/** What the writes of a transaction changed in one namespace. */
export interface Tally {
  /** Node records added less node records removed. */
  nodes: number;
  /** Bytes added less bytes removed ({@link recordBytes}), over the sized tables. */
  bytes: number;
}

/** Keys in IndexedDB order: numbers before strings. */
function atMost(key: RecordKey, upTo: RecordKey): boolean {
  if (typeof key !== typeof upTo) return typeof key === 'number';
  return key <= upTo;
}

/**
 * Wraps `tx` so that its writes to `namespace` are tallied. `settle()` awaits the reads the
 * tally needs and returns it; call it after the last write, before putting the bookkeeping.
 *
 * The old value a write replaces is read once per key and transaction (issue 25): a key the work
 * read through the wrapper before writing it (the adjacency records of a commit's edges,
 * `record-edges.ts`) takes its old size from that read, and a key written before takes the size
 * of the value written; only a key met first by a write is read for the tally. After a
 * `deleteRange` of a table, its keys are read again.
 */
export function countingTx(tx: RecordTx, namespace: string): { tx: RecordTx; settle(): Promise<Tally> } {
  const pending: Array<Promise<void>> = [];
  // A tally read is awaited by settle(); when the work fails first (a put that cannot be cloned)
  // settle() never runs and the aborted read must not surface as an unhandled rejection.
  const track = (p: Promise<void>): void => {
    p.catch(() => undefined);
    pending.push(p);
  };
  const tally: Tally = { nodes: 0, bytes: 0 };
  const counted = (table: RecordTable, ns: string): boolean => ns === namespace && SIZED.has(table);
  // Per counted table and key: the size of the record stored there now in this transaction
  // (undefined: none), as a promise while the read that tells it is pending.
  const known = new Map<RecordTable, Map<RecordKey, Promise<number | undefined> | number | undefined>>();
  const knownIn = (table: RecordTable): Map<RecordKey, Promise<number | undefined> | number | undefined> => {
    let m = known.get(table);
    if (m === undefined) known.set(table, (m = new Map()));
    return m;
  };
  const sizeOf = (key: RecordKey) => (old: unknown): number | undefined => (old === undefined ? undefined : recordBytes(namespace, key, old));
  const removeOld = (table: RecordTable, key: RecordKey, next: number | undefined): void => {
    const m = knownIn(table);
    const old = m.has(key) ? m.get(key) : tx.get(table, namespace, key).then(sizeOf(key));
    m.set(key, next);
    const subtract = (bytes: number | undefined): void => {
      if (bytes === undefined) return;
      tally.bytes -= bytes;
      if (table === 'node') tally.nodes--;
    };
    if (old instanceof Promise) track(old.then(subtract));
    else subtract(old);
  };
  const wrapped: RecordTx = {
    get(table, ns, key) {
      const p = tx.get(table, ns, key);
      if (counted(table, ns)) {
        const m = knownIn(table);
        // A read issued before any write of the key in this transaction sees what a write would replace.
        if (!m.has(key)) {
          const size = p.then(sizeOf(key));
          size.catch(() => undefined);
          m.set(key, size);
        }
      }
      return p;
    },
    scan: (table, ns, after, limit) => tx.scan(table, ns, after, limit),
    namespaces: (table) => tx.namespaces(table),
    put(table, ns, key, value) {
      if (counted(table, ns)) {
        const bytes = recordBytes(namespace, key, value);
        removeOld(table, key, bytes);
        tally.bytes += bytes;
        if (table === 'node') tally.nodes++;
      }
      tx.put(table, ns, key, value);
    },
    delete(table, ns, key) {
      if (counted(table, ns)) removeOld(table, key, undefined);
      tx.delete(table, ns, key);
    },
    deleteRange(table, ns, upTo) {
      if (counted(table, ns)) {
        known.delete(table);
        track(
          tx.scan(table, namespace, undefined, Infinity).then((rows) => {
            for (const [key, old] of rows) {
              if (upTo !== undefined && !atMost(key, upTo)) break;
              tally.bytes -= recordBytes(namespace, key, old);
              if (table === 'node') tally.nodes--;
            }
          }),
        );
      }
      tx.deleteRange(table, ns, upTo);
    },
  };
  return {
    tx: wrapped,
    async settle() {
      await Promise.all(pending);
      return { ...tally };
    },
  };
}

/** Adds a tally to the bookkeeping of its namespace. */
export function addTally(space: SpaceRecord, tally: Tally): void {
  space.nodes += tally.nodes;
  space.bytes += tally.bytes;
}

/**
 * The counters of `namespace` counted from its records (a full read, 500 records at a time):
 * what the kept counters must equal. Used once per namespace by the IndexedDB upgrade to
 * version 4, and by the tests that check the kept counters.
 */
export async function measure(tx: RecordTx, namespace: string): Promise<Tally> {
  const tally: Tally = { nodes: 0, bytes: 0 };
  for (const table of SIZED_TABLES) {
    let after: RecordKey | undefined;
    for (;;) {
      const rows = await tx.scan(table, namespace, after, 500);
      for (const [key, value] of rows) tally.bytes += recordBytes(namespace, key, value);
      if (table === 'node') tally.nodes += rows.length;
      if (rows.length < 500) break;
      after = (rows[rows.length - 1] as readonly [RecordKey, unknown])[0];
    }
  }
  return tally;
}
