/**
 * `jev-mem mcp`: the MCP server over stdio (JSON-RPC lines on stdin and stdout), for Claude
 * Desktop, Cursor and any MCP client that spawns a command. Nothing but MCP messages goes to
 * stdout; diagnostics go to stderr.
 *
 * `@modelcontextprotocol/sdk` is an optional peer of jev-mem (so `npm i jev-mem` stays small):
 * it is imported here on first use; absent, {@link serveMcpStdio} throws `DEPENDENCY_MISSING`
 * with the install line.
 *
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { Memory } from '../../memory.js';
import { importOptional } from '../../util/optional.js';
import { memoryTools, type MemoryToolsOptions } from '../tools.js';
import { guardJsonRpcLines } from './lines.js';
import { createMcpServer, type McpSdk } from './server.js';

const PKG = '@modelcontextprotocol/sdk';
const FEATURE = 'the MCP server (jev-mem mcp, jev-mem/mcp)';

/** Loads the SDK modules the server needs. @throws JevMemError `DEPENDENCY_MISSING` (details `package`). */
export async function loadMcpSdk(): Promise<
  McpSdk & {
    StdioServerTransport: typeof import('@modelcontextprotocol/sdk/server/stdio.js').StdioServerTransport;
    JSONRPCMessageSchema: typeof import('@modelcontextprotocol/sdk/types.js').JSONRPCMessageSchema;
  }
> {
  const [server, types, stdio] = await Promise.all([
    importOptional<typeof import('@modelcontextprotocol/sdk/server/index.js')>(PKG, `${PKG}/server/index.js`, FEATURE),
    importOptional<typeof import('@modelcontextprotocol/sdk/types.js')>(PKG, `${PKG}/types.js`, FEATURE),
    importOptional<typeof import('@modelcontextprotocol/sdk/server/stdio.js')>(PKG, `${PKG}/server/stdio.js`, FEATURE),
  ]);
  return {
    Server: server.Server,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    StdioServerTransport: stdio.StdioServerTransport,
    JSONRPCMessageSchema: types.JSONRPCMessageSchema,
  };
}

/** Options of {@link serveMcpStdio}. */
export interface McpStdioOptions extends MemoryToolsOptions {
  /** The server version reported to clients. */
  version: string;
  /** @default process.stdin */
  stdin?: Readable;
  /** @default process.stdout */
  stdout?: Writable;
  /** Ends the server (as the end of stdin does), e.g. on SIGTERM. */
  signal?: AbortSignal;
}

/**
 * Serves `memory`'s tools over stdio until stdin ends (the client closed) or `signal` fires; then
 * waits for the tool calls still running and resolves. The memory stays open (the caller closes it).
 * A line that is not JSON is answered with the JSON-RPC 2.0 Parse error (`-32700`, `id: null`),
 * JSON that is not a JSON-RPC message with Invalid Request (`-32600`; lines.ts).
 * @throws JevMemError `DEPENDENCY_MISSING` when `@modelcontextprotocol/sdk` is not installed.
 */
export async function serveMcpStdio(memory: Memory, options: McpStdioOptions): Promise<void> {
  const sdk = await loadMcpSdk();
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const tools = memoryTools(options);
  const { server, idle } = createMcpServer(sdk, memory, tools, options.version);
  // The SDK's transport drops a line that is not a JSON-RPC message without an answer: such lines
  // are answered here (-32700 Parse error / -32600 Invalid Request, lines.ts) and never reach it.
  let transport: InstanceType<typeof sdk.StdioServerTransport> | undefined;
  const lines = guardJsonRpcLines(stdin, {
    isMessage: (v) => sdk.JSONRPCMessageSchema.safeParse(v).success,
    reply: (response) => void transport?.send(response as unknown as Parameters<typeof transport.send>[0]),
  });
  transport = new sdk.StdioServerTransport(lines, stdout);
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    transport.onclose = () => resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await ended;
  await idle();
  await server.close();
}
