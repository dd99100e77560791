/**
 * The Worker under test: the deployable entry (src/edge/worker.ts) plus `StorageProbe`, a
 * Durable Object that exposes the SQLite storage adapter operation by operation, so the shared
 * StorageAdapter contract (test/plane/storage-contract.ts) runs against workerd's real SQLite.
 */
import { createDurableObjectStorage, type DurableObjectStorageLike } from '../../src/edge/do-storage.js';
import edge, { JevMemObject } from '../../src/edge/worker.js';
import { isJevMemError } from '../../src/errors.js';
import type { StorageAdapter } from '../../src/plane/storage.js';

export { JevMemObject };

/** One adapter call: `{ method, args }` → `{ ok: true, value }` or `{ ok: false, error }`. */
export class StorageProbe {
  private readonly adapter: StorageAdapter;

  constructor(ctx: { storage: DurableObjectStorageLike }) {
    this.adapter = createDurableObjectStorage(ctx.storage);
  }

  async fetch(request: Request): Promise<Response> {
    const { method, args } = (await request.json()) as { method: keyof StorageAdapter; args: unknown[] };
    try {
      const fn = this.adapter[method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn.apply(this.adapter, args);
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
