/**
 * Ctrl-C during `jev-mem ingest`: the write stops through the AbortSignal that addMany takes,
 * the chunks committed so far stay and are counted on stderr, the store's lock file is removed,
 * and the exit code is 130. Reopening the store shows exactly the committed count.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, exited, spawnCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-sigint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES = 4000;
const CHUNK = 64; // addMany's default chunkSize: commits come in multiples of it

describe('Ctrl-C during ingest', () => {
  it('exits 130, states how many observations were committed, releases the lock, and the store holds exactly those', async () => {
    const file = join(dir, 'big.jsonl');
    const t0 = Date.UTC(2024, 0, 1);
    writeFileSync(
      file,
      Array.from({ length: LINES }, (_, i) =>
        JSON.stringify({ text: `Turn ${i}: I watered plant number ${i} and noted ${i % 7} new leaves.`, observedAt: new Date(t0 + i * 60_000).toISOString(), speaker: i % 2 ? 'Ann' : 'Bo' }),
      ).join('\n'),
    );
    const store = join(dir, 'store');
    const child = spawnCli(['ingest', file, '--store', store, '--namespace', 'big', '--system-one', 'heuristic']);
    let stderr = '';
    let sent = false;
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      if (!sent && new RegExp(`ingest: \\d+/${LINES} observations`).test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await exited(child);
    expect(sent).toBe(true);
    expect(code).toBe(130);
    const m = new RegExp(`ingest interrupted: (\\d+) of ${LINES} observations committed to namespace "big"; observations (\\d+)-${LINES} were not written; store .* closed, lock released`).exec(stderr);
    expect(m, stderr).not.toBeNull();
    const committed = Number(m?.[1]);
    expect(Number(m?.[2])).toBe(committed + 1);
    expect(committed).toBeGreaterThanOrEqual(CHUNK); // the first progress line came after one chunk
    expect(committed).toBeLessThan(LINES);
    expect(committed % CHUNK).toBe(0);
    expect(existsSync(join(store, 'lock'))).toBe(false);
    const stats = await cli(['stats', '--store', store, '--namespace', 'big', '--system-one', 'heuristic']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out[0] as string)).toMatchObject({ namespace: 'big', nodes: committed });
  });
});
