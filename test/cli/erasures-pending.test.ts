/**
 * Pending erasures of the CLI's store stay exact (issue 22, fresh-clone review): a damaged
 * `<store>/erasures-pending` file read as 0 pending (which the README calls byte-clean) and the
 * next write did not rewrite the file; and the README named a `jev-mem maintain` command that did
 * not exist, the one way to settle erasures a crash (SIGKILL) left pending from the command line
 * (`recall` and `stats` only read, and leave them).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PENDING_ERASURES_FILE, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { ROOT, SAMPLE, cli } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-pending-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const H = ['--system-one', 'heuristic'];
let n = 0;

/** A store holding the 30-turn sample in namespace 'sample'. */
async function sampleStore(): Promise<string> {
  const store = join(root, `s${n++}`);
  expect((await cli(['ingest', SAMPLE, '--store', store, '--namespace', 'sample', ...H])).code).toBe(0);
  expect(existsSync(join(store, PENDING_ERASURES_FILE))).toBe(false);
  return store;
}

async function pending(store: string): Promise<number> {
  const r = await cli(['stats', '--store', store, '--namespace', 'sample', ...H]);
  expect(r.code).toBe(0);
  return (JSON.parse(r.out[0]!) as { erasuresPending: number }).erasuresPending;
}

describe('a damaged erasures-pending file', () => {
  it('counts as pending (not 0), and the next write rewrites the file and removes it', async () => {
    const store = await sampleStore();
    for (const junk of ['garbage', '', '-3', '1.5', '\u0000\u0000']) {
      writeFileSync(join(store, PENDING_ERASURES_FILE), junk);
      expect(await pending(store), JSON.stringify(junk)).toBe(1);
    }
    writeFileSync(join(store, PENDING_ERASURES_FILE), 'garbage');
    const line = join(root, 'one.jsonl');
    writeFileSync(line, `${JSON.stringify({ text: 'Caroline: the garden club meets on Tuesdays now.', speaker: 'Caroline', observedAt: '2023-09-01T10:00:00Z' })}\n`);
    expect((await cli(['ingest', line, '--store', store, '--namespace', 'sample', ...H])).code).toBe(0);
    expect(existsSync(join(store, PENDING_ERASURES_FILE))).toBe(false);
    expect(await pending(store)).toBe(0);
  });
});

describe('jev-mem maintain', () => {
  it('settles the erasure a SIGKILLed delete left pending, which recall and stats leave; prints the pass counts and erasuresPending 0', async () => {
    const store = await sampleStore();
    const exported = await cli(['export', '--store', store, '--namespace', 'sample', ...H]);
    const victim = (JSON.parse(exported.out[0]!) as { nodes: Array<{ id: string }> }).nodes[3]!.id;
    // A process that deletes with the rewrite left for later (vacuumBytes 0) and is killed before its close.
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createSqliteFileStorage } = await import(${JSON.stringify(join(ROOT, 'src/plane/store/sqlite-file-storage.ts'))});
         const s = await createSqliteFileStorage({ dir: ${JSON.stringify(store)}, vacuumBytes: 0, logger: () => undefined });
         await s.commit('sample', { deleteNodeIds: [${JSON.stringify(victim)}] });
         process.kill(process.pid, 'SIGKILL');`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(readFileSync(join(store, PENDING_ERASURES_FILE), 'utf8')).toBe('1');
    expect((await cli(['recall', 'Caroline', '--store', store, '--namespace', 'sample', ...H])).code).toBe(0);
    expect(await pending(store)).toBe(1);

    const r = await cli(['maintain', '--store', store, '--namespace', 'sample', ...H]);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const out = JSON.parse(r.out[0]!) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['contradiction', 'erasuresPending', 'expired', 'link', 'namespace', 'obsolete', 'redundant']);
    expect(out).toMatchObject({ namespace: 'sample', expired: 0, erasuresPending: 0 });
    expect(existsSync(join(store, PENDING_ERASURES_FILE))).toBe(false);
    expect(await pending(store)).toBe(0);
  });

  it('exits 1 with STORE_MISSING for a store that is not there, and warns for a namespace the store does not hold', async () => {
    const missing = await cli(['maintain', '--store', join(root, 'nowhere'), ...H]);
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toContain('STORE_MISSING');
    const store = await sampleStore();
    const other = await cli(['maintain', '--store', store, '--namespace', 'typo', ...H]);
    expect(other.code).toBe(0);
    expect(JSON.parse(other.out[0]!)).toMatchObject({ namespace: 'typo', erasuresPending: 0 });
    expect(other.err).toEqual(['jev-mem: warning: the store holds no namespace "typo"; only the pending erasures of the store were settled']);
    const storage = await createSqliteFileStorage({ dir: store, create: false });
    try {
      expect(await storage.namespaces()).toEqual(['sample']);
    } finally {
      await storage.close();
    }
  });
});
