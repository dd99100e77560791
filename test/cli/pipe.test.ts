/**
 * `jev-mem recall … | head -1`: the reader closes the pipe after the first line. The command must
 * end quietly with exit 0 (as a Unix filter does when its reader has what it wanted), not with
 * Node's EPIPE stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, cli, exited, spawnCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-pipe-'));
const store = join(dir, 'store');
const questions = join(dir, 'questions.txt');
// 400 questions of ~3 kB of JSON each: far more than a pipe buffers (64 kB), so writes after the
// reader has gone are certain.
const QUESTIONS = 400;

beforeAll(async () => {
  const r = await cli(['ingest', SAMPLE, '--store', store, '--namespace', 'sample', '--system-one', 'heuristic']);
  expect(r.code).toBe(0);
  writeFileSync(questions, Array.from({ length: QUESTIONS }, (_, i) => `What did Theo replace on his bike? (${i})`).join('\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a closed stdout', () => {
  it('ends recall quietly with exit 0 when the reader closes the pipe after the first line', async () => {
    const child = spawnCli(['recall', '--questions', questions, '--store', store, '--namespace', 'sample', '--k', '10', '--json', '--system-one', 'heuristic']);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    let stdout = '';
    let firstLine: string | undefined;
    child.stdout?.on('data', (c: Buffer) => {
      if (firstLine !== undefined) return;
      stdout += c.toString('utf8');
      const nl = stdout.indexOf('\n');
      if (nl >= 0) {
        firstLine = stdout.slice(0, nl);
        child.stdout?.destroy(); // what `head -1` does
      }
    });
    const code = await exited(child);
    expect(JSON.parse(firstLine ?? 'null')).toMatchObject({ question: 'What did Theo replace on his bike? (0)' });
    expect(stderr).not.toMatch(/EPIPE|Error|at .*\.(ts|js):\d+/);
    expect(code).toBe(0);
  });
});
