/**
 * The import of a SQL store of layouts 1–4 (here v4, `fixtures/sqlite-v4-base.sqlite`) while a
 * second process reads the store (issue 22, h-damage4 item 2): the import read the old tables and
 * ran its VACUUM outside the database lock, so the first statement that met the other process's
 * read lease failed the open (`database is locked`). It now runs under the lock as every write
 * does (waiting for the other's lease); the reader neither fails nor sees a state between the old
 * layout and the new one, and no byte of the old tables is left in the file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PENDING_ERASURES_FILE, SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/sqlite-v4-base.sqlite', import.meta.url));
const CHILD = fileURLToPath(new URL('./sqlite-import-reader-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jev-mem-import-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a store of layout v4 imported while another process reads it', () => {
  it('opens with every namespace, the reader never fails or sees a half-imported store, and the old text is gone', async () => {
    const dir = join(root, 'store');
    mkdirSync(dir);
    const file = join(dir, SQLITE_FILE_NAME);
    copyFileSync(FIXTURE, file);
    const reader: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let exited: number | string | null = null;
    reader.once('close', (code, signal) => (exited = code ?? signal));
    await new Promise<void>((done, fail) => {
      reader.stdout!.on('data', (b: Buffer) => {
        out += b.toString('utf8');
        if (out.includes('reading')) done();
      });
      reader.once('close', () => fail(new Error(`the reader ended before reading: ${out}`)));
    });
    try {
      const store = await createSqliteFileStorage({ dir, logger: () => undefined });
      try {
        expect(await store.namespaces()).toEqual(['alpha', 'tenant:beta']);
        expect((await store.load('alpha')).nodes.map((n) => n.id).sort()).toEqual(['a1', 'a2']);
      } finally {
        await store.close();
      }
      // The reader goes on reading the imported store for a while.
      const seen = out.length;
      await new Promise<void>((done) => {
        const look = setInterval(() => {
          if (out.length > seen || exited !== null) clearInterval(look), done();
        }, 20);
        setTimeout(() => (clearInterval(look), done()), 3_000);
      });
      await new Promise((done) => setTimeout(done, 300));
    } finally {
      reader.kill();
    }
    expect(out).not.toContain('failed');
    expect(exited === null || exited === 'SIGTERM').toBe(true);
    // Every state the reader saw: the old layout whole, then the new one without the old tables.
    const states = out.split('\n').filter((l) => l.startsWith('state '));
    expect(states[0]).toBe('state 4 3');
    expect(states.at(-1)).toBe('state 8 0');
    expect(states.every((s) => s === 'state 4 3' || s === 'state 8 0')).toBe(true);
    // Rewritten: no byte of the old tables (a deleted node's text among them), nothing left pending.
    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from('zanzibarquux'))).toBe(false);
    expect(existsSync(join(dir, PENDING_ERASURES_FILE))).toBe(false);
  }, 60_000);
});
