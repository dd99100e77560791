/**
 * h-break10 (MCP small points): a `tools/call` of a tool the server does not have is a protocol
 * error, JSON-RPC -32602 (Invalid params), as the MCP specification's server/tools "Error
 * Handling" says for unknown tools (its example: `{"code": -32602, "message": "Unknown tool:
 * invalid_tool_name"}`), not a tool result with `isError`. A bad argument of a known tool stays a
 * tool result (`isError: true`), which the model reads and corrects. In process, over
 * `serveMcpStdio` with in-memory streams, as a client sends the lines.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { serveMcpStdio } from '../../src/integrations/mcp/stdio.js';
import { createMemory } from '../../src/memory.js';

const encoder: Encoder = {
  fingerprint: 'test/tiny@1',
  dimension: 4,
  embed: async (texts: string[]) => texts.map((t) => new Float32Array([1, t.length % 7, 0.5, 0.25])),
} as unknown as Encoder;

describe('MCP: a call of an unknown tool', () => {
  it('is JSON-RPC error -32602 naming the tool and the tools there are; a bad argument stays a tool error', async () => {
    const memory = await createMemory({ encoder });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies = new Map<number, Record<string, unknown>>();
    let buffered = '';
    const all = new Promise<void>((resolve) => {
      stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
          const m = JSON.parse(buffered.slice(0, i)) as Record<string, unknown> & { id?: number };
          buffered = buffered.slice(i + 1);
          if (typeof m.id === 'number') replies.set(m.id, m);
          if ([2, 3].every((id) => replies.has(id))) resolve();
        }
      });
    });
    const served = serveMcpStdio(memory, { version: '0.0.0-test', stdin, stdout });
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'rememberr', arguments: { text: 'My dog is called Rex.' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'recall', arguments: { query: 'dog', k: 0 } } },
    ];
    stdin.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await all;
    stdin.end();
    await served;
    expect(replies.get(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'Unknown tool: "rememberr"; tools: remember, recall, update, forget, list, history' },
    });
    expect(replies.get(3)?.error).toBeUndefined();
    expect(replies.get(3)?.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^INVALID_INPUT: k: /) }] });
    expect((await memory.list()).memories).toEqual([]);
    await memory.close();
  });
});
