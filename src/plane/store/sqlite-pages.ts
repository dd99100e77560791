/**
 * Reads the rows of one table of a SQLite database file page by page, without SQLite (issue 22:
 * a truncated or partly overwritten store file, which SQLite refuses to open or to read past,
 * still gives back every row whose pages are there). The file format is SQLite's own
 * (https://www.sqlite.org/fileformat2.html): the header of page 1 (page size, reserved bytes,
 * free-list), the schema table's B-tree from page 1 (the table's root page), then the table's
 * B-tree from its root: interior pages (type 5) point to their children, leaf pages (type 13)
 * hold the rows, a row too large for its page continues on a chain of overflow pages.
 *
 * What is read: every leaf reached from the root, and every leaf page that no surviving
 * interior page reaches (its parent is past the end of the file or unreadable) whose rows have
 * the table's shape (`shape`), except pages on the free-list. What is lost, and counted: the
 * pages past the end of the file that the tree points to, the rows whose overflow chain leaves
 * the file, and the cells that do not parse. Pages are never written.
 *
 * Node only (reads a whole file into memory).
 *
 * @module
 */
import { readFileSync } from 'node:fs';

/** A value of a row: NULL, an integer or real, text (UTF-8 databases only) or a BLOB. */
export type PageValue = null | number | string | Uint8Array;

/** The rows of a table read from pages, and what could not be read. */
export interface PageRows {
  /** Each row as `[rowid, ...columns]` (an INTEGER PRIMARY KEY column reads as NULL: use the rowid). */
  rows: PageValue[][];
  /** Pages of the file (whole pages only). */
  pages: number;
  /** Pages of the table's tree that lie past the end of the file or do not parse as tree pages. */
  pagesMissing: number;
  /** Rows whose overflow chain leaves the file, and cells that do not parse. */
  rowsLost: number;
  /** Leaf pages read that no surviving interior page reached (their parent is lost). */
  orphanLeaves: number;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** One varint at `at`: its value and length (SQLite's big-endian, 9 bytes at most). */
function varint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = b[at + i];
    if (byte === undefined) throw new Error('varint past the end');
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  const last = b[at + 8];
  if (last === undefined) throw new Error('varint past the end');
  return [v * 256 + last, 9];
}

/** The columns of a record (SQLite's record format). */
function decodeRecord(p: Uint8Array): PageValue[] {
  const [headerSize, h0] = varint(p, 0);
  if (headerSize > p.length) throw new Error('record header past the payload');
  const types: number[] = [];
  for (let at = h0; at < headerSize; ) {
    const [t, n] = varint(p, at);
    types.push(t);
    at += n;
  }
  const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const out: PageValue[] = [];
  let at = headerSize;
  for (const t of types) {
    if (t === 0) out.push(null);
    else if (t >= 1 && t <= 6) {
      const size = [0, 1, 2, 3, 4, 6, 8][t]!;
      if (at + size > p.length) throw new Error('value past the payload');
      let v = 0;
      for (let i = 0; i < size; i++) v = v * 256 + p[at + i]!;
      out.push((p[at]! & 0x80) !== 0 ? v - 256 ** size : v); // two's complement
      at += size;
    } else if (t === 7) {
      if (at + 8 > p.length) throw new Error('value past the payload');
      out.push(view.getFloat64(at));
      at += 8;
    } else if (t === 8 || t === 9) out.push(t - 8);
    else if (t >= 12) {
      const size = t % 2 === 0 ? (t - 12) / 2 : (t - 13) / 2;
      if (at + size > p.length) throw new Error('value past the payload');
      const bytes = p.slice(at, at + size);
      out.push(t % 2 === 0 ? bytes : decoder.decode(bytes));
      at += size;
    } else throw new Error(`serial type ${t}`);
  }
  return out;
}

/**
 * The rows of table `table` in the SQLite database `file` (see the module). `shape` tells a row
 * of the table from rows of other tables, for leaf pages no interior page reaches.
 * @throws Error when the file is not a SQLite database, page 1 is damaged or the table is not in
 *   its schema (nothing can be read then).
 */
export function readTablePages(file: string | Uint8Array, table: string, shape: (row: PageValue[]) => boolean): PageRows {
  const b = typeof file === 'string' ? new Uint8Array(readFileSync(file)) : file;
  if (decoder.decode(b.subarray(0, 16)) !== 'SQLite format 3\u0000') throw new Error('not a SQLite database');
  const raw = (b[16]! << 8) | b[17]!;
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new Error(`page size ${pageSize}`);
  const usable = pageSize - b[20]!;
  const pages = Math.floor(b.length / pageSize);
  const u32 = (at: number): number => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
  const u16 = (at: number): number => (b[at]! << 8) | b[at + 1]!;
  if (u32(56) > 1) throw new Error('not a UTF-8 database');
  const present = (page: number): boolean => page >= 1 && page <= pages;
  const base = (page: number): number => (page - 1) * pageSize;
  const headerAt = (page: number): number => base(page) + (page === 1 ? 100 : 0);

  let rowsLost = 0;
  /** The payload of the cell at `cell` of a leaf table page, its overflow chain followed. */
  const payloadOf = (cell: number, pageEnd: number): [rowid: number, payload: Uint8Array] => {
    const [size, n1] = varint(b, cell);
    const [rowid, n2] = varint(b, cell + n1);
    const start = cell + n1 + n2;
    const x = usable - 35;
    if (size <= x) {
      if (start + size > pageEnd) throw new Error('cell past its page');
      return [rowid, b.subarray(start, start + size)];
    }
    const m = Math.floor(((usable - 12) * 32) / 255) - 23;
    const k = m + ((size - m) % (usable - 4));
    const local = k <= x ? k : m;
    if (start + local + 4 > pageEnd) throw new Error('cell past its page');
    const out = new Uint8Array(size);
    out.set(b.subarray(start, start + local), 0);
    let filled = local;
    let next = u32(start + local);
    const seen = new Set<number>();
    while (filled < size) {
      if (!present(next) || seen.has(next)) throw new Error('overflow page missing');
      seen.add(next);
      const take = Math.min(usable - 4, size - filled);
      out.set(b.subarray(base(next) + 4, base(next) + 4 + take), filled);
      filled += take;
      next = u32(base(next));
    }
    return [rowid, out];
  };

  /** The rows of a leaf table page (cells that do not parse are counted in rowsLost). */
  const leafRows = (page: number): PageValue[][] => {
    const h = headerAt(page);
    const cells = u16(h + 3);
    const out: PageValue[][] = [];
    for (let i = 0; i < cells; i++) {
      try {
        const [rowid, payload] = payloadOf(base(page) + u16(h + 8 + 2 * i), base(page) + pageSize);
        out.push([rowid, ...decodeRecord(payload)]);
      } catch {
        rowsLost++;
      }
    }
    return out;
  };

  let pagesMissing = 0;
  const reached = new Set<number>();
  /** Every leaf of the tree at `root` that is in the file. */
  const leavesOf = (root: number): number[] => {
    const leaves: number[] = [];
    const stack = [root];
    while (stack.length > 0) {
      const page = stack.pop()!;
      if (!present(page) || reached.has(page)) {
        if (!present(page)) pagesMissing++;
        continue;
      }
      reached.add(page);
      const h = headerAt(page);
      const type = b[h];
      if (type === 13) leaves.push(page);
      else if (type === 5) {
        const cells = u16(h + 3);
        for (let i = 0; i < cells; i++) stack.push(u32(base(page) + u16(h + 12 + 2 * i)));
        stack.push(u32(h + 8));
      } else pagesMissing++;
    }
    return leaves;
  };

  // The table's root page, from the schema table (page 1): rows (type, name, tbl_name, rootpage, sql).
  let root: number | undefined;
  for (const leaf of leavesOf(1)) {
    for (const row of leafRows(leaf)) if (row[1] === 'table' && row[2] === table && typeof row[4] === 'number') root = row[4];
  }
  if (root === undefined) throw new Error(`table ${table} is not in the schema`);
  const rows = new Map<number, PageValue[]>();
  for (const leaf of leavesOf(root)) for (const row of leafRows(leaf)) rows.set(row[0] as number, row);

  // Leaves whose parent is lost: every leaf table page not reached and not free, of the table's shape.
  const free = new Set<number>();
  for (let trunk = u32(32), guard = 0; present(trunk) && !free.has(trunk) && guard < pages; guard++) {
    free.add(trunk);
    const count = u32(base(trunk) + 4);
    for (let i = 0; i < count && i < usable / 4; i++) free.add(u32(base(trunk) + 8 + 4 * i));
    trunk = u32(base(trunk));
  }
  let orphanLeaves = 0;
  for (let page = 2; page <= pages; page++) {
    if (reached.has(page) || free.has(page) || b[headerAt(page)] !== 13) continue;
    const lostBefore = rowsLost;
    const found = leafRows(page);
    if (found.length === 0 || !found.every(shape)) {
      rowsLost = lostBefore; // another table's page, or not a page of a tree at all
      continue;
    }
    orphanLeaves++;
    for (const row of found) if (!rows.has(row[0] as number)) rows.set(row[0] as number, row);
  }
  return { rows: [...rows.values()], pages, pagesMissing, rowsLost, orphanLeaves };
}
