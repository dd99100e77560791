/**
 * The MCP stdio server at the end of stdin (issue 22, hostile review: piping initialize, four
 * `remember` and three `recall` calls into `jev-mem mcp` and closing stdin at once left the last
 * request unanswered, 3 runs of 3). Every request read before the end is answered before the
 * server resolves — a last line without a newline included — notifications get no answer, and a
 * malformed last line still gets its Parse error. In process over `serveMcpStdio` (the encoder is
 * slow on purpose, so the calls are still running when stdin ends), then through the real
 * command (`printf … | jev-mem mcp`), whose store keeps what it was sent.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { serveMcpStdio } from '../../src/integrations/mcp/stdio.js';
import { createMemory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { exited, ROOT } from '../cli/helpers.js';

const ENTRY = fileURLToPath(new URL('../cli/source-entry.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-mcp-close-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const slowEncoder: Encoder = {
  fingerprint: 'test/slow@1',
  dimension: 4,
  embed: async (texts: string[]) => {
    await new Promise((r) => setTimeout(r, 30));
    return texts.map((t) => new Float32Array([1, t.length % 7, 0.5, 0.25]));
  },
} as unknown as Encoder;

type Reply = { jsonrpc: string; id: string | number | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

const FACTS = ['My dog is called Rex.', 'I live in Porto.', 'Went to the gym.', 'Called my mum.'];
const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
/** initialize, its notification, 4 remember (ids 10-13), `recalls` recall (ids 20…). */
function session(recalls: number): object[] {
  return [
    init,
    initialized,
    ...FACTS.map((text, i) => call(10 + i, 'remember', { text, observedAt: `2024-01-0${i + 1}T00:00:00Z` })),
    ...Array.from({ length: recalls }, (_, j) => call(20 + j, 'recall', { query: 'What is my dog called?', k: 2 })),
  ];
}

/** Serves a fresh memory over in-memory streams, writes `input` in one write, ends stdin at once; the replies once the server has resolved. */
async function serveAndClose(input: string): Promise<Reply[]> {
  const memory = await createMemory({ encoder: slowEncoder });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => (text += d.toString()));
  const served = serveMcpStdio(memory, { version: '0.0.0-test', stdin, stdout });
  stdin.end(input);
  await served;
  await memory.close();
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text === '' ? [] : text.trimEnd().split('\n').map((l) => JSON.parse(l) as Reply);
}

const ids = (replies: Reply[]) => replies.map((r) => r.id);

describe('MCP stdio: stdin closed right after the requests', () => {
  for (const recalls of [1, 3, 6]) {
    it(`answers all ${recalls + 5} requests (${recalls} recall), in arrival order, and none of the notification`, async () => {
      const replies = await serveAndClose(session(recalls).map((l) => JSON.stringify(l) + '\n').join(''));
      // Tool calls run and answer in arrival order (server.ts), so the order is exact.
      expect(ids(replies)).toEqual([1, 10, 11, 12, 13, ...Array.from({ length: recalls }, (_, j) => 20 + j)]);
      expect(replies.every((r) => r.error === undefined && r.result !== undefined)).toBe(true);
      // Each recall ran after the four remembers: 2 of the 4 memories (k = 2).
      for (const r of replies.filter((x) => (x.id as number) >= 20)) expect((r.result?.structuredContent as { memories: unknown[] }).memories).toHaveLength(2);
    });
  }

  it('answers a last request sent without a newline', async () => {
    const lines = session(3).map((l) => JSON.stringify(l));
    const replies = await serveAndClose(lines.join('\n'));
    expect(ids(replies)).toEqual([1, 10, 11, 12, 13, 20, 21, 22]);
    expect(replies[7]?.result?.isError).toBeUndefined();
  });

  it('answers a malformed last line (no newline) with -32700, and the calls before it', async () => {
    const lines = session(1).map((l) => JSON.stringify(l));
    const replies = await serveAndClose(lines.join('\n') + '\n{"jsonrpc":"2.0","id":99,"method":"tools/ca');
    // The parse error is written at once (the guard answers it); the tool calls answer as they finish.
    expect(replies.map((r) => [r.id, r.error?.code ?? 'ok']).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      [1, 'ok'],
      [10, 'ok'],
      [11, 'ok'],
      [12, 'ok'],
      [13, 'ok'],
      [20, 'ok'],
      [null, -32700],
    ]);
    expect(replies.find((r) => r.id === null)?.error?.message).toMatch(/^Parse error: /);
  });

  it('answers nothing to notifications only, and resolves', async () => {
    expect(await serveAndClose(`${JSON.stringify(initialized)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } })}`)).toEqual([]);
  });

  it('on `signal` (SIGTERM in the CLI), with stdin still open: answers the requests read, reads no more', async () => {
    const memory = await createMemory({ encoder: slowEncoder });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (d: Buffer) => (text += d.toString()));
    const stop = new AbortController();
    const served = serveMcpStdio(memory, { version: '0.0.0-test', stdin, stdout, signal: stop.signal });
    const first = new Promise((r) => stdout.once('data', r));
    stdin.write(session(2).map((l) => JSON.stringify(l) + '\n').join(''));
    // The first answer (initialize) shows the server read the write; stop while the calls run.
    await first;
    stop.abort();
    stdin.write(JSON.stringify(call(30, 'remember', { text: 'Sent after the stop.' })) + '\n');
    await served;
    expect(ids(text.trimEnd().split('\n').map((l) => JSON.parse(l) as Reply))).toEqual([1, 10, 11, 12, 13, 20, 21]);
    expect((await memory.list()).memories.map((m) => m.text)).toEqual(FACTS);
    await memory.close();
  });

  it('`jev-mem mcp` with stdin piped and closed: all 8 requests answered, exit 0, the 4 memories stored', async () => {
    const store = join(dir, 'store');
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'mcp', '--store', store, '--namespace', 'me', '--system-one', 'heuristic'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.end(session(3).map((l) => JSON.stringify(l) + '\n').join(''));
    expect(await exited(child), err).toBe(0);
    const replies = out.trimEnd().split('\n').map((l) => JSON.parse(l) as Reply);
    expect(ids(replies)).toEqual([1, 10, 11, 12, 13, 20, 21, 22]);
    const first = (replies[7]?.result?.structuredContent as { memories: Array<{ text: string }> }).memories[0];
    expect(first?.text).toBe('My dog is called Rex.');
    const m = await createNodeMemory({ store, namespace: 'me', systemOne: 'heuristic' });
    try {
      expect((await m.list()).memories.map((x) => x.text)).toEqual(FACTS);
    } finally {
      await m.close();
    }
  }, 60_000);

  it('`jev-mem mcp` on SIGTERM with stdin still open: answers what it read, exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'mcp', '--store', join(dir, 'store-term'), '--namespace', 'me', '--system-one', 'heuristic'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = exited(child);
    child.stdin.write(JSON.stringify(init) + '\n');
    await new Promise((r) => child.stdout.once('data', r));
    child.stdin.write(session(1).slice(2).map((l) => JSON.stringify(l) + '\n').join(''));
    setTimeout(() => child.kill('SIGTERM'), 20);
    // 91c30ab kept reading the open stdin after SIGTERM and never exited (and lost the last answer).
    expect(await Promise.race([code, new Promise((r) => setTimeout(() => r('still running'), 20_000))])).toBe(0);
    child.kill('SIGKILL');
    expect(ids(out.trimEnd().split('\n').map((l) => JSON.parse(l) as Reply))).toEqual([1, 10, 11, 12, 13, 20]);
  }, 60_000);
});
