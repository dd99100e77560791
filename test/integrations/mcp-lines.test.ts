/**
 * The line guard before the MCP SDK's stdio transport (src/integrations/mcp/lines.ts), in
 * process: which lines pass on unchanged and which are answered, with a line split across chunks,
 * CRLF, a last line without a newline, a line over the limit (discarded up to its newline), and an
 * input destroyed without an end.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardJsonRpcLines, type JsonRpcErrorResponse } from '../../src/integrations/mcp/lines.js';

async function run(chunks: string[], maxLineBytes?: number): Promise<{ passed: string; replies: JsonRpcErrorResponse[] }> {
  const input = new PassThrough();
  const replies: JsonRpcErrorResponse[] = [];
  const isMessage = (v: unknown): boolean => typeof v === 'object' && v !== null && (v as { jsonrpc?: unknown }).jsonrpc === '2.0';
  const out = guardJsonRpcLines(input, { isMessage, reply: (r) => replies.push(r), ...(maxLineBytes !== undefined ? { maxLineBytes } : {}) });
  let passed = '';
  out.on('data', (d: Buffer) => (passed += d.toString()));
  const ended = new Promise((resolve) => out.on('end', resolve));
  for (const c of chunks) input.write(c);
  input.end();
  await ended;
  return { passed, replies };
}

describe('guardJsonRpcLines', () => {
  it('passes messages on (one split across chunks, one with CRLF, the last without a newline) and answers the rest', async () => {
    const { passed, replies } = await run(['{"jsonrpc":"2.0","id":1,', '"method":"ping"}\n{oops\r\n', '\n  \n[1,2]\n{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n{"id":"a"}\n{"jsonrpc":"2.0","id":3,"method":"x"}']);
    expect(passed).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n{"jsonrpc":"2.0","id":3,"method":"x"}\n');
    expect(replies.map((r) => [r.id, r.error.code])).toEqual([
      [null, -32700],
      [null, -32600],
      ['a', -32600],
    ]);
    expect(replies[0]?.error.message).toMatch(/^Parse error: /);
  });

  it('answers a line over the limit with -32700 and reads the next line', async () => {
    const { passed, replies } = await run(['{"jsonrpc":"2.0","method":"', 'x'.repeat(40), '"}\n{"jsonrpc":"2.0","id":1,"method":"y"}\n'], 40);
    expect(passed).toBe('{"jsonrpc":"2.0","id":1,"method":"y"}\n');
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line longer than 40 bytes' } }]);
  });

  it('answers a line over the limit with the id it opens with (h-break12 finding 7), else id null', async () => {
    const big = (open: string): string => `${open}"params":{"name":"remember","arguments":{"text":"${'x'.repeat(80)}"}}}\n`;
    const { replies } = await run([big('{"jsonrpc":"2.0","id":7,'), big('{"method":"tools/call","id":"req-8",'), big('{"params":{"id":9},')], 60);
    expect(replies.map((r) => [r.id, r.error.code])).toEqual([
      [7, -32700],
      ['req-8', -32700],
      [null, -32700],
    ]);
  });

  it('answers tools/call with null or non-object arguments -32602 in one line, and a batch array -32600 naming batching', async () => {
    const { passed, replies } = await run([
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"recall","arguments":null}}\n',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recall","arguments":[1]}}\n',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"recall","arguments":{"query":"q"}}}\n',
      '[{"jsonrpc":"2.0","id":4,"method":"ping"}]\n',
    ]);
    expect(passed).toBe('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"recall","arguments":{"query":"q"}}}\n');
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params: tools/call arguments must be an object (or absent), got null' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params: tools/call arguments must be an object (or absent), got an array' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response (a batch array: MCP 2025-06-18 removed JSON-RPC batching; send one message a line)' } },
    ]);
  });

  it('ends when the input is destroyed without an end, after passing its last line on', async () => {
    const input = new PassThrough();
    const out = guardJsonRpcLines(input, { isMessage: () => true, reply: () => undefined });
    let passed = '';
    out.on('data', (d: Buffer) => (passed += d.toString()));
    const ended = new Promise((resolve) => out.on('end', () => resolve('ended')));
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await new Promise((r) => setImmediate(r));
    input.destroy();
    expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r('still open'), 1000))])).toBe('ended');
    expect(passed).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
  });
});
