/**
 * The Worker's MCP endpoint and the stdio server agree (h-break12 finding 7): a JSON-RPC batch
 * array (removed by MCP 2025-06-18) is one -32600 Invalid Request, and `tools/call` with
 * `arguments: null` is -32602 Invalid params; neither opens the memory.
 */
import { describe, expect, it } from 'vitest';
import { answerMcp } from '../../src/edge/mcp.js';
import type { EdgeConfig } from '../../src/edge/env.js';

const noMemory = async (): Promise<never> => {
  throw new Error('the memory must not be opened');
};

describe('Worker /mcp', () => {
  it('refuses a batch array with -32600 (HTTP 400), as the stdio server does', async () => {
    const r = await answerMcp(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), 'ns', noMemory, {} as EdgeConfig);
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: a batch array; MCP 2025-06-18 removed JSON-RPC batching, send one message a request' } });
  });

  it('answers tools/call with arguments null -32602 with the id', async () => {
    const r = await answerMcp(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'recall', arguments: null } }), 'ns', noMemory, {} as EdgeConfig);
    expect(await r.json()).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'invalid params: tools/call arguments must be an object (or absent)' } });
  });
});
