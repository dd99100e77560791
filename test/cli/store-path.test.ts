/**
 * A `--store` path that cannot be a store fails at once with an error naming `--store` and the
 * path, never a hang or an "unexpected error": under /proc (Node's recursive mkdir retried
 * ENOENT there forever), under a file (ENOTDIR, which the cleanup's rm used to hide behind a raw
 * lstat error), and a file itself (named `--store`, not the library's "option dir"); the
 * library's `createNodeMemory({ store })` names its own option `store`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeMemory } from '../../src/node.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-storepath-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const notes = join(dir, 'notes.jsonl');
writeFileSync(notes, '{"text":"Maya: I ate a green apple."}\n');
const file = join(dir, 'a-file');
writeFileSync(file, 'not a store');
const H = ['--system-one', 'heuristic'];

describe('--store paths that cannot be a store', () => {
  it.skipIf(!existsSync('/proc/self'))('under /proc: STORAGE_FAILED naming --store and the path, at once (it hung)', async () => {
    for (const store of ['/proc/jev-mem-x', '/proc/jev-mem-x/y']) {
      const r = await cli(['ingest', notes, '--store', store, ...H]);
      expect(r.code).toBe(1);
      expect(r.err).toEqual([
        `jev-mem: STORAGE_FAILED: --store ${store}: could not create the store directory ${store} (ENOENT: its parent cannot hold directories: a virtual file system such as /proc): ENOENT: no such file or directory, mkdir '/proc/jev-mem-x'; choose a directory this process may write`,
      ]);
    }
  });

  it('under a file: STORAGE_FAILED (ENOTDIR) naming --store and the path, for a command that makes the store and one that reads it', async () => {
    const store = join(file, 'sub');
    const expected = `jev-mem: STORAGE_FAILED: --store ${store}: could not open the store directory ${store} (ENOTDIR: a part of the path is a file, not a directory): ENOTDIR: not a directory, stat '${store}'; choose a directory this process may write`;
    for (const cmd of [['ingest', notes], ['stats']]) {
      const r = await cli([...cmd, '--store', store, ...H]);
      expect([r.code, r.err]).toEqual([1, [expected]]);
    }
    // The library's error, not the cleanup's raw one.
    await expect(createNodeMemory({ store, systemOne: 'heuristic' })).rejects.toMatchObject({ code: 'STORAGE_FAILED', field: 'store', details: { path: store, errno: 'ENOTDIR' } });
    await expect(createSqliteFileStorage({ dir: join(store, 'deeper') })).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { errno: 'ENOTDIR' } });
  });

  it('a file: INVALID_OPTION naming --store (not "option dir") and saying it is a file', async () => {
    const r = await cli(['ingest', notes, '--store', file, ...H]);
    expect([r.code, r.err]).toEqual([1, [`jev-mem: INVALID_OPTION: --store: ${file} is a file, not a directory; choose an empty or new directory`]]);
    // check opens the store with the adapter itself (its option is dir): the same words.
    const c = await cli(['check', '--store', file]);
    expect([c.code, c.err]).toEqual([1, [`jev-mem: INVALID_OPTION: --store: ${file} is a file, not a directory; choose an empty or new directory`]]);
  });
});

describe('createNodeMemory({ store }) that cannot be a store', () => {
  it('names its own option, store (not the adapter\'s dir), with the path', async () => {
    const other = join(dir, 'not-a-store');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    for (const [store, what] of [
      [file, 'is a file, not a directory'],
      [other, 'is a non-empty directory that holds no jev-mem store'],
    ] as const) {
      const e = (await createNodeMemory({ store, systemOne: 'heuristic' }).catch((x: unknown) => x)) as { code: string; field: string; message: string; details: { path: string } };
      expect([e.code, e.field, e.message, e.details.path]).toEqual(['INVALID_OPTION', 'store', `option store: ${store} ${what}; choose an empty or new directory`, store]);
    }
    // The adapter's own option keeps its name.
    await expect(createSqliteFileStorage({ dir: file })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'dir', message: `option dir: ${file} is a file, not a directory; choose an empty or new directory` });
  });
});
