/**
 * The Worker's MCP endpoint (issue 23): the memory tools of src/integrations/tools.ts — the same
 * definitions `jev-mem mcp` serves over stdio — over MCP's Streamable HTTP transport, one
 * endpoint per namespace:
 *
 * | method and path | answer |
 * |---|---|
 * | `POST /v1/namespaces/:ns/mcp` | JSON-RPC 2.0 (a message or a batch): 200 `application/json` with the responses, 202 when it held only notifications |
 * | `GET`, `DELETE` on it | 405 with `Allow: POST` (no server-initiated stream, no sessions) |
 * | `OPTIONS` on it | 204; the CORS preflight grant for an origin in `JEV_MEM_CORS_ORIGINS`, as the HTTP API's |
 *
 * Auth is the HTTP API's: `Authorization: Bearer <token>` valid for the namespace
 * (`JEV_MEM_TOKENS[ns]` or `JEV_MEM_TOKEN`), 401 otherwise. A token bound to a scope (`{token,
 * userId, agentId?}`) ties every tool to it (`memoryTools({ scope })`, tool-scope.ts): a tool
 * argument naming another `userId` / `agentId` is a tool error; the body limit is
 * `JEV_MEM_MAX_BODY_BYTES`. The server is stateless (no `Mcp-Session-Id`): every POST is
 * answered on its own, which is what a Worker in front of per-namespace Durable Objects wants.
 * Methods: `initialize`, `ping`, `tools/list`, `tools/call`; others answer JSON-RPC -32601.
 *
 * Why not the SDK's server transport here: `@modelcontextprotocol/sdk` brings Ajv and zod, whose
 * code builds functions from strings (`new Function`), which the Worker bundle may not contain
 * (SPEC 9; test/edge/bundle.test.ts). The protocol surface a tools-only stateless server needs
 * is the small JSON-RPC exchange below; test/integrations/mcp-edge.test.ts checks it against the
 * SDK's own `Client` over `StreamableHTTPClientTransport` in workerd. Node (`jev-mem mcp`) uses
 * the SDK (src/integrations/mcp/stdio.ts).
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import type { Memory } from '../memory.js';
import { MCP_INSTRUCTIONS } from '../integrations/mcp/server.js';
import { memoryTools, type MemoryTool } from '../integrations/tools.js';
import type { BoundScope, EdgeConfig, EdgeEnv } from './env.js';
import { authenticate, checkNamespace, configOf, corsHeaders, errorResponse, jsonResponse, OPERATION_URL, readBody, unauthorized, type DurableObjectNamespaceLike } from './http.js';

/** The path of a namespace's MCP endpoint; group 1 is the namespace segment. */
export const MCP_PATH = /^\/v1\/namespaces\/([^/]+)\/mcp\/?$/;
/** Header on the front's request to the Durable Object that marks an MCP exchange and names its namespace. */
export const MCP_NAMESPACE_HEADER = 'x-jev-mem-mcp-namespace';
/**
 * Header on the front's request to the Durable Object with the scope of a bound token
 * (URI-encoded JSON `{userId, agentId?}`): the tools are tied to it (`memoryTools({ scope })`).
 * Only the front sets it: the object is reachable through the front alone, which builds its
 * request afresh, so a client's own header never reaches the object.
 */
export const MCP_SCOPE_HEADER = 'x-jev-mem-mcp-scope';
/** MCP protocol revisions this endpoint speaks, newest first (the SDK client's list). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** `serverInfo.version` of the endpoint: the version of the tool set (names, arguments, results). */
export const MCP_TOOLSET_VERSION = '1.1.0';

type Handler = { fetch(request: Request, env: EdgeEnv): Promise<Response> };

/**
 * Adds the MCP endpoint in front of the HTTP API's handler: requests to
 * `/v1/namespaces/:ns/mcp` are checked here (method, namespace, token, body size) and sent to the
 * namespace's Durable Object; every other request goes to `handler`.
 * @param options.binding - the Durable Object binding of the memory objects. @default 'JEV_MEM'
 */
export function withMcp(handler: Handler, options: { binding?: string; log?: (message: string, error: unknown) => void } = {}): Handler {
  const bindingName = options.binding ?? 'JEV_MEM';
  return {
    async fetch(request, env) {
      const m = MCP_PATH.exec(new URL(request.url).pathname);
      if (m === null) return handler.fetch(request, env);
      const cors = corsHeaders(request, env);
      const response = await answer(request, env, m[1] as string, cors);
      for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
      return response;
    },
  };

  /** The endpoint's answer, before the CORS headers. */
  async function answer(request: Request, env: EdgeEnv, segment: string, cors: Record<string, string>): Promise<Response> {
    try {
      if (request.method === 'OPTIONS') {
        configOf(env); // a broken configuration answers its error to a preflight too
        const grant: Record<string, string> = 'access-control-allow-origin' in cors ? { 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version', 'access-control-max-age': '86400' } : {};
        return new Response(null, { status: 204, headers: { allow: 'POST, OPTIONS', ...grant } });
      }
      if (request.method !== 'POST') {
        return jsonResponse(405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on the MCP endpoint: it is stateless and answers POST only` } }, { allow: 'POST' });
      }
      const config = configOf(env);
      const namespace = checkNamespace(segment);
      const caller = await authenticate(request, config, namespace);
      if (caller === undefined) return unauthorized(request, config, namespace);
      const body = await readBody(request, config.maxBodyBytes);
      const binding = env[bindingName] as DurableObjectNamespaceLike | undefined;
      if (binding === undefined || typeof binding.idFromName !== 'function') {
        throw new JevMemError('INVALID_OPTION', `the Worker has no Durable Object binding ${bindingName}; declare it in wrangler.toml [[durable_objects.bindings]]`, { field: 'binding', httpStatus: 500 });
      }
      const stub = binding.get(binding.idFromName(namespace) as never);
      const headers: Record<string, string> = { 'content-type': 'application/json', [MCP_NAMESPACE_HEADER]: namespace };
      if (caller.scope !== undefined) headers[MCP_SCOPE_HEADER] = encodeURIComponent(JSON.stringify(caller.scope));
      const got = await stub.fetch(new Request(OPERATION_URL, { method: 'POST', headers, body }));
      return new Response(got.body, { status: got.status, headers: new Headers(got.headers) });
    } catch (e) {
      return errorResponse(e, options.log);
    }
  }
}

type JsonRpcId = string | number | null;
type JsonRpcResponse = { jsonrpc: '2.0'; id: JsonRpcId; result: unknown } | { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string } };

const rpcError = (id: JsonRpcId, code: number, message: string): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } });

/**
 * The bound scope the front put on an MCP request ({@link MCP_SCOPE_HEADER}), or undefined.
 * @throws JevMemError `INVALID_INPUT` (field `scope`) when the header is not URI-encoded JSON.
 */
export function mcpScopeOf(request: Request): Readonly<BoundScope> | undefined {
  const raw = request.headers.get(MCP_SCOPE_HEADER);
  if (raw === null) return undefined;
  try {
    return JSON.parse(decodeURIComponent(raw)) as BoundScope;
  } catch {
    throw new JevMemError('INVALID_INPUT', `scope: the ${MCP_SCOPE_HEADER} header is not URI-encoded JSON`, { field: 'scope' });
  }
}

/**
 * Answers one MCP POST body inside the namespace's Durable Object.
 * @param memoryFor - the object's memory of a namespace.
 * @param config - the Worker's configuration (System Two configured → the `answer` tool).
 * @param scope - a bound token's scope: every tool acts inside it (`memoryTools({ scope })`), and
 *   a tool argument naming another `userId` / `agentId` is a tool error (`INVALID_INPUT` naming it).
 */
export async function answerMcp(body: string, namespace: string, memoryFor: (namespace: string) => Promise<Memory>, config: EdgeConfig, log?: (message: string, error: unknown) => void, scope?: Readonly<BoundScope>): Promise<Response> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    return jsonResponse(400, rpcError(null, -32700, `parse error: ${e instanceof Error ? e.message : String(e)}`));
  }
  const tools = memoryTools({ answer: config.systemTwo !== undefined, source: 'mcp', ...(scope !== undefined ? { scope: { ...scope } } : {}) });
  // MCP 2025-06-18 removed JSON-RPC batching: a batch array is one Invalid Request, as on stdio.
  if (Array.isArray(parsed)) return jsonResponse(400, rpcError(null, -32600, 'invalid request: a batch array; MCP 2025-06-18 removed JSON-RPC batching, send one message a request'));
  const r = await answerMessage(parsed, tools, () => memoryFor(namespace), log);
  if (r === undefined) return new Response(null, { status: 202 });
  return jsonResponse(200, r);
}

async function answerMessage(message: unknown, tools: readonly MemoryTool[], memory: () => Promise<Memory>, log?: (message: string, error: unknown) => void): Promise<JsonRpcResponse | undefined> {
  if (message === null || typeof message !== 'object' || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return rpcError(null, -32600, 'invalid request: expected a JSON-RPC 2.0 message');
  const m = message as { id?: unknown; method?: unknown; params?: unknown };
  // Notifications (no id) and responses (no method) need no answer.
  if (m.id === undefined || typeof m.method !== 'string') return undefined;
  if (typeof m.id !== 'string' && typeof m.id !== 'number') return rpcError(null, -32600, 'invalid request: id must be a string or a number');
  const id = m.id;
  const params = (m.params !== null && typeof m.params === 'object' ? m.params : {}) as Record<string, unknown>;
  switch (m.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const protocolVersion = (MCP_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? (asked as string) : MCP_PROTOCOL_VERSIONS[0];
      return {
        jsonrpc: '2.0',
        id,
        result: { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'jev-mem', title: 'jev-mem memory', version: MCP_TOOLSET_VERSION }, instructions: MCP_INSTRUCTIONS },
      };
    }
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: { title: t.title, ...t.annotations } })) } };
    case 'tools/call': {
      const tool = tools.find((t) => t.name === params.name);
      if (tool === undefined) return rpcError(id, -32602, `unknown tool ${JSON.stringify(params.name)}; tools: ${tools.map((t) => t.name).join(', ')}`);
      try {
        if (params.arguments === null || (params.arguments !== undefined && (typeof params.arguments !== 'object' || Array.isArray(params.arguments)))) {
          return rpcError(id, -32602, 'invalid params: tools/call arguments must be an object (or absent)');
        }
        const result = await tool.run(await memory(), params.arguments ?? {});
        return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result } };
      } catch (e) {
        if (isJevMemError(e) && !isServerFault(e)) return { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] } };
        (log ?? ((msg: string) => console.error(msg)))(`jev-mem mcp: tools/call ${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`, e);
        return rpcError(id, -32603, isJevMemError(e) ? `${e.code}: ${e.message}` : 'internal error; see the Worker logs');
      }
    }
    default:
      return rpcError(id, -32601, `method not found: ${m.method}`);
  }
}

/** Errors of the deployment, not of the call (bad Worker variables): a protocol error, logged. */
function isServerFault(e: JevMemError): boolean {
  return e.details.httpStatus === 500;
}
