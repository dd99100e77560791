/**
 * Issue 22 (break3 item 2): `close()` waits for every call already started — reads included,
 * and a call still opening its namespace from the store — so none of them reads the closed
 * database (`STORAGE_FAILED "Database already closed"`); a call started after `close()` gets
 * `CLOSED`.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createNodeMemory } from '../../src/node.js';
import type { Memory } from '../../src/memory.js';
import { lifecycleFixture } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('close-in-flight', (e) => (encoder = e));

const WORDS = ['heron', 'kettle', 'violin', 'glacier', 'lantern', 'orchard', 'pepper', 'saddle', 'tunnel', 'walnut'];

/** A store whose namespace 'a' holds 300 memories; returns its folder and the ids. */
async function seeded(): Promise<{ dir: string; ids: string[] }> {
  const dir = tempDir();
  const m = await createNodeMemory({ store: dir, encoder, systemOne: 'heuristic' });
  const obs = Array.from({ length: 300 }, (_, i) => ({ text: `Note ${i}: the ${WORDS[i % 10]} number ${i} sits by the ${WORDS[(i * 7) % 10]}.`, observedAt: `2024-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z` }));
  const r = await m.addMany(obs, { namespace: 'a' });
  await m.close();
  return { dir, ids: r.map((x) => x.id) };
}

/** Starts `call` on a freshly reopened store, closes at once, and returns what the call settled to. */
async function closeDuring(dir: string, call: (m: Memory) => Promise<unknown>): Promise<{ ok: unknown } | { code: unknown; message: string }> {
  const m = await createNodeMemory({ store: dir, encoder, systemOne: 'heuristic' });
  const p = call(m).then(
    (ok) => ({ ok }),
    (e: { code?: unknown; message: string }) => ({ code: e.code, message: e.message }),
  );
  await m.close();
  return p;
}

describe('close() during calls that are opening a namespace', () => {
  it('each read and write started before close() resolves with its result; one started after gets CLOSED', async () => {
    const { dir, ids } = await seeded();
    const id = ids[5] as string;
    const recall = await closeDuring(dir, (m) => m.recall('heron', { namespace: 'a', k: 3 }));
    expect('ok' in recall ? (recall.ok as { memories: unknown[] }).memories.length : recall).toBe(3);
    const list = await closeDuring(dir, (m) => m.list({ namespace: 'a', limit: 7 }));
    expect('ok' in list ? (list.ok as { memories: unknown[] }).memories.length : list).toBe(7);
    const get = await closeDuring(dir, (m) => m.get(id, { namespace: 'a' }));
    expect('ok' in get ? (get.ok as { id: string }).id : get).toBe(id);
    const history = await closeDuring(dir, (m) => m.history(id, { namespace: 'a' }));
    expect('ok' in history ? (history.ok as unknown[]).length : history).toBe(1);
    const edges = await closeDuring(dir, (m) => m.edges(id, { namespace: 'a' }));
    expect('ok' in edges ? Array.isArray(edges.ok) : edges).toBe(true);
    const stats = await closeDuring(dir, (m) => m.stats({ namespace: 'a' }));
    expect('ok' in stats ? (stats.ok as { nodes: number }).nodes : stats).toBe(300);
    const exported = await closeDuring(dir, (m) => m.export({ namespace: 'a' }));
    expect('ok' in exported ? (exported.ok as { nodes: unknown[] }).nodes.length : exported).toBe(300);
    const added = await closeDuring(dir, (m) => m.add({ text: 'The heron left the pond.' }, { namespace: 'a' }));
    expect('ok' in added ? typeof (added.ok as { id: string }).id : added).toBe('string');

    const m = await createNodeMemory({ store: dir, encoder, systemOne: 'heuristic' });
    const closing = m.close();
    await expect(m.list({ namespace: 'a' })).rejects.toMatchObject({ code: 'CLOSED' });
    await closing;
  }, 120_000);
});
