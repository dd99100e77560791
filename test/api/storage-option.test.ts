/**
 * Issue 22 (h-break7 finding 6): `storage` of `createMemory` / `createNodeMemory` must be a
 * storage adapter. The factories are async, and the README once wrote them without `await`: a
 * Promise was accepted, the first write failed with `STORAGE_FAILED storage.loadMeta is not a
 * function` and `recall` / `close` with a bare TypeError. Now the creation is refused with
 * `INVALID_OPTION` naming `storage`, and the refused Promise's store is closed (its lock freed:
 * a second memory opens the same folder).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
const fx = lifecycleFixture('api-storage-option', (e) => (encoder = e));

/** The error of a rejected creation (code, field, message), or `'resolved'`. */
async function refusal(p: Promise<unknown>): Promise<{ code: string; field: unknown; message: string } | 'resolved'> {
  try {
    const m = (await p) as { close(): Promise<void> };
    await m.close();
    return 'resolved';
  } catch (e) {
    if (!isJevMemError(e)) throw e;
    return { code: e.code, field: (e.details as { field?: unknown } | undefined)?.field, message: e.message };
  }
}

describe('createMemory storage option', () => {
  it('refuses a storage factory Promise passed without await, and frees its store', async () => {
    const dir = fx.tempDir();
    const pending = createSqliteFileStorage({ dir });
    const r = await refusal(createMemory({ encoder, storage: pending as never }));
    expect(r).not.toBe('resolved');
    if (r === 'resolved') return;
    expect([r.code, r.field]).toEqual(['INVALID_OPTION', 'storage']);
    expect(r.message).toContain('storage');
    expect(r.message).toContain('await');
    // The refused Promise's adapter is closed once it opens: the folder opens again as a writer.
    await pending.then(() => undefined);
    await new Promise((res) => setTimeout(res, 50));
    const again = await createSqliteFileStorage({ dir });
    const m = await createMemory({ encoder, storage: again });
    await m.add({ text: 'Maya: the kiln is finally fixed.' });
    expect((await m.stats()).nodes).toBe(1);
    await m.close();
  });

  it('refuses values that are not storage adapters, naming the missing methods', async () => {
    const none = await refusal(createMemory({ encoder, storage: 'idb' as never }));
    expect(none).not.toBe('resolved');
    if (none !== 'resolved') expect([none.code, none.message.includes('storage adapter')]).toEqual(['INVALID_OPTION', true]);
    const partial = await refusal(createMemory({ encoder, storage: { load: async () => ({}), commit: async () => undefined } as never }));
    expect(partial).not.toBe('resolved');
    if (partial !== 'resolved') {
      expect(partial.code).toBe('INVALID_OPTION');
      expect(partial.message).toContain('without loadMeta, getNodes, close');
    }
  });

  it('accepts a real adapter and leaving storage out', async () => {
    expect(await refusal(createMemory({ encoder, storage: createMemoryStorage() }))).toBe('resolved');
    expect(await refusal(createMemory({ encoder }))).toBe('resolved');
  });
});
