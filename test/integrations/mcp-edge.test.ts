/**
 * The Worker's MCP endpoint in workerd (issue 23), against the real MCP client: the SDK's
 * `Client` over `StreamableHTTPClientTransport` with the namespace's bearer token lists the tools
 * (answer included: System Two is configured, a local chat server answers), remembers five
 * turns, recalls the right one first, answers, updates, forgets and lists. Wrong tokens, other
 * namespaces and other methods are refused as the HTTP API refuses them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { buildEdgeBundle, call, startEdge, type EdgeBundle, type RunningEdge } from '../edge/harness.js';
import { FIVE_TURNS, QUESTIONS } from './turns.js';

const TOKEN = 'me-token';
let bundle: EdgeBundle;
let edge: RunningEdge;
let chat: ChatServer;

beforeAll(async () => {
  bundle = buildEdgeBundle();
  chat = await startChatServer({ reply: () => 'Biscuit is a beagle.' });
  edge = await startEdge(bundle, {
    bindings: {
      JEV_MEM_TOKENS: JSON.stringify({ me: TOKEN }),
      JEV_MEM_SYSTEM_ONE: 'heuristic',
      JEV_MEM_LLM_BASE_URL: chat.url.replace(/\/chat\/completions$/, ''),
      JEV_MEM_LLM_MODEL: 'test-model',
      JEV_MEM_CORS_ORIGINS: 'https://app.example',
    },
  });
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  await chat?.close();
  bundle?.remove();
});

type Structured = Record<string, unknown> & { memories?: Array<Record<string, unknown>> };

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: Structured; text: string }> {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, data: (r.structuredContent ?? {}) as Structured, text: (r.content as Array<{ text: string }>)[0]?.text ?? '' };
}

describe('the Worker MCP endpoint, with the MCP SDK client over Streamable HTTP', () => {
  it('serves the memory tools of its namespace', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('/v1/namespaces/me/mcp', edge.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    const client = new Client({ name: 'jev-mem-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'jev-mem', version: '1.1.0' });
      expect(client.getInstructions()).toMatch(/^Long-term memory/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['remember', 'recall', 'answer', 'update', 'forget', 'list', 'history']);

      const ids: string[] = [];
      for (const turn of FIVE_TURNS) ids.push((await tool(client, 'remember', { ...turn })).data.id as string);
      expect(new Set(ids).size).toBe(5);
      for (const q of QUESTIONS) {
        const r = await tool(client, 'recall', { query: q.query, k: 3 });
        expect(r.data.memories?.[0]?.id, q.query).toBe(ids[q.turn]);
        expect((r.data.trace as { stopReason?: unknown }).stopReason).toEqual(expect.any(String));
      }

      const a = await tool(client, 'answer', { query: 'What breed is my dog Biscuit?', k: 3 });
      expect(a.isError).toBe(false);
      expect(a.data).toMatchObject({ answer: 'Biscuit is a beagle.', model: 'test-model-2024' });
      expect(a.data.memories?.[0]?.id).toBe(ids[0]);
      // The memories went into System Two's prompt.
      expect(JSON.stringify(chat.requests.at(-1)?.body)).toContain('three-year-old beagle');

      const up = await tool(client, 'update', { id: ids[0], text: 'My dog Biscuit is a four-year-old beagle now.' });
      expect(up.data.replaces).toBe(ids[0]);
      const after = await tool(client, 'recall', { query: 'How old is my dog Biscuit?', k: 5 });
      expect(after.data.memories?.[0]?.id).toBe(up.data.id);
      expect(after.data.memories?.find((m) => m.id === ids[0])?.status).toBe('superseded');

      expect((await tool(client, 'forget', { id: ids[4] })).data).toEqual({ deleted: true, id: ids[4], erased: [ids[4]], count: 1 });
      const again = await tool(client, 'forget', { id: ids[4] });
      expect([again.isError, again.text.startsWith('NOT_FOUND: ')]).toEqual([true, true]);

      const all = await tool(client, 'list', { limit: 100 });
      expect(all.data.memories?.map((m) => m.id)).toEqual([...ids.slice(0, 4), up.data.id]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('honours userId / agentId on update, forget, history and list: another user\'s memory is NOT_FOUND, as an unknown id', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('/v1/namespaces/me/mcp', edge.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    const client = new Client({ name: 'jev-mem-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const alice = (await tool(client, 'remember', { text: 'My passport number is X1234567.', userId: 'alice-mcp' })).data.id as string;
      const bob = (await tool(client, 'remember', { text: 'My bank PIN is 4321.', userId: 'bob-mcp', agentId: 'helper' })).data.id as string;
      for (const [name, args] of [
        ['update', { id: bob, text: 'My bank PIN is 0000.', userId: 'alice-mcp' }],
        ['forget', { id: bob, userId: 'alice-mcp' }],
        ['history', { id: bob, userId: 'alice-mcp' }],
        ['forget', { id: bob, userId: 'bob-mcp', agentId: 'other' }],
      ] as const) {
        const r = await tool(client, name, args);
        expect([name, r.isError, r.text.split(bob).join('ID')]).toEqual([name, true, (await tool(client, name, { ...args, id: 'nope' })).text.split('nope').join('ID')]);
        expect(r.text.startsWith('NOT_FOUND: ')).toBe(true);
      }
      expect((await tool(client, 'list', { userId: 'alice-mcp' })).data.memories?.map((m) => m.id)).toEqual([alice]);
      expect((await tool(client, 'history', { id: bob, userId: 'bob-mcp' })).data.versions).toHaveLength(1);
      expect((await tool(client, 'forget', { id: bob, userId: 'bob-mcp', agentId: 'helper' })).data).toEqual({ deleted: true, id: bob, erased: [bob], count: 1 });
      // A NUL-bearing scope is refused naming the argument.
      const nul = await tool(client, 'list', { userId: 'alice\u0000' });
      expect([nul.isError, nul.text]).toEqual([true, 'INVALID_INPUT: userId: contains a control character (U+0000); give an id without one']);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses a missing or wrong token, another namespace and methods other than POST', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    expect((await call(edge, 'POST', '/v1/namespaces/me/mcp', { body: init })).status).toBe(401);
    expect((await call(edge, 'POST', '/v1/namespaces/me/mcp', { body: init, token: 'nope' })).status).toBe(401);
    // The token of "me" is not valid for "you".
    expect((await call(edge, 'POST', '/v1/namespaces/you/mcp', { body: init, token: TOKEN })).json.error.code).toBe('UNAUTHORIZED');
    const get = await call(edge, 'GET', '/v1/namespaces/me/mcp', { token: TOKEN });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const ok = await call(edge, 'POST', '/v1/namespaces/me/mcp', { body: init, token: TOKEN, headers: { origin: 'https://app.example' } });
    expect(ok.json.result.protocolVersion).toBe('2025-06-18');
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    // A browser's preflight from an allowed origin gets the grant; another origin gets none.
    const pre = await call(edge, 'OPTIONS', '/v1/namespaces/me/mcp', { headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect([pre.status, pre.headers.get('access-control-allow-origin'), pre.headers.get('access-control-allow-headers')]).toEqual([204, 'https://app.example', 'authorization, content-type, mcp-protocol-version']);
    const other = await call(edge, 'OPTIONS', '/v1/namespaces/me/mcp', { headers: { origin: 'https://evil.example' } });
    expect([other.status, other.headers.get('access-control-allow-origin')]).toEqual([204, null]);
    // Not JSON: a JSON-RPC parse error; an unknown method: -32601; a notification: 202.
    expect((await call(edge, 'POST', '/v1/namespaces/me/mcp', { rawBody: '{', token: TOKEN, headers: { 'content-type': 'application/json' } })).json.error.code).toBe(-32700);
    expect((await call(edge, 'POST', '/v1/namespaces/me/mcp', { body: { jsonrpc: '2.0', id: 2, method: 'resources/list' }, token: TOKEN })).json.error.code).toBe(-32601);
    expect((await call(edge, 'POST', '/v1/namespaces/me/mcp', { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, token: TOKEN })).status).toBe(202);
  }, 30_000);
});
