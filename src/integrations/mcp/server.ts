/**
 * The MCP server of jev-mem (Model Context Protocol, tools only): the shared memory tools
 * (../tools.ts) served by the official TypeScript SDK's low-level `Server`, for any transport —
 * stdio in `jev-mem mcp` (stdio.ts), Streamable HTTP in the Cloudflare Worker (src/edge/mcp.ts).
 *
 * It uses the SDK's low-level `Server` (the SDK marks it "for advanced use cases", pointing to
 * `McpServer`): `McpServer.registerTool` takes zod schemas, while the tools are defined once as
 * JSON Schemas for three runtimes (this server, the Worker's endpoint and the AI SDK), and the
 * Worker may not bundle zod (it builds functions from strings).
 *
 * The SDK is passed in rather than imported here: Node loads it lazily as an optional peer
 * (DEPENDENCY_MISSING when absent), the Worker imports it statically so wrangler bundles it.
 *
 * @module
 */
import { isJevMemError } from '../../errors.js';
import type { Memory } from '../../memory.js';
import type { MemoryTool } from '../tools.js';

/** The parts of `@modelcontextprotocol/sdk` the server uses (`server/index.js` and `types.js`). */
export interface McpSdk {
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
  ListToolsRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListToolsRequestSchema;
  CallToolRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema;
}

/** A server made by {@link createMcpServer}, with the tool calls still running. */
export interface JevMemMcpServer {
  server: InstanceType<McpSdk['Server']>;
  /** Resolves once every tool call started so far has finished (before closing the memory). */
  idle(): Promise<void>;
}

/** JSON-RPC "Invalid params", the MCP error of a call of an unknown tool. */
export const INVALID_PARAMS = -32602;

/** What the server tells a client about itself (MCP `instructions`). */
export const MCP_INSTRUCTIONS =
  'Long-term memory of the user across conversations (jev-mem). Call recall before answering anything that may depend on what the user said before; ' +
  'call remember when the user tells you something worth keeping (facts about them, preferences, plans, events); use update to correct a memory and forget to delete one on request; ' +
  'list pages through everything stored and history shows the versions of one memory. recall and list take a metadata filter and userId/agentId/sessionId to select memories; ' +
  'recall results are ordered by score (in [0,1]; minScore cuts on it) and carry relevance, the memory-control model\'s own calibrated estimate that the memory answers the query.';

/**
 * Makes an MCP server whose tools run over `memory`.
 * @param sdk - the SDK modules (see {@link McpSdk}).
 * @param tools - from `memoryTools()`.
 * @param version - the server version reported at initialisation (jev-mem's).
 * Tool errors that are JevMemErrors (bad argument, unknown id, System Two failing) are returned
 * to the model as tool results with `isError: true` and `CODE: message`, so it can correct the
 * call; other errors are protocol errors, a call of an unknown tool JSON-RPC error -32602
 * ({@link INVALID_PARAMS}) as the MCP specification says.
 *
 * Tool calls run one at a time, in the order they arrive (the SDK starts a handler for each
 * request as it is read, so pipelined requests would otherwise run at once): a `recall` sent
 * after a `remember` sees it, and a `forget` sent before a `list` is done when the list runs.
 * The tools act on one memory and its default namespace, so this order is the per-namespace one.
 * `tools/list` and other requests are not queued.
 */
export function createMcpServer(sdk: McpSdk, memory: Memory, tools: readonly MemoryTool[], version: string): JevMemMcpServer {
  const server = new sdk.Server({ name: 'jev-mem', title: 'jev-mem memory', version }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  const running = new Set<Promise<unknown>>();
  // The queue of tool calls: each starts when the one before it has settled.
  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: { title: t.title, ...t.annotations } })),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (tool === undefined) {
      // A protocol error, not a tool result (MCP specification, server/tools "Error Handling":
      // unknown tools are JSON-RPC errors, -32602 Invalid params). The SDK answers a handler's
      // error with its numeric `code`.
      throw Object.assign(new Error(`Unknown tool: ${JSON.stringify(request.params.name)}; tools: ${tools.map((t) => t.name).join(', ')}`), { code: INVALID_PARAMS });
    }
    // Queued at once, before any await, so calls keep their arrival order. A run that throws
    // before its first await (an unknown argument) is a tool error too.
    const call = queue.then(async () => tool.run(memory, request.params.arguments ?? {}));
    queue = call.catch(() => undefined);
    running.add(call);
    try {
      const result = await call;
      return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
    } catch (e) {
      if (!isJevMemError(e)) throw e;
      return { isError: true, content: [{ type: 'text' as const, text: `${e.code}: ${e.message}` }] };
    } finally {
      running.delete(call);
    }
  });
  return {
    server,
    idle: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
