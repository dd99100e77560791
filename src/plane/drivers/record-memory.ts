/**
 * The in-memory record driver (issue 22): each table a Map from namespace to a Map of records,
 * values stored and returned as structured clones. Transactions run one at a time; a write
 * transaction applies its writes at once and keeps an undo list, so a transaction that fails
 * (its work throws, a value cannot be cloned) is rolled back whole. When a write transaction
 * succeeds, the byte arrays of the values it replaced or removed are zeroed (erasure: no copy of
 * an erased vector or checkpoint part is left in the heap by the store).
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import type { KeyedRecord, RecordDriver, RecordKey, RecordTable, RecordTx } from './record-driver.js';

/** The records of one namespace in one table, with its keys in order (rebuilt after a change). */
interface Rows {
  values: Map<RecordKey, unknown>;
  sorted: RecordKey[] | undefined;
}

/** The IndexedDB key order: numbers before strings, each by value / UTF-16 code units. */
function compareKeys(a: RecordKey, b: RecordKey): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Zeroes every byte array inside `value` (arrays and plain objects walked). */
function zero(value: unknown): void {
  if (value instanceof Uint8Array) value.fill(0);
  else if (Array.isArray(value)) for (const v of value) zero(v);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) zero(v);
}

/** One undo entry: the value a key held before a write (`had` false: absent). */
interface Undo {
  rows: Rows;
  key: RecordKey;
  had: boolean;
  old: unknown;
}

/**
 * Creates an in-memory record driver. Nothing survives the process; `close()` drops the data.
 * Failures are raw (`DataCloneError` from `structuredClone`); after `close()` every transaction
 * throws JevMemError `CLOSED`.
 */
export function createMemoryRecordDriver(): RecordDriver {
  const tables = new Map<RecordTable, Map<string, Rows>>();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const rowsOf = (table: RecordTable, namespace: string, create: boolean): Rows | undefined => {
    let spaces = tables.get(table);
    if (spaces === undefined) {
      if (!create) return undefined;
      tables.set(table, (spaces = new Map()));
    }
    let rows = spaces.get(namespace);
    if (rows === undefined && create) spaces.set(namespace, (rows = { values: new Map(), sorted: undefined }));
    return rows;
  };

  const run = async <T>(mode: 'read' | 'write', work: (tx: RecordTx) => Promise<T>): Promise<T> => {
    const undo: Undo[] = [];
    const write = (rows: Rows, key: RecordKey, apply: () => void): void => {
      if (mode !== 'write') throw new DOMException('a read-only transaction cannot write', 'ReadOnlyError');
      undo.push({ rows, key, had: rows.values.has(key), old: rows.values.get(key) });
      apply();
      rows.sorted = undefined;
    };
    const tx: RecordTx = {
      async get(table, namespace, key) {
        const v = rowsOf(table, namespace, false)?.values.get(key);
        return v === undefined ? undefined : structuredClone(v);
      },
      put(table, namespace, key, value) {
        const copy = structuredClone(value);
        const rows = rowsOf(table, namespace, true) as Rows;
        write(rows, key, () => rows.values.set(key, copy));
      },
      delete(table, namespace, key) {
        const rows = rowsOf(table, namespace, false);
        if (rows?.values.has(key)) write(rows, key, () => rows.values.delete(key));
      },
      deleteRange(table, namespace, upTo) {
        const rows = rowsOf(table, namespace, false);
        if (rows === undefined) return;
        for (const key of [...rows.values.keys()]) {
          if (upTo === undefined || compareKeys(key, upTo) <= 0) write(rows, key, () => rows.values.delete(key));
        }
      },
      async scan(table, namespace, after, limit) {
        const rows = rowsOf(table, namespace, false);
        if (rows === undefined) return [];
        rows.sorted ??= [...rows.values.keys()].sort(compareKeys);
        const keys = rows.sorted;
        let lo = 0;
        if (after !== undefined) {
          let hi = keys.length;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (compareKeys(keys[mid] as RecordKey, after) <= 0) lo = mid + 1;
            else hi = mid;
          }
        }
        const out: KeyedRecord[] = [];
        for (let i = lo; i < keys.length && out.length < limit; i++) {
          const key = keys[i] as RecordKey;
          out.push([key, structuredClone(rows.values.get(key))]);
        }
        return out;
      },
      async namespaces(table) {
        return [...(tables.get(table) ?? new Map<string, Rows>()).entries()].filter(([, rows]) => rows.values.size > 0).map(([ns]) => ns).sort();
      },
    };
    try {
      const result = await work(tx);
      for (const u of undo) if (u.had) zero(u.old);
      return result;
    } catch (cause) {
      for (let i = undo.length - 1; i >= 0; i--) {
        const u = undo[i] as Undo;
        const current = u.rows.values.get(u.key);
        if (u.had) u.rows.values.set(u.key, u.old);
        else u.rows.values.delete(u.key);
        if (current !== u.old) zero(current);
        u.rows.sorted = undefined;
      }
      throw cause;
    }
  };

  return {
    transaction(_tables, mode, work) {
      if (closed) return Promise.reject(new JevMemError('CLOSED', 'the memory storage adapter was used after close()'));
      const result = queue.then(() => {
        if (closed) throw new JevMemError('CLOSED', 'the memory storage adapter was used after close()');
        return run(mode, work);
      });
      queue = result.catch(() => undefined);
      return result;
    },
    close() {
      closed = true;
      for (const spaces of tables.values()) for (const rows of spaces.values()) for (const v of rows.values.values()) zero(v);
      tables.clear();
    },
  };
}
