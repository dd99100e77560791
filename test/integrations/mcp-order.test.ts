/**
 * The MCP server runs tool calls in arrival order (src/integrations/mcp/server.ts): pipelined
 * requests — sent together, before any answer — act as if sent one after another, so a `list`
 * sent after a `remember` sees it. In process, over
 * `serveMcpStdio` with in-memory streams; the encoder is slow on purpose, so without the queue
 * the reads would run before the write commits.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { serveMcpStdio } from '../../src/integrations/mcp/stdio.js';
import { createMemory } from '../../src/memory.js';

const slowEncoder: Encoder = {
  fingerprint: 'test/slow@1',
  dimension: 4,
  embed: async (texts: string[]) => {
    await new Promise((r) => setTimeout(r, 40));
    return texts.map((t) => new Float32Array([1, t.length % 7, 0.5, 0.25]));
  },
} as unknown as Encoder;

describe('MCP stdio: pipelined tool calls', () => {
  it('run in arrival order', async () => {
    const memory = await createMemory({ encoder: slowEncoder });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies = new Map<number, Record<string, unknown>>();
    let buffered = '';
    const want = new Set([2, 3, 4, 5]);
    const all = new Promise<void>((resolve) => {
      stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
          const m = JSON.parse(buffered.slice(0, i)) as { id?: number; result?: Record<string, unknown> };
          buffered = buffered.slice(i + 1);
          if (typeof m.id === 'number' && m.result !== undefined) replies.set(m.id, m.result);
          if ([...want].every((id) => replies.has(id))) resolve();
        }
      });
    });
    const served = serveMcpStdio(memory, { version: '0.0.0-test', stdin, stdout });
    const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call(2, 'remember', { text: 'My dog is called Rex.', observedAt: '2024-01-01T00:00:00Z' }),
      call(3, 'list', {}),
      call(4, 'remember', { text: 'I live in Porto.', observedAt: '2024-01-02T00:00:00Z' }),
      call(5, 'list', {}),
    ];
    // One write: every request is read before the first answer.
    stdin.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await all;
    stdin.end();
    await served;
    const texts = (id: number) => ((replies.get(id)?.structuredContent as { memories: Array<{ text: string }> }).memories ?? []).map((m) => m.text);
    expect(texts(3)).toEqual(['My dog is called Rex.']);
    expect(texts(5)).toEqual(['My dog is called Rex.', 'I live in Porto.']);
    await memory.close();
  });
});
