/**
 * A full disk when the writer lock file is written (every write of a Node store, a delete
 * included, takes `<dir>/lock` first) is QUOTA_EXCEEDED naming the store, not STORAGE_FAILED
 * "could not create the lock file … ENOSPC" (stop 34 review). ENOSPC and EDQUOT are injected at
 * `open` of node:fs/promises, which the lock alone uses.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { takeStoreLock, WRITER_IDLE_MS } from '../../src/plane/store/store-lock.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** The errno the next `open` of a lock file fails with (undefined: none). */
let failWith: string | undefined;

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = ((path: Parameters<typeof real.open>[0], ...rest: unknown[]) => {
    if (failWith !== undefined && String(path).includes(`${'/'}lock`)) {
      const code = failWith;
      return Promise.reject(Object.assign(new Error(`${code}: no space left on device, open '${String(path)}'`), { code }));
    }
    return (real.open as (...a: unknown[]) => ReturnType<typeof real.open>)(path, ...rest);
  }) as typeof real.open;
  return { ...real, default: { ...real, open }, open };
});

let encoder: Encoder;
const dirs: string[] = [];
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
});
afterAll(async () => {
  await encoder.close?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'jev-mem-lock-full-'));
  dirs.push(d);
  return d;
};

describe('the writer lock on a full disk', () => {
  for (const code of ['ENOSPC', 'EDQUOT']) {
    it(`${code} at the lock file is QUOTA_EXCEEDED naming the store and the lock`, async () => {
      const dir = tempDir();
      failWith = code;
      try {
        const e = (await takeStoreLock(dir, join(dir, 'lock')).then(() => undefined, (x: unknown) => x)) as { code: string; message: string; details: Record<string, unknown> };
        expect(e.code).toBe('QUOTA_EXCEEDED');
        expect(e.details).toMatchObject({ field: 'store', lock: join(dir, 'lock') });
        expect(e.message).toMatch(new RegExp(`lack of space \\(${code}\\); nothing was written`));
      } finally {
        failWith = undefined;
      }
    });
  }

  it('delete on a full disk is QUOTA_EXCEEDED and deletes nothing; with space again it works', async () => {
    const dir = join(tempDir(), 'store');
    const m = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), systemOne: createHeuristicSystemOne() });
    try {
      const { id } = await m.add({ text: 'user: the boiler was serviced in March' });
      await new Promise((r) => setTimeout(r, WRITER_IDLE_MS * 2)); // the idle writer gives its lock back
      failWith = 'ENOSPC';
      const e = (await m.delete(id).then(() => undefined, (x: unknown) => x)) as { code: string };
      failWith = undefined;
      expect(e.code).toBe('QUOTA_EXCEEDED');
      expect((await m.get(id))?.id).toBe(id);
      expect(await m.delete(id)).toBe(true);
    } finally {
      failWith = undefined;
      await m.close();
    }
  });
});
