/**
 * A full disk leaves no lock files behind (issue 22, fresh-clone review): a write refused with
 * QUOTA_EXCEEDED left `lock.<pid>-…` (the writer lock written aside) and `.holders` entries (a
 * SQLite connection's registration written aside) in the store folder, never removed, also after
 * the process exited. On a full disk a file is created and then its write fails (ENOSPC), which
 * is injected here: `open` of node:fs/promises hands back a handle whose write fails, and
 * `writeFileSync` of node:fs creates the file empty and then fails. Entries a dead process left
 * are removed by the next process that opens the store.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { registerHolder, unregisterHolder } from '../../src/plane/drivers/sqlite-lock-holders.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { takeStoreLock } from '../../src/plane/store/store-lock.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

const full = vi.hoisted(() => ({ on: false }));
const enospc = (path: string): Error => Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' });

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = (async (path: Parameters<typeof real.open>[0], ...rest: unknown[]) => {
    const handle = await (real.open as (...a: unknown[]) => ReturnType<typeof real.open>)(path, ...rest);
    if (full.on && String(path).includes('/lock')) {
      // Created (an inode is free), but no block for its bytes.
      handle.writeFile = () => Promise.reject(enospc(String(path)));
    }
    return handle;
  }) as typeof real.open;
  return { ...real, default: { ...real, open }, open };
});

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const writeFileSync = ((path: Parameters<typeof real.writeFileSync>[0], ...rest: unknown[]) => {
    if (full.on && String(path).includes('.holders')) {
      real.writeFileSync(path, '');
      throw enospc(String(path));
    }
    return (real.writeFileSync as (...a: unknown[]) => void)(path, ...rest);
  }) as typeof real.writeFileSync;
  return { ...real, default: { ...real, writeFileSync }, writeFileSync };
});

let encoder: Encoder;
const root = mkdtempSync(join(tmpdir(), 'jev-mem-lock-leftovers-'));
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
});
afterAll(async () => {
  full.on = false;
  await encoder.close?.();
  rmSync(root, { recursive: true, force: true });
});
let n = 0;
const freshDir = (): string => {
  const d = join(root, `s${n++}`);
  mkdirSync(d);
  return d;
};

/** The pid of a process of this host that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  expect(r.status).toBe(0);
  return r.pid as number;
}

describe('a full disk leaves no lock files behind', () => {
  it('the writer lock refused for lack of space leaves no file written aside', async () => {
    const dir = freshDir();
    full.on = true;
    const e = (await takeStoreLock(dir, join(dir, 'lock')).then(() => undefined, (x: unknown) => x)) as { code?: string };
    full.on = false;
    expect(e?.code).toBe('QUOTA_EXCEEDED');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a connection whose registration the disk refused leaves no .holders entry', () => {
    const dir = freshDir();
    const file = join(dir, SQLITE_FILE_NAME);
    full.on = true;
    const registration = registerHolder(file);
    full.on = false;
    expect(registration).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the next opener removes what a dead process left: its aside lock file and its registrations', async () => {
    const dir = join(freshDir(), 'store');
    const m = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), systemOne: createHeuristicSystemOne() });
    await m.add({ text: 'user: the boiler was serviced in March' });
    await m.close();
    const dead = deadPid();
    const holders = join(dir, `${SQLITE_FILE_NAME}.holders`);
    mkdirSync(holders, { recursive: true });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, `lock.${dead}-abc123`), '');
    writeFileSync(join(holders, `${dead}-x1-abc123`), JSON.stringify({ pid: dead, host: hostname(), since: new Date().toISOString() }));
    writeFileSync(join(holders, `.${dead}-x2-def456`), '');
    // Another host's registration cannot be checked: it stays.
    writeFileSync(join(holders, `${dead}-x3-ghi789`), JSON.stringify({ pid: dead, host: 'elsewhere.example', since: new Date().toISOString() }));
    const live = registerHolder(join(dir, SQLITE_FILE_NAME)); // this process's, alive
    const again = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), systemOne: createHeuristicSystemOne() });
    try {
      await again.add({ text: 'user: the gutters were cleared in April' });
      expect(readdirSync(dir).filter((x) => x.startsWith('lock.'))).toEqual([]);
      const left = readdirSync(holders);
      expect(left.filter((x) => x.includes(String(dead))).sort()).toEqual([`${dead}-x3-ghi789`]);
      expect(left).toContain(live!.split('/').pop());
    } finally {
      await again.close();
      unregisterHolder(live);
    }
    expect(existsSync(join(dir, `lock.${dead}-abc123`))).toBe(false);
  });
});
