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
 * A file whose header is lost (page 1 zeroed or overwritten: no page size, no schema, no
 * free-list) is read only when asked (`headerless`): the page size is guessed from the pages
 * themselves ({@link guessPageSize}), and every leaf page whose rows have the table's shape is
 * read, as for the orphan leaves above. What was lost cannot be counted then (`header: false`).
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
  /**
   * False when the file's header (page 1) was lost and the read went on without it (option
   * `headerless`): the page size was guessed ({@link guessPageSize}), every leaf page of the
   * table's shape was read, and neither the table's tree (so `pagesMissing`) nor the free-list
   * is known. Absent when the header was read.
   */
  header?: false;
  /** The guessed page size, with `header: false`. */
  pageSize?: number;
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

/** Whether `head` (the first 16 or more bytes of a file) starts with SQLite's header string. */
export function hasSqliteHeader(head: Uint8Array): boolean {
  return decoder.decode(head.subarray(0, 16)) === 'SQLite format 3\u0000';
}

/**
 * The rows of table `table` in the SQLite database `file` (see the module). `shape` tells a row
 * of the table from rows of other tables, for leaf pages no interior page reaches.
 * @param options.headerless - read a file whose header is lost (see the module). @default false
 * @throws Error when the file is not a SQLite database, page 1 is damaged (unless `headerless`)
 *   or the table is not in its schema (nothing can be read then).
 */
export function readTablePages(file: string | Uint8Array, table: string, shape: (row: PageValue[]) => boolean, options: { headerless?: boolean } = {}): PageRows {
  const b = typeof file === 'string' ? new Uint8Array(readFileSync(file)) : file;
  const u32 = (at: number): number => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
  const u16 = (at: number): number => (b[at]! << 8) | b[at + 1]!;
  const header = hasSqliteHeader(b);
  if (!header && !options.headerless) throw new Error('not a SQLite database');
  // Without the header (page 1 zeroed or overwritten): the page size that makes the most pages
  // valid B-tree pages, no bytes reserved, UTF-8 (what this store writes).
  const raw = header ? (b[16]! << 8) | b[17]! : guessPageSize(b);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new Error(`page size ${pageSize}`);
  const usable = pageSize - (header ? b[20]! : 0);
  const pages = Math.floor(b.length / pageSize);
  if (header && u32(56) > 1) throw new Error('not a UTF-8 database');
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
  // Without the header, page 1 is lost: every leaf of the table's shape is read as an orphan.
  let root: number | undefined;
  for (const leaf of header ? leavesOf(1) : []) {
    for (const row of leafRows(leaf)) if (row[1] === 'table' && row[2] === table && typeof row[4] === 'number') root = row[4];
  }
  if (root === undefined && header) throw new Error(`table ${table} is not in the schema`);
  const rows = new Map<number, PageValue[]>();
  for (const leaf of root === undefined ? [] : leavesOf(root)) for (const row of leafRows(leaf)) rows.set(row[0] as number, row);

  // Leaves whose parent is lost: every leaf table page not reached and not free, of the table's shape.
  const free = new Set<number>();
  for (let trunk = header ? u32(32) : 0, guard = 0; present(trunk) && !free.has(trunk) && guard < pages; guard++) {
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
  return { rows: [...rows.values()], pages, pagesMissing, rowsLost, orphanLeaves, ...(header ? {} : { header: false as const, pageSize }) };
}

/** The page sizes SQLite allows, smallest first. */
const PAGE_SIZES = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

/**
 * Whether the `size` bytes at `at` look like a B-tree page of that size: a page type SQLite
 * writes (2, 5, 10, 13), at least one cell, the cell content area and the first free block
 * inside the page past the cell pointers, and every cell pointer inside the content area.
 */
function btreePage(b: Uint8Array, at: number, size: number): boolean {
  const type = b[at]!;
  if (type !== 2 && type !== 5 && type !== 10 && type !== 13) return false;
  const u16 = (x: number): number => (b[x]! << 8) | b[x + 1]!;
  const head = type === 2 || type === 5 ? 12 : 8;
  const cells = u16(at + 3);
  const content = u16(at + 5) === 0 ? 65536 : u16(at + 5);
  const freeblock = u16(at + 1);
  if (cells === 0 || head + 2 * cells > content || content > size || b[at + 7]! > 60) return false;
  if (freeblock !== 0 && (freeblock < content || freeblock + 4 > size)) return false;
  for (let i = 0; i < cells; i++) {
    const cell = u16(at + head + 2 * i);
    if (cell < content || cell + 2 > size) return false;
  }
  return true;
}

/**
 * The page size of a database file whose header is lost: of the sizes SQLite allows that divide
 * the file, the one under which the most pages (page 1 left aside) are valid B-tree pages
 * ({@link btreePage}). A larger size than the true one finds fewer (every other page, at best), a
 * smaller one finds few (the cells of a real page lie past its end).
 * @throws Error when no size finds a valid page (not a database this reader can read).
 */
export function guessPageSize(b: Uint8Array): number {
  let best = 0;
  let bestCount = 0;
  for (const size of PAGE_SIZES) {
    if (b.length < 2 * size) continue;
    let count = 0;
    for (let at = size; at + size <= b.length; at += size) if (btreePage(b, at, size)) count++;
    if (count > bestCount) [best, bestCount] = [size, count];
  }
  if (best === 0) throw new Error('not a SQLite database: no page size makes B-tree pages of it');
  return best === 65536 ? 1 : best;
}
