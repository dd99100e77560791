/**
 * A process that read and then idles waiting for I/O gives SQLite's lock back (issue 22, "readers
 * never fail while another process writes", h-lock): a lease ends at the end of the first turn
 * that runs no statement (sqlite-node.ts), looked at by an immediate that was unref'd, and Node
 * runs no unref'd immediate while the process waits in poll for I/O (an MCP server between
 * requests, here a child waiting on its stdin). So the lease held the lock until the idle
 * process's next event, and a reader of another process waited its whole 15 s and failed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';

const CHILD = fileURLToPath(new URL('./sqlite-wait-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jev-mem-idle-lease-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a process that read and then idles', () => {
  it('does not keep the lock while it waits for its next input', async () => {
    mkdirSync(join(root, 'db'));
    const path = join(root, 'db', 'db.sqlite');
    const d = openNodeSqlDriver(path);
    d.transaction(() => d.query('CREATE TABLE t (v TEXT)'));
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const closed = new Promise<number | null>((done) => child.once('close', done));
    try {
      const until = async (text: string): Promise<void> => {
        while (!out.includes(text)) {
          if (child.exitCode !== null) throw new Error(err);
          await new Promise((done) => setTimeout(done, 20));
        }
      };
      await until('open');
      child.stdin!.write('go\n');
      await until('got 1'); // it read, and now waits on its stdin: its lease is to end with that turn
      // The lock (node-sqlite3-wasm's directory `<file>.lock`) is given back while the child idles,
      // with no event of its own. Before: it held the lock until something woke its event loop
      // (5.2 s and 6.6 s measured on a loaded machine, 15 s and a failed read with nothing to
      // wake it); now it goes within one turn (2 ms measured): 2 s is room for a loaded machine.
      const since = performance.now();
      while (existsSync(`${path}.lock`) && performance.now() - since < 2_000) await new Promise((done) => setTimeout(done, 5));
      expect(existsSync(`${path}.lock`), 'the idle process still holds the lock').toBe(false);
      await d.ready('read');
      expect(d.query('SELECT count(*) AS n FROM t')[0]?.n).toBe(0);
    } finally {
      child.stdin!.end();
      d.close();
    }
    expect(await closed, err).toBe(0);
  }, 60_000);
});
