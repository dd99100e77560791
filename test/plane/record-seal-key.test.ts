/**
 * The keyed seal of the SQL record driver (layout 8, h-break15 finding 1): every value carries
 * the table, namespace and key it was put under, covered by its CRC-32, and a read compares them
 * with the key the index led to. A record reached under another key (a changed byte of the key
 * index; here also a changed key column) is a damaged record named by its own id, never served
 * under the other one (its value's id follows the key, `record-sql-binary.ts` `KEY`), and a
 * delete the index hid from its statement is refused instead of answered done.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { keyPart, keyPartKey, keyPartMatches } from '../../src/plane/drivers/record-sql-seal-key.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import type { MemoryNode } from '../../src/types.js';
import { makeEdge, makeNode } from './fixtures.js';
import { memorySqlConnection } from './sql-connection.js';

const A = 'chat';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
type Conn = ReturnType<typeof memorySqlConnection>;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function storeOn(conn: Conn): StorageAdapter {
  return createSqlRecordStore(conn, { kind: 'sqlite', label: 'the test store', quotaRemedy: 'Free space.', lexical: 'fts5', vacuum: false });
}

const ID = (i: number): string => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** `n` nodes in a chain (each with an edge to the next). */
async function fill(store: StorageAdapter, n: number): Promise<MemoryNode[]> {
  const nodes = Array.from({ length: n }, (_, i) => makeNode(A, ID(i + 1), i + 1, `note ${i + 1} about the harbor`));
  const edges = nodes.slice(1).map((b, i) => makeEdge(A, `${nodes[i]!.id}>${b.id}:temporal:precedes`, nodes[i]!.id, b.id));
  await store.commit(A, { putNodes: nodes, putEdges: edges, change: 1 });
  return nodes;
}

describe('the key part of a keyed seal', () => {
  it('is the table code, the namespace and the key as the module lays them out (format lock)', () => {
    // node = table 0; namespace "chat": length 4; kind 0 (string), length 2, "ab".
    expect([...keyPart('node', 'chat', 'ab')]).toEqual([0, 4, 0x63, 0x68, 0x61, 0x74, 0, 2, 0x61, 0x62]);
    // changes = table 4; namespace "x"; kind 1 (number), 3 as a float64 big-endian (0x4008…).
    expect([...keyPart('changes', 'x', 3)]).toEqual([4, 1, 0x78, 1, 0x40, 0x08, 0, 0, 0, 0, 0, 0]);
    // A non-ASCII namespace as UTF-8 (é: c3 a9).
    expect([...keyPart('meta', 'é', 'k')]).toEqual([3, 2, 0xc3, 0xa9, 0, 1, 0x6b]);
  });

  it('matches its own key only, and names the record it was put under', () => {
    const part = keyPart('node', 'chat', ID(7));
    expect(keyPartMatches(part, 0, 'node', 'chat', ID(7))).toBe(part.length);
    expect(keyPartMatches(part, 0, 'node', 'chat', `g${ID(7).slice(1)}`)).toBe(-1);
    expect(keyPartMatches(part, 0, 'adj', 'chat', ID(7))).toBe(-1);
    expect(keyPartMatches(part, 0, 'node', 'chaT', ID(7))).toBe(-1);
    expect(keyPartMatches(part, 0, 'node', 'chat', 7)).toBe(-1);
    expect(keyPartMatches(keyPart('meta', 'é', 'ü'), 0, 'meta', 'é', 'ü')).toBe(8);
    expect(keyPartKey(part, 0)).toEqual({ table: 'node', ns: 'chat', key: ID(7) });
  });
});

describe('a record reached under another key', () => {
  it('is damaged and named by the id it was put under, never served under the other', async () => {
    const conn = memorySqlConnection();
    const nodes = await fill(storeOn(conn), 5);
    // The row of node 3 now under another key (as a changed index entry leads to it), and adj 4's too.
    conn.query('UPDATE jev_mem_rec SET k = ? WHERE tbl = 0 AND k = ?', [utf8(`g${ID(3).slice(1)}`), utf8(ID(3))]);
    conn.query('UPDATE jev_mem_rec SET k = ? WHERE tbl = 1 AND k = ?', [utf8(`g${ID(4).slice(1)}`), utf8(ID(4))]);
    const store = storeOn(conn);
    const loaded = await store.load(A);
    expect(loaded.nodes.map((n) => n.id)).toEqual([ID(1), ID(2), ID(4), ID(5)]);
    expect(loaded.nodes).toEqual(nodes.filter((n) => n.id !== ID(3)));
    expect(await store.getNodes(A, [`g${ID(3).slice(1)}`])).toEqual([]);
    const damage = await store.damaged(A);
    expect(damage.ids).toEqual([ID(3)]);
    expect(damage.records).toEqual([`adj:g${ID(4).slice(1)}`]);
    await store.close();
  });
});

/** A file store of 40 nodes, closed: its path and bytes. */
async function written(): Promise<{ path: string; file: Buffer; nodes: MemoryNode[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'jev-seal-key-'));
  dirs.push(dir);
  const path = join(dir, 'db.sqlite');
  const conn = memorySqlConnection(path);
  const store = storeOn(conn);
  const nodes = await fill(store, 40);
  await store.close();
  conn.close();
  return { path, file: readFileSync(path), nodes };
}

/** Offsets of `id` in `file` that lie on index leaf pages (type 10). */
function onIndexLeaves(file: Buffer, id: string): number[] {
  const size = file.readUInt16BE(16);
  const out: number[] = [];
  for (let o = file.indexOf(id); o >= 0; o = file.indexOf(id, o + 1)) if (file[Math.floor(o / size) * size] === 10) out.push(o);
  return out;
}

describe('a changed byte of a key in the key index (the table whole)', () => {
  it('a delete of the record it hid is refused, not answered done, and the row stays', async () => {
    const { path, file } = await written();
    const at = onIndexLeaves(file, ID(9)).filter((o) => file[o - 9] === 8); // tbl 0 (node): serial type 8
    expect(at).toHaveLength(1);
    const b = Buffer.from(file);
    b[at[0]!] = 'g'.charCodeAt(0);
    writeFileSync(path, b);
    const conn = memorySqlConnection(path);
    const store = storeOn(conn);
    expect((await store.load(A)).nodes.map((n) => n.id)).not.toContain(`g${ID(9).slice(1)}`);
    const refused = await store.commit(A, { deleteNodeIds: [ID(9)] }).then(() => 'committed', (e: unknown) => (isJevMemError(e) ? `${e.code} ${JSON.stringify(e.details?.ids)}` : String(e)));
    expect(refused).toBe(`STORE_DAMAGED ["${ID(9)}"]`);
    expect(conn.query('SELECT count(*) AS n FROM jev_mem_rec NOT INDEXED WHERE tbl = 0 AND k = ?', [utf8(ID(9))])[0]!.n).toBe(1);
    await store.close();
    conn.close();
  });

  it('seeded random flips of id bytes on index leaf pages never serve a node under an id it was not put under', async () => {
    const { path, file, nodes } = await written();
    const byId = new Map(nodes.map((n) => [n.id, n]));
    let seed = 0x5eed;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const wrong: string[] = [];
    for (let trial = 0; trial < 24; trial++) {
      const id = ID(1 + rand(nodes.length));
      const at = onIndexLeaves(file, id);
      const o = at[rand(at.length)]! + rand(id.length);
      const b = Buffer.from(file);
      b[o] = b[o]! ^ (1 + rand(255));
      writeFileSync(path, b);
      const conn = memorySqlConnection(path);
      const store = storeOn(conn);
      try {
        for (const n of (await store.load(A)).nodes) if (byId.get(n.id)?.text !== n.text) wrong.push(`trial ${trial} (byte ${o}): ${JSON.stringify(n.id)}`);
        for (const d of (await store.damaged(A)).ids) if (!byId.has(d)) wrong.push(`trial ${trial} (byte ${o}): damaged ${JSON.stringify(d)}`);
      } catch (e) {
        if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
      } finally {
        await store.close();
        conn.close();
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

it('RECORD_TABLES keeps the order the key part codes name', () => {
  expect(RECORD_TABLES).toEqual(['node', 'adj', 'edge-ids', 'meta', 'changes', 'checkpoints', 'spaces']);
});
