/**
 * The Worker under test: the deployable entry (src/edge/worker.ts) plus `StorageProbe`, a
 * Durable Object that exposes the SQLite storage adapter operation by operation, so the shared
 * StorageAdapter contract (test/plane/storage-contract.ts) runs against workerd's real SQLite.
 */
import { createDurableObjectStorage, type DurableObjectStorageLike } from '../../src/edge/do-storage.js';
import edge, { JevMemObject } from '../../src/edge/worker.js';
import { isJevMemError } from '../../src/errors.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createVectorIndex, restoreVectorIndex } from '../../src/plane/indexes/vector-factory.js';
import type { Checkpoint, StorageAdapter, WriteBatch } from '../../src/plane/store/storage.js';
import { prng } from '../helpers/prng.js';
import { faultCommit, flipMarker, type FaultKind, type ProbeState } from './crash-probe.js';

export { JevMemObject };

type Parts = Record<string, Uint8Array>;
const partsToWire = (parts: Parts): Record<string, number[]> => Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Array.from(v)]));
const partsFromWire = (parts: Record<string, number[]>): Parts => Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Uint8Array.from(v)]));

/** A batch as it crosses HTTP: checkpoint parts that were Uint8Arrays as { bytes }. */
type WireBatch = WriteBatch & { checkpoint?: { parts: Record<string, unknown> } | null };

/** A batch's checkpoint (issue 22): parts that were Uint8Arrays cross as { bytes }, anything else as it is. */
function batchFromWire(batch: WireBatch): WriteBatch {
  if (batch.checkpoint) {
    const parts = Object.fromEntries(Object.entries(batch.checkpoint.parts).map(([k, v]) => [k, typeof v === 'object' && v !== null && 'bytes' in v ? Uint8Array.from((v as { bytes: number[] }).bytes) : v]));
    batch.checkpoint = { ...(batch.checkpoint as Checkpoint), parts: parts as Parts };
  }
  return batch;
}

/**
 * One adapter call: `{ method, args }` → `{ ok: true, value }` or `{ ok: false, error }`. Scans
 * answer every batch at once, checkpoint parts cross as arrays of bytes, and `seedV1` writes
 * rows into the v1 tables (JSON bodies) before the adapter's first call, to test the migration.
 */
export class StorageProbe {
  private readonly storage: DurableObjectStorageLike;
  private readonly adapter: StorageAdapter;
  private readonly ctx: ProbeState;
  /** Identity of this instance of the object (a new one after `ctx.abort()`). */
  private readonly instance = crypto.randomUUID();

  constructor(ctx: ProbeState) {
    this.ctx = ctx;
    this.storage = ctx.storage;
    this.adapter = createDurableObjectStorage(ctx.storage);
  }

  private seedV1(rows: { nodes: Array<[string, string, number, string]>; edges: Array<[string, string, string]>; meta: Array<[string, string, string]> }): void {
    const sql = this.storage.sql;
    sql.exec(`CREATE TABLE jev_mem_schema (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    sql.exec(`INSERT INTO jev_mem_schema (key, value) VALUES ('version', '1')`);
    sql.exec(`CREATE TABLE jev_mem_nodes (ns TEXT NOT NULL, id TEXT NOT NULL, seq REAL NOT NULL, body TEXT NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE jev_mem_edges (ns TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID`);
    sql.exec(`CREATE TABLE jev_mem_meta (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID`);
    for (const r of rows.nodes) sql.exec(`INSERT INTO jev_mem_nodes (ns, id, seq, body) VALUES (?, ?, ?, ?)`, ...r);
    for (const r of rows.edges) sql.exec(`INSERT INTO jev_mem_edges (ns, id, body) VALUES (?, ?, ?)`, ...r);
    for (const r of rows.meta) sql.exec(`INSERT INTO jev_mem_meta (ns, key, value) VALUES (?, ?, ?)`, ...r);
  }

  /**
   * Issue 25: the pure-TypeScript HNSW in workerd (no wasm code generation there). Builds it over
   * `n` seeded 32-d vectors on the int8 grid, writes it as a checkpoint part into this object's
   * SQLite and reads it back, and answers its kind, recall@10 against the flat index on 20
   * queries, and whether the restored index answers the same.
   */
  private async annIndex(n: number): Promise<{ kind: string; size: number; recall: number; sameAfterRestore: boolean }> {
    const d = 32;
    const random = prng(25);
    const draw = (): Float32Array => Float32Array.from(quantizeVector(Array.from({ length: d }, () => random() * 2 - 1)));
    const ann = await createVectorIndex('auto', d);
    const flat = createFlatVectorIndex(d);
    for (let i = 0; i < n; i++) {
      const v = draw();
      ann.add(`n${i}`, v);
      flat.add(`n${i}`, v);
    }
    const queries = Array.from({ length: 20 }, draw);
    let hits = 0;
    for (const q of queries) {
      const truth = new Set(flat.search(q, 10).map((h) => h.id));
      hits += ann.search(q, 10).filter((h) => truth.has(h.id)).length;
    }
    await this.adapter.writeCheckpoint!('ann', { change: 0, format: 'probe', parts: { vectors: (await ann.serialize!()) as Uint8Array } });
    const back = await restoreVectorIndex((await this.adapter.readCheckpoint!('ann'))!.parts.vectors!);
    const sameAfterRestore = queries.every((q) => JSON.stringify(back.search(q, 10)) === JSON.stringify(ann.search(q, 10)));
    return { kind: back.kind, size: back.size, recall: hits / (10 * queries.length), sameAfterRestore };
  }

  private tables(): string[] {
    return this.storage.sql.exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'jev_mem_%' ORDER BY name`).toArray().map((r) => String(r.name));
  }

  async fetch(request: Request): Promise<Response> {
    const { method, args } = (await request.json()) as { method: string; args: unknown[] };
    try {
      let value: unknown;
      if (method === 'seedV1') this.seedV1(args[0] as Parameters<StorageProbe['seedV1']>[0]);
      else if (method === 'annIndex') value = await this.annIndex(args[0] as number);
      else if (method === 'tables') value = this.tables();
      // Fault injection (crash-probe.ts, test/edge/do-crash.test.ts).
      else if (method === 'instance') value = this.instance;
      else if (method === 'flipMarker') value = flipMarker(this.storage, args[0] as string);
      else if (method === 'faultCommit') value = await faultCommit(this.ctx, args[0] as string, batchFromWire(args[1] as WireBatch), args[2] as number, args[3] as FaultKind);
      else if (method === 'scanNodes' || method === 'scanEdges') {
        const batches: unknown[] = [];
        for await (const b of this.adapter[method]!(args[0] as string, args[1] as number)) batches.push(b);
        value = batches;
      } else if (method === 'commit') {
        await this.adapter.commit(args[0] as string, batchFromWire(args[1] as WireBatch));
      } else if (method === 'writeCheckpoint') {
        const cp = args[1] as { change: number; format: string; parts: Record<string, number[]> };
        await this.adapter.writeCheckpoint!(args[0] as string, { ...cp, parts: partsFromWire(cp.parts) });
      } else if (method === 'readCheckpoint') {
        const cp = await this.adapter.readCheckpoint!(args[0] as string);
        value = cp === undefined ? null : { ...cp, parts: partsToWire(cp.parts) };
      } else {
        const fn = this.adapter[method as keyof StorageAdapter] as (...a: unknown[]) => Promise<unknown>;
        value = await fn.apply(this.adapter, args);
      }
      return Response.json({ ok: true, value: value ?? null });
    } catch (e) {
      if (isJevMemError(e)) return Response.json({ ok: false, error: { code: e.code, message: e.message, field: e.field } });
      return Response.json({ ok: false, error: { code: 'UNEXPECTED', message: String(e) } });
    }
  }
}

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__probe/')) {
      const ns = env.STORAGE_PROBE as { idFromName(n: string): unknown; get(id: unknown): { fetch(r: Request): Promise<Response> } };
      return ns.get(ns.idFromName(url.pathname.slice('/__probe/'.length))).fetch(request);
    }
    return edge.fetch(request, env);
  },
};
