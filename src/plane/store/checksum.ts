/**
 * Checksums of stored records (issue 22, "damage stays local"): CRC-32 (IEEE 802.3, the
 * polynomial 0xEDB88320 reflected, as zlib and PNG compute it) over a canonical encoding of one
 * node record or one checkpoint part. A store writes the sum with the record and compares it on
 * every read; a record whose sum differs (a flipped byte in its text, its vector, its id) is
 * damaged, and the store skips and names it instead of serving it.
 *
 * Pure functions, isomorphic (no Node or browser API beyond `TextEncoder`; Node's `zlib.crc32`
 * is used for large inputs when `process.getBuiltinModule` gives it, with the same values).
 *
 * @module
 */

/**
 * The CRC-32 tables for slicing-by-8, built once: `TABLES[0..255]` is the classic byte table
 * (the CRC of one byte value), and `TABLES[k * 256 + b]` the CRC of byte `b` followed by `k`
 * zero bytes, so eight input bytes are folded per step with eight lookups.
 */
const TABLES: Uint32Array = (() => {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n] as number;
    for (let k = 1; k < 8; k++) {
      c = (t[c & 0xff] as number) ^ (c >>> 8);
      t[k * 256 + n] = c >>> 0;
    }
  }
  return t;
})();

const utf8 = new TextEncoder();

/**
 * Inputs of this many bytes or more go to the runtime's own CRC-32 when it has one (Node's
 * `zlib.crc32`, from 20.15 / 22.2: the same values, ~5x faster on a checkpoint's megabytes, read
 * at every open); shorter ones stay in {@link crc32} (a native call costs more than it saves).
 */
const NATIVE_FROM = 4096;

/** `zlib.crc32(data, value)` where the runtime gives it synchronously (`process.getBuiltinModule`), else undefined (browsers, workerd without it). */
const nativeCrc32: ((data: Uint8Array, value: number) => number) | undefined = (() => {
  try {
    const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    const zlib = typeof get === 'function' ? (get('node:zlib') as { crc32?: unknown } | undefined) : undefined;
    return typeof zlib?.crc32 === 'function' ? (zlib.crc32 as (data: Uint8Array, value: number) => number) : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * Continues a CRC-32 over `bytes` (slicing-by-8: eight bytes per step, then byte by byte; the
 * same values as the byte-by-byte table form; from {@link NATIVE_FROM} bytes the runtime's own
 * CRC-32 where it has one).
 * @param bytes - the bytes to feed, any length (a view of a larger buffer is fine).
 * @param crc - the running value as {@link crc32} returns it (0 to start).
 * @returns the CRC-32 of everything fed so far, an unsigned 32-bit integer.
 */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (nativeCrc32 !== undefined && bytes.length >= NATIVE_FROM) return nativeCrc32(bytes, crc) >>> 0;
  const t = TABLES;
  let c = ~crc;
  const n = bytes.length;
  const end8 = n - (n & 7);
  let i = 0;
  for (; i < end8; i += 8) {
    const lo = c ^ ((bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24));
    const hi = (bytes[i + 4] as number) | ((bytes[i + 5] as number) << 8) | ((bytes[i + 6] as number) << 16) | ((bytes[i + 7] as number) << 24);
    c =
      (t[1792 + (lo & 0xff)] as number) ^
      (t[1536 + ((lo >>> 8) & 0xff)] as number) ^
      (t[1280 + ((lo >>> 16) & 0xff)] as number) ^
      (t[1024 + (lo >>> 24)] as number) ^
      (t[768 + (hi & 0xff)] as number) ^
      (t[512 + ((hi >>> 8) & 0xff)] as number) ^
      (t[256 + ((hi >>> 16) & 0xff)] as number) ^
      (t[hi >>> 24] as number);
  }
  for (; i < n; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** A field of a canonical encoding: text (as UTF-8), bytes, a number (as its shortest decimal text) or absent. */
export type SumField = string | number | Uint8Array | null | undefined;

const SEPARATOR = new Uint8Array([0]);
const ABSENT = new Uint8Array([1]);

/**
 * The checksum of a record given as its fields, in order: each field's bytes (UTF-8 of a text,
 * `String(n)` of a number, a byte array as it is, one 0x01 byte for an absent field) followed by
 * one 0x00 byte. Unsigned 32-bit integer.
 */
export function recordSum(fields: readonly SumField[]): number {
  let crc = 0;
  for (const f of fields) {
    if (f === null || f === undefined) crc = crc32(ABSENT, crc);
    else if (f instanceof Uint8Array) crc = crc32(f, crc);
    else crc = crc32Text(typeof f === 'number' ? String(f) : f, crc);
    crc = crc32(SEPARATOR, crc);
  }
  return crc;
}

/** Scratch space for {@link crc32Text} (grown as needed; the sums run synchronously, one at a time). */
let scratch = new Uint8Array(4096);

/**
 * Continues a CRC-32 over the UTF-8 of `text`, the same value as `crc32(utf8.encode(text), crc)`,
 * encoded into a reused buffer rather than a new array per field (a recall checks a few hundred
 * node records, issue 25).
 */
export function crc32Text(text: string, crc = 0): number {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(Math.max(text.length * 3, scratch.length * 2));
  const { written } = utf8.encodeInto(text, scratch);
  return crc32(scratch.subarray(0, written), crc);
}

/**
 * The checksum of one stored node row of the SQL store: its id, seq, body text and vector bytes
 * (`sql-legacy-codec.ts`), so a changed byte of any of them changes the sum.
 */
export function nodeRowSum(id: string, seq: number, body: string, vec: Uint8Array | null): number {
  return recordSum([id, seq, body, vec]);
}

/** The checksum of one checkpoint part (or one chunk of it): its name and bytes. */
export function partSum(name: string, data: Uint8Array): number {
  return recordSum([name, data]);
}

/** Damage found in one namespace (see `StorageAdapter.damaged`). */
export interface DamageReport {
  /** Ids of the node records that failed their checksum or could not be read or decoded, sorted. */
  ids: string[];
  /** The namespace's checkpoint failed its checksum or could not be read (it is rebuilt from the rows). */
  checkpoint: boolean;
  /**
   * The other damaged records (issue 22: every record kind is sealed), sorted, each named
   * `<table>:<key>`: `adj:<node id>` (an adjacency record: the node's edges kept on its own
   * record are lost until a repair rebuilds them from the other ends), `edge-ids:<edge id>`,
   * `meta:<key>` (`meta:schemaVersion`: the namespace record), `changes:<n>` (a change list),
   * `spaces:` (the kept counters: counted again from the records). Absent when none.
   */
  records?: string[];
  /**
   * Node records the store counts (its kept counter, SQL store schema v4, issue 25) that its
   * full pass could not reach at all, so their ids are unknown: a damaged index hides them.
   * Absent or 0 when every counted record was read.
   */
  unreadable?: number;
}

/** Damage a full pass found, as `jev-mem check` keeps it beside the store (`damage-file.ts`). */
export interface KnownDamage {
  /** Per namespace: damaged node ids and other damaged records ({@link DamageReport.records}). */
  namespaces: Array<{ namespace: string; ids: string[]; records: string[] }>;
  /** SQLite's `PRAGMA integrity_check` findings (empty when the file is sound). */
  sqlite: string[];
  /**
   * The database file the damage was found in (`damage-file.ts` `storeFileIdentity`: device,
   * inode and birth time): a repair replaces the file, so what was found in the one before is no
   * damage of the store. Absent in files written before issue 22's h-lock (they are kept as found).
   */
  file?: string | undefined;
}

/**
 * Damage seen by one store connection, per namespace: ids skipped by reads and checkpoints
 * found damaged. Every store keeps one; `StorageAdapter.damaged` reports it.
 */
export class DamageLog {
  readonly #ids = new Map<string, Set<string>>();
  readonly #checkpoint = new Set<string>();
  readonly #verified = new Set<string>();
  readonly #records = new Map<string, Set<string>>();
  #malformed: readonly string[] = [];
  #found: ((namespace: string, found: { ids: string[]; records: string[] }) => void) | undefined;

  /**
   * Tells `found` of each damaged record this log learns of afterwards (a node id, or another
   * record named `<table>:<key>`), once per record: the Node store keeps it beside the file
   * (`damage-file.ts`), so the next process refuses writes as this one does.
   */
  onFound(found: (namespace: string, found: { ids: string[]; records: string[] }) => void): void {
    this.#found = found;
  }

  /**
   * Starts the log from damage an earlier full pass found (`damage-file.ts`): node ids and other
   * records per namespace, and SQLite's findings of a malformed file (`malformed`).
   */
  seed(known: KnownDamage): void {
    for (const n of known.namespaces) {
      for (const id of n.ids) this.node(n.namespace, id);
      for (const r of n.records) {
        const at = r.indexOf(':');
        if (at > 0) this.record(n.namespace, r.slice(0, at), r.slice(at + 1));
      }
    }
    this.#malformed = [...known.sqlite];
  }

  /** What SQLite's own check said of a malformed store file (empty: nothing known). */
  malformed(): readonly string[] {
    return this.#malformed;
  }

  /**
   * Whether every record of `namespace` was verified by this connection. Later commits of this
   * connection write sound records only, so a second full pass in the same session is skipped;
   * damage that appears afterwards is still met and logged by the reads.
   */
  verified(namespace: string): boolean {
    return this.#verified.has(namespace);
  }

  /**
   * Forgets the damaged node ids and records of `namespace` before a full pass, which finds
   * again every one still damaged (damage seeded from an earlier pass may be gone: deleted,
   * rewritten or repaired since).
   */
  startPass(namespace: string): void {
    this.#ids.delete(namespace);
    this.#records.delete(namespace);
  }

  /** Records that every record of `namespace` was verified. */
  markVerified(namespace: string): void {
    this.#verified.add(namespace);
  }

  /** Records that node `id` of `namespace` is damaged. */
  node(namespace: string, id: string): void {
    let set = this.#ids.get(namespace);
    if (set === undefined) this.#ids.set(namespace, (set = new Set()));
    if (!set.has(id)) this.#found?.(namespace, { ids: [id], records: [] });
    set.add(id);
  }

  /** Records that the record under `key` of `table` (not a node record) of `namespace` is damaged. */
  record(namespace: string, table: string, key: string | number): void {
    let set = this.#records.get(namespace);
    if (set === undefined) this.#records.set(namespace, (set = new Set()));
    if (!set.has(`${table}:${key}`)) this.#found?.(namespace, { ids: [], records: [`${table}:${key}`] });
    set.add(`${table}:${key}`);
  }

  /** Forgets the damage of the record under `key` of `table` (a commit wrote or deleted it). */
  rewritten(namespace: string, table: string, key: string | number): void {
    this.#records.get(namespace)?.delete(`${table}:${key}`);
  }

  /** Whether the record under `key` of `table` of `namespace` is known damaged. */
  hasRecord(namespace: string, table: string, key: string | number): boolean {
    const set = this.#records.get(namespace);
    return set !== undefined && set.size > 0 && set.has(`${table}:${key}`);
  }

  /** The damaged records of `namespace` but its node records, named `<table>:<key>`, sorted. */
  records(namespace: string): string[] {
    return [...(this.#records.get(namespace) ?? [])].sort();
  }

  /** Records that the checkpoint of `namespace` is damaged. */
  checkpoint(namespace: string): void {
    this.#checkpoint.add(namespace);
  }

  /** Forgets node `id` (a commit deleted or rewrote it). */
  clear(namespace: string, id: string): void {
    this.#ids.get(namespace)?.delete(id);
  }

  /** Forgets a whole namespace (dropped). */
  drop(namespace: string): void {
    this.#ids.delete(namespace);
    this.#records.delete(namespace);
    this.#checkpoint.delete(namespace);
    this.#verified.delete(namespace);
  }

  /** The damaged node ids of `namespace` known so far, sorted. */
  ids(namespace: string): string[] {
    return [...(this.#ids.get(namespace) ?? [])].sort();
  }

  /** What is known about `namespace`. */
  report(namespace: string): DamageReport {
    const records = this.records(namespace);
    const report: DamageReport = { ids: this.ids(namespace), checkpoint: this.#checkpoint.has(namespace) };
    if (records.length > 0) report.records = records;
    return report;
  }
}
