/**
 * The seal of the IndexedDB record driver's values (database version 5, issue 22, "damage stays
 * local"): every value put into the tables `adj`, `edge-ids`, `meta`, `changes` and `spaces` is
 * stored as the SQL driver stores its values (`record-sql-seal.ts`): the value's BLOB in format 2
 * (`record-sql-codec.ts`) behind the `SEALED` byte and its CRC-32, a Uint8Array; in `meta`, whose
 * records carry their key in line, as the record `{ namespace, key, sealed }`. It is checked over
 * the stored bytes when read: a changed byte makes it a {@link DamagedRecord}, which the store
 * skips, names and rebuilds (`record-screen.ts`), instead of a wrong edge, count or meta value.
 *
 * Node records and checkpoints are stored as structured clones, as before: they carry their own
 * checksums (`record-codec.ts` `sum`, `record-checkpoint.ts` part sums and head sum), and their
 * readers check them; a node record read as bytes would cost every load a decode.
 *
 * A value from before version 5 (a structured clone: an object or an array in these tables,
 * never a bare Uint8Array; in `meta` a record with `value`) is trusted as it is and sealed when
 * next put, as the SQL driver's layouts 5 and 6 are.
 *
 * @module
 */
import { DamagedRecord, type RecordKey, type RecordTable } from './record-driver.js';
import { SEALED, encodeSealed, readRecordValue } from './record-sql-seal.js';

/** The tables whose values the IndexedDB driver seals (see the module). */
export const IDB_SEALED_TABLES: ReadonlySet<RecordTable> = new Set(['adj', 'edge-ids', 'meta', 'changes', 'spaces']);

/**
 * What the driver stores for `value` under `(namespace, key)` of `table`: sealed bytes in the
 * sealed tables (a `{ namespace, key, sealed }` record in `meta`), the value itself in the others
 * (`{ namespace, key, value }` in `meta` is never written any more).
 * @throws DOMException `DataCloneError` for a function, symbol or BigInt inside the value (as a
 *   structured clone would).
 */
export function toStored(table: RecordTable, namespace: string, key: RecordKey, value: unknown): unknown {
  if (!IDB_SEALED_TABLES.has(table)) return value;
  const sealed = encodeSealed(value, key);
  return table === 'meta' ? { namespace, key, sealed } : sealed;
}

/**
 * The value a stored IndexedDB value holds (see {@link toStored}): a sealed one checked and
 * decoded, a {@link DamagedRecord} when its seal fails or it does not decode (or when the bytes
 * no longer start with the seal: these tables held no bare byte arrays before version 5), a
 * value from before version 5 as it is; undefined for undefined.
 */
export function fromStored(table: RecordTable, key: RecordKey, stored: unknown): unknown {
  if (stored === undefined || !IDB_SEALED_TABLES.has(table)) return stored;
  if (table === 'meta') {
    const record = stored as { sealed?: unknown; value?: unknown };
    if (typeof record !== 'object' || record === null) return new DamagedRecord('decode');
    if (!('sealed' in record)) return record.value; // written before version 5
    return unseal(table, key, record.sealed);
  }
  return stored instanceof Uint8Array ? unseal(table, key, stored) : stored;
}

/** The value inside sealed bytes, or a {@link DamagedRecord}. */
function unseal(table: RecordTable, key: RecordKey, bytes: unknown): unknown {
  if (!(bytes instanceof Uint8Array) || bytes[0] !== SEALED) return new DamagedRecord('checksum');
  return readRecordValue(table, bytes, key);
}
