/**
 * Readers never fail while another process writes (issue 22): CLI reads (stats, recall, export)
 * run as separate processes while `jev-mem ingest` writes the same store in another one; every
 * read exits 0 (before, some failed with `STORAGE_FAILED … vtable constructor failed` or waited
 * out a lock synchronously).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, spawnCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-conc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Long enough that the bulk ingest (issue 25) is still writing when the last read ends; the writer
// is stopped by Ctrl-C once the reads are done, so the test does not wait for all of them.
const LINES = 10_000;
const READS = 6;

/** Runs one CLI read to its end; resolves with its exit code and stderr. */
async function read(args: string[]): Promise<{ args: string[]; code: number | string; stderr: string }> {
  const child = spawnCli(args);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdout?.resume();
  return { args, code: await exited(child), stderr };
}

describe('CLI reads during an ingest in another process', () => {
  it('all succeed', async () => {
    const file = join(dir, 'turns.jsonl');
    const t0 = Date.UTC(2024, 0, 1);
    writeFileSync(
      file,
      Array.from({ length: LINES }, (_, i) => JSON.stringify({ text: `Turn ${i}: Mia fixed bike number ${i} and painted it ${['red', 'blue', 'green'][i % 3]}.`, observedAt: new Date(t0 + i * 60_000).toISOString(), speaker: i % 2 ? 'Mia' : 'Leo' })).join('\n'),
    );
    const store = join(dir, 'store');
    const writer = spawnCli(['ingest', file, '--store', store, '--namespace', 'n', '--system-one', 'heuristic']);
    let writerErr = '';
    const started = new Promise<void>((done) => {
      writer.stderr?.on('data', (c: Buffer) => {
        writerErr += c.toString('utf8');
        if (/ingest: \d+\/\d+ observations/.test(writerErr)) done(); // the first chunk is committed
      });
    });
    const writerDone = exited(writer);
    await started;
    const common = ['--store', store, '--namespace', 'n', '--system-one', 'heuristic'];
    const kinds = [['stats', ...common], ['recall', 'What colour did Mia paint the bike?', '--k', '5', ...common], ['export', ...common]];
    const results: Awaited<ReturnType<typeof read>>[] = [];
    // Three at a time, while the writer commits.
    for (let i = 0; i < READS; i += 3) results.push(...(await Promise.all(kinds.map((k) => read(k)))));
    writer.kill('SIGINT'); // enough: stop the writer (exit 130 keeps what it committed)
    const writerCode = await writerDone;
    const failed = results.filter((r) => r.code !== 0);
    expect(failed.map((r) => `${r.args[0]}: ${r.code}: ${r.stderr}`)).toEqual([]);
    // The writer was not failed by the readers either: it stopped on Ctrl-C (or had finished).
    expect([0, 130], writerErr.slice(-2000)).toContain(writerCode);
    // Reads ran while the writer wrote: it had not finished before the last one.
    expect(writerErr).not.toMatch(new RegExp(`ingest: ${LINES}/${LINES}`));
  }, 150_000);
});
