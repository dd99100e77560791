/**
 * SIGTERM and SIGHUP during `jev-mem ingest` and `jev-mem import` (issue 22, fresh-clone review:
 * SIGTERM ended an ingest at once with exit 143, the store's lock left and nothing said). They
 * stop the write as Ctrl-C does: at a chunk boundary (ingest) or before the one atomic commit
 * (import), say what was committed, release the lock, and exit with 128 + the signal's number.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { cli, exited, SAMPLE, spawnCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const H = ['--system-one', 'heuristic'];
const LINES = 4000;
const CHUNK = 64;
const turns = join(dir, 'turns.jsonl');
const large = join(dir, 'large.json');

beforeAll(async () => {
  const t0 = Date.UTC(2024, 0, 1);
  writeFileSync(turns, Array.from({ length: LINES }, (_, i) => JSON.stringify({ text: `Turn ${i}: I watered plant number ${i} and noted ${i % 7} new leaves.`, observedAt: new Date(t0 + i * 60_000).toISOString(), speaker: i % 2 ? 'Ann' : 'Bo' })).join('\n'));
  // An export above 1 MiB (import says it is reading it, the moment the signal is sent).
  const source = join(dir, 'source');
  expect((await cli(['ingest', SAMPLE, '--store', source, ...H])).code).toBe(0);
  const file = JSON.parse((await cli(['export', '--store', source, ...H])).out[0] as string) as MemoryExport;
  const nodes: MemoryExport['nodes'] = [];
  for (let k = 0; k < 120; k++) for (const n of file.nodes) nodes.push({ ...n, id: `${n.id}-${k}`, seq: nodes.length + 1, supersededBy: n.supersededBy.map((x) => `${x}-${k}`) });
  const { textHashes: _dropped, ...rest } = file;
  writeFileSync(large, JSON.stringify({ ...rest, nodes, edges: [] }));
}, 120_000);

/** Starts `args` as a child and sends `signal` once stderr matches `when`; its exit code and stderr. */
async function signalled(args: string[], signal: NodeJS.Signals, when: RegExp): Promise<{ code: number | string; stderr: string }> {
  const child = spawnCli(args);
  let stderr = '';
  let sent = false;
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    if (!sent && when.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  const code = await exited(child);
  expect(sent).toBe(true);
  return { code, stderr };
}

describe('SIGTERM and SIGHUP stop a CLI write as Ctrl-C does', () => {
  for (const [signal, exit] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`${signal} during ingest: exit ${exit}, the committed count said, the lock released, the store holds exactly those`, async () => {
      const store = join(dir, `ingest-${signal}`);
      const { code, stderr } = await signalled(['ingest', turns, '--store', store, '--namespace', 'big', ...H], signal, new RegExp(`ingest: \\d+/${LINES} observations`));
      expect(code, stderr).toBe(exit);
      const m = new RegExp(`ingest interrupted by ${signal}: (\\d+) of ${LINES} observations committed to namespace "big"; observations (\\d+)-${LINES} were not written; store .* closed, lock released`).exec(stderr);
      expect(m, stderr).not.toBeNull();
      const committed = Number(m?.[1]);
      expect(committed % CHUNK).toBe(0);
      expect(committed).toBeGreaterThan(0);
      expect(readdirSync(store).filter((n) => n.startsWith('lock') || n.endsWith('.lock') || n.endsWith('.holders'))).toEqual([]);
      const stats = await cli(['stats', '--store', store, '--namespace', 'big', ...H]);
      expect(JSON.parse(stats.out[0] as string)).toMatchObject({ namespace: 'big', nodes: committed });
    }, 180_000);
  }

  it('SIGTERM during import: exit 143, nothing committed, the store it made removed', async () => {
    const store = join(dir, 'import');
    const { code, stderr } = await signalled(['import', large, '--store', store, ...H], 'SIGTERM', /import: reading /);
    expect(code, stderr).toBe(143);
    expect(stderr).toContain(`jev-mem: import interrupted by SIGTERM: nothing was committed (the import is one atomic commit); the new store ${store} was removed; to import the file, run again: jev-mem import ${large} --store ${store}`);
    expect(existsSync(store)).toBe(false);
  }, 180_000);
});
