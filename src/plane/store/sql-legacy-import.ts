/**
 * The import of a database of the SQL store's layouts 1–4 (before issue 22's one record store)
 * into the record table of the SQL record driver (`../drivers/record-sql.ts`), run once by the
 * driver at the first transaction on such a database. The old tables are read here, directly
 * (layout 1: the Durable Object's JSON-body tables `<p>nodes`, `<p>edges`, `<p>meta`; layouts
 * 2–4: `<p>names`, `<p>ids`, `<p>node`, `<p>edge`, `<p>dict`, `<p>kv`, `<p>changes`,
 * `<p>checkpoint`, `<p>checkpoint_part`, decoded by `sql-legacy-codec.ts`); every namespace's
 * nodes, edges and meta are written through the record store's own commit writer
 * (`record-commit.ts` `writeBatch`: node records with their checksums, adjacency, explicit edge
 * ids, kept counters), then its checkpoint, the change-log entries above the checkpoint and the
 * floor. The driver applies all of it in one SQL transaction together with
 * {@link LegacyImport.finish}, which drops every old table (and the old FTS5 tables), so a
 * failure leaves the old layout whole; the Node store then VACUUMs (no page of the old tables
 * is left in the file).
 *
 * Node rows that fail their checksum (layouts 3–4) or do not decode are not carried over (counted
 * in {@link LegacyImport.skipped}), nor are edges with an end whose id row is gone; a checkpoint
 * with a chunk that fails its sum is dropped (the memory rebuilds it from the records). A file
 * SQLite finds damaged fails the import (STORE_DAMAGED; the old layout stays as it was).
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { ONE, type RecordTx } from '../drivers/record-driver.js';
import type { SqlConnection, SqlParam, SqlRow } from '../drivers/record-sql.js';
import { joinChunks } from '../drivers/record-sql-codec.js';
import { ftsTablePattern } from '../indexes/sql-lexical.js';
import { recordSum } from './checksum.js';
import { checkpointRecord, putCheckpoint, spaceOf } from './record-checkpoint.js';
import { writeBatch } from './record-commit.js';
import { addTally, countingTx } from './record-counters.js';
import type { StoreWords } from './record-errors.js';
import { decodeEdge, decodeNode, num, rowSound } from './sql-legacy-codec.js';
import type { Checkpoint } from './storage.js';

/** What an import wrote, and the step that ends it inside the driver's SQL transaction. */
export interface LegacyImport {
  /** Namespaces imported. */
  namespaces: number;
  /** Node rows left out (damaged), and edges with an end whose id is lost. */
  skipped: number;
  /** Drops every table of the old layout (inside the transaction that applies the import). */
  finish(): void;
}

/** One namespace as the old tables hold it. */
interface OldNamespace {
  name: string;
  nodes: MemoryNode[];
  edges: MemoryEdge[];
  meta: Record<string, unknown>;
  checkpoint: Checkpoint | undefined;
  log: Map<number, string[]>;
  floor: number;
}

/**
 * Reads the old layout (`version` '1'–'4') of `prefix` on `db` and writes it through `tx` (see the module).
 * @throws whatever reading the old tables throws (the driver maps it); nothing is written then.
 */
export async function importLegacySql(db: SqlConnection, prefix: string, version: string, tx: RecordTx, words: StoreWords): Promise<LegacyImport> {
  const q = (sql: string, params: readonly SqlParam[] = []): SqlRow[] => db.query(sql, params);
  const tables = new Set(q(`SELECT name FROM sqlite_master WHERE type = 'table'`).map((r) => String(r.name)));
  const has = (name: string): boolean => tables.has(`${prefix}${name}`);
  const counter = { skipped: 0 };
  const spaces = version === '1' ? readV1(q, prefix, has) : readV2to4(q, prefix, has, counter);
  for (const old of spaces) {
    const { name } = old;
    await writeBatch(tx, name, { putNodes: old.nodes, putEdges: old.edges, meta: old.meta }, words);
    const space = await spaceOf(tx, name);
    const counting = countingTx(tx, name);
    if (old.checkpoint !== undefined) putCheckpoint(counting.tx, name, checkpointRecord(old.checkpoint), space);
    for (const [change, ids] of old.log) if (change > (old.checkpoint?.change ?? -Infinity)) counting.tx.put('changes', name, change, ids);
    space.floor = Math.max(space.floor, old.floor);
    addTally(space, await counting.settle());
    tx.put('spaces', name, ONE, space);
  }
  return {
    namespaces: spaces.length,
    skipped: counter.skipped,
    finish() {
      const old = ['names', 'ids', 'node', 'edge', 'dict', 'kv', 'changes', 'checkpoint', 'checkpoint_part', 'stat', 'nodes', 'edges', 'meta'].map((t) => `${prefix}${t}`);
      const fts = ftsTablePattern(prefix);
      for (const name of tables) if (old.includes(name) || fts.test(name)) q(`DROP TABLE IF EXISTS ${name}`);
    },
  };
}

/** Layout 1: JSON bodies keyed by namespace name. */
function readV1(q: (sql: string, params?: readonly SqlParam[]) => SqlRow[], p: string, has: (t: string) => boolean): OldNamespace[] {
  const byName = new Map<string, OldNamespace>();
  const of = (name: string): OldNamespace => {
    let ns = byName.get(name);
    if (ns === undefined) byName.set(name, (ns = { name, nodes: [], edges: [], meta: {}, checkpoint: undefined, log: new Map(), floor: 0 }));
    return ns;
  };
  if (has('nodes')) for (const r of q(`SELECT ns, body FROM ${p}nodes ORDER BY ns, seq, id`)) of(String(r.ns)).nodes.push(JSON.parse(String(r.body)) as MemoryNode);
  if (has('edges')) for (const r of q(`SELECT ns, body FROM ${p}edges ORDER BY ns, id`)) of(String(r.ns)).edges.push(JSON.parse(String(r.body)) as MemoryEdge);
  if (has('meta')) for (const r of q(`SELECT ns, key, value FROM ${p}meta`)) of(String(r.ns)).meta[String(r.key)] = JSON.parse(String(r.value)) as unknown;
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Layouts 2–4: rows by slot (`sql-legacy-codec.ts`); layout 2 has no checksums. */
function readV2to4(q: (sql: string, params?: readonly SqlParam[]) => SqlRow[], p: string, has: (t: string) => boolean, counter: { skipped: number }): OldNamespace[] {
  if (!has('names')) return [];
  const sums = q(`PRAGMA table_info(${p}node)`).some((c) => c.name === 'sum');
  const dict = has('dict') ? new Map(q(`SELECT code, value FROM ${p}dict`).map((r) => [num(r.code), String(r.value)])) : new Map<number, string>();
  const out: OldNamespace[] = [];
  for (const n of q(`SELECT ns, name, floor FROM ${p}names ORDER BY name`)) {
    const ns = num(n.ns);
    const name = String(n.name);
    const idOf = new Map(q(`SELECT slot, id FROM ${p}ids WHERE ns = ?`, [ns]).map((r) => [num(r.slot), String(r.id)]));
    const nodes: MemoryNode[] = [];
    for (const r of q(`SELECT slot, seq, body, vec${sums ? ', sum' : ''} FROM ${p}node WHERE ns = ? ORDER BY seq, slot`, [ns])) {
      const id = idOf.get(num(r.slot));
      try {
        if (id === undefined || (sums && !rowSound({ ...r, id }))) throw new Error('damaged');
        nodes.push(decodeNode(name, id, r.seq ?? null, r.body ?? null, r.vec ?? null));
      } catch {
        counter.skipped++;
      }
    }
    const edges: MemoryEdge[] = [];
    for (const r of q(`SELECT src, dst, view, subtype, eid, weight, origin, created FROM ${p}edge WHERE ns = ?`, [ns])) {
      const from = idOf.get(num(r.src));
      const to = idOf.get(num(r.dst));
      if (from === undefined || to === undefined) {
        counter.skipped++;
        continue;
      }
      edges.push(decodeEdge(name, from, to, { eid: r.eid ?? null, view: r.view ?? null, subtype: r.subtype ?? null, weight: r.weight ?? null, created: r.created ?? null }, dict.get(num(r.origin)) ?? 'null'));
    }
    const meta: Record<string, unknown> = {};
    for (const r of q(`SELECT key, value FROM ${p}kv WHERE ns = ?`, [ns])) meta[String(r.key)] = JSON.parse(String(r.value)) as unknown;
    const log = new Map<number, string[]>();
    for (const r of q(`SELECT change, id FROM ${p}changes WHERE ns = ? ORDER BY change, id`, [ns])) log.set(num(r.change), [...(log.get(num(r.change)) ?? []), String(r.id)]);
    out.push({ name, nodes, edges, meta, checkpoint: readCheckpoint(q, p, ns, sums), log, floor: num(n.floor) });
  }
  return out;
}

/** The namespace's checkpoint with its parts joined, or undefined (none, or a chunk failing its sum). */
function readCheckpoint(q: (sql: string, params?: readonly SqlParam[]) => SqlRow[], p: string, ns: number, sums: boolean): Checkpoint | undefined {
  const head = q(`SELECT change, format FROM ${p}checkpoint WHERE ns = ?`, [ns])[0];
  if (head === undefined) return undefined;
  const chunks = new Map<string, Uint8Array[]>();
  for (const r of q(`SELECT name, chunk, data${sums ? ', sum' : ''} FROM ${p}checkpoint_part WHERE ns = ? ORDER BY name, chunk`, [ns])) {
    const data = r.data instanceof Uint8Array ? r.data : new Uint8Array(0);
    // `chunkSum` of layouts 3–4: the part's name, the chunk number and its bytes.
    if (sums && recordSum([String(r.name), num(r.chunk), data]) !== num(r.sum)) return undefined;
    chunks.set(String(r.name), [...(chunks.get(String(r.name)) ?? []), data]);
  }
  const parts: Record<string, Uint8Array> = {};
  for (const [name, list] of chunks) parts[name] = joinChunks(list) ?? new Uint8Array(0);
  return { change: num(head.change), format: String(head.format), parts };
}
