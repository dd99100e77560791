/**
 * The seal of the SQL record driver's values (layout 7, issue 22, "damage stays local"): every
 * value the driver writes is stored as `[SEALED][CRC-32 of the rest, u32 BE][the value's BLOB]`
 * ({@link sealValue}), and checked over the stored bytes when it is read
 * ({@link readRecordValue}): a changed byte of any record (node, adjacency, edge ids, meta, change
 * log, counters, checkpoint) makes it a damaged record ({@link damagedValue}) instead of a wrong
 * value or a failure of the whole namespace. A value without the seal (layouts 5 and 6) is
 * trusted as it is, and sealed when it is next put.
 *
 * @module
 */
import { crc32 } from '../store/checksum.js';
import { markSealHeld } from '../store/record-codec.js';
import { DamagedRecord, type RecordKey, type RecordTable } from './record-driver.js';
import { type StoredBytes, decodeRecordValue, encodeRecordValue, joinChunks } from './record-sql-codec.js';
import { keyPart, keyPartKey, keyPartMatches } from './record-sql-seal-key.js';

/**
 * What a record that does not decode, fails its seal or lies on a damaged page reads as: in the
 * tables `node` and `checkpoints`, a value their readers find damaged (a node record without its
 * checksum, a checkpoint whose part fails its sum); in the others a {@link DamagedRecord}, which
 * the store skips and names.
 */
export function damagedValue(table: RecordTable, reason = 'decode', putUnder?: string): unknown {
  if (table === 'checkpoints') return { change: 0, format: '', parts: { unreadable: new Uint8Array(0) }, sums: {} };
  // A node record reached under another key names the id it was put under (the one its owner knows).
  if (table === 'node') return putUnder === undefined ? { unreadable: true } : { unreadable: true, id: putUnder };
  return new DamagedRecord(reason);
}

/**
 * First byte of a sealed value (layout 7, issue 22): `[SEALED][CRC-32 of the rest, u32 BE][the
 * value's BLOB, format 2]`. Every value the driver writes is sealed, so a changed byte of any
 * stored record (adjacency, meta, counters, change log, edge ids as well as nodes) is found when
 * it is read, over the stored bytes (nothing is re-serialised). A value without the seal (written
 * before layout 7) is trusted as it is and sealed when it is next put.
 */
export const SEALED = 0xb2;

/**
 * First byte of a keyed seal (layout 8, h-break15 finding 1): `[KEYED][CRC-32 of the rest, u32
 * BE][key part][the value's BLOB]`, the key part naming the table, namespace and key the value
 * was put under (`record-sql-seal-key.ts`). The CRC-32 covers the key part, and a read compares
 * it with the key the index led to, so a changed byte of the key index makes the record it leads
 * to a damaged one (named by the key it was put under) instead of serving it under another key.
 * The SQL driver writes every value so; {@link SEALED} values (layout 7) and unsealed ones are
 * read as they are, and keyed when next put.
 */
export const KEYED = 0xb3;

/** Bytes of the seal before the value (or before the key part). */
const SEAL_BYTES = 5;

/** `blob` sealed: {@link SEALED}, its CRC-32, then its bytes. */
export function sealValue(blob: Uint8Array): Uint8Array {
  const out = new Uint8Array(SEAL_BYTES + blob.byteLength);
  out[0] = SEALED;
  out.set(blob, SEAL_BYTES);
  new DataView(out.buffer).setUint32(1, crc32(blob));
  return out;
}

/**
 * `value` encoded (format 2) and sealed as {@link sealValue} seals it, encoded once into one
 * buffer with the seal's bytes in front (no second copy of the value).
 * @throws DOMException `DataCloneError` for a function, symbol or BigInt inside it.
 */
export function encodeSealed(value: unknown, key: RecordKey): Uint8Array {
  const out = encodeRecordValue(value, key, SEAL_BYTES);
  out[0] = SEALED;
  new DataView(out.buffer, out.byteOffset, SEAL_BYTES).setUint32(1, crc32(out.subarray(SEAL_BYTES)));
  return out;
}

/**
 * `value` encoded (format 2) and sealed with the key it is put under ({@link KEYED}), in one
 * buffer: the seal, the key part, then the value's bytes.
 * @throws DOMException `DataCloneError` for a function, symbol or BigInt inside it.
 */
export function encodeSealedKeyed(value: unknown, table: RecordTable, ns: string, key: RecordKey): Uint8Array {
  const part = keyPart(table, ns, key);
  const out = encodeRecordValue(value, key, SEAL_BYTES + part.byteLength);
  out[0] = KEYED;
  out.set(part, SEAL_BYTES);
  new DataView(out.buffer, out.byteOffset, SEAL_BYTES).setUint32(1, crc32(out.subarray(SEAL_BYTES)));
  return out;
}

/** `stored` joined, when its seal ({@link SEALED} or {@link KEYED}) holds; undefined when it does not. */
function sealHolds(stored: StoredBytes): Uint8Array | undefined {
  const whole = stored instanceof Uint8Array ? stored : (joinChunks(stored) as Uint8Array);
  if (whole.byteLength < SEAL_BYTES) return undefined;
  const sum = new DataView(whole.buffer, whole.byteOffset, SEAL_BYTES).getUint32(1);
  return crc32(whole.subarray(SEAL_BYTES)) === sum ? whole : undefined;
}

/**
 * The value's BLOB inside a stored value: without its seal (and key part) when it has one that
 * holds, as it is when it has none (a record from before layout 7); chunks are joined. The key
 * part of a {@link KEYED} value is not compared here (the SQL driver's reads do).
 * @throws Error `'checksum'` when the seal does not hold (a changed byte).
 */
export function unsealValue(stored: StoredBytes): StoredBytes {
  const first = stored instanceof Uint8Array ? stored : stored[0];
  if (first === undefined || (first[0] !== SEALED && first[0] !== KEYED)) return stored;
  const whole = sealHolds(stored);
  if (whole === undefined) throw new Error('checksum');
  if (whole[0] === SEALED) return whole.subarray(SEAL_BYTES);
  const put = keyPartKey(whole, SEAL_BYTES);
  if (put?.table === undefined) throw new Error('checksum');
  const start = keyPartMatches(whole, SEAL_BYTES, put.table, put.ns, put.key);
  if (start < 0) throw new Error('checksum');
  return whole.subarray(start);
}

/**
 * The value stored under `key` of `table` in namespace `ns`, its seal checked and its bytes
 * decoded; a BLOB whose seal fails, that does not decode or that lies on a damaged page (empty)
 * is a damaged record ({@link damagedValue}), and so is a {@link KEYED} one whose key part names
 * another record (reached through a changed key index; a node record then names the id it was
 * put under), or any keyed one when `ns` is not given. A node or checkpoint record whose seal held is marked so
 * (`record-codec.ts` `SEAL_HELD`), and its readers skip re-serialising it to check its `sum`
 * (node) or summing its parts again (checkpoint).
 */
export function readRecordValue(table: RecordTable, blob: StoredBytes, key: RecordKey, ns?: string): unknown {
  let inner: StoredBytes;
  const first = blob instanceof Uint8Array ? blob : blob[0];
  if (first !== undefined && first[0] === KEYED) {
    const whole = sealHolds(blob);
    if (whole === undefined) return damagedValue(table, 'checksum');
    const start = ns === undefined ? -1 : keyPartMatches(whole, SEAL_BYTES, table, ns, key);
    if (start < 0) {
      const put = keyPartKey(whole, SEAL_BYTES);
      return damagedValue(table, 'key', put !== undefined && put.table === table && put.ns === ns && typeof put.key === 'string' ? put.key : undefined);
    }
    inner = whole.subarray(start);
  } else {
    try {
      inner = unsealValue(blob);
    } catch {
      return damagedValue(table, 'checksum');
    }
  }
  try {
    const value = decodeRecordValue(inner, key);
    // A node or checkpoint record of sealed bytes: its sums are not recomputed by the reader (record-codec.ts SEAL_HELD).
    if ((table === 'node' || table === 'checkpoints') && inner !== blob) markSealHeld(value);
    return value;
  } catch {
    return damagedValue(table, blob instanceof Uint8Array && blob.byteLength === 0 ? 'page' : 'decode');
  }
}
