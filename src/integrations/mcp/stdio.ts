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
 * answers every request read before that — a last line without a newline included — waits for
 * the tool calls still running, and resolves. After `signal` no more input is read. The memory
 * stays open (the caller closes it).
 * A line that is not JSON is answered with the JSON-RPC 2.0 Parse error (`-32700`, `id: null`),
 * JSON that is not a JSON-RPC message with Invalid Request (`-32600`; lines.ts). Notifications
 * get no answer, nor does a request the client cancelled (`notifications/cancelled`).
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
  const answers = trackAnswers(transport, stdout);
  // The input is done once the guard has passed its last line to the transport (`end` of
  // `lines`, after the end of stdin), not at the end of stdin itself: the guard sends a last line
  // without a newline only then.
  const inputDone = new Promise<void>((resolve) => {
    lines.once('end', resolve);
    lines.once('close', resolve);
    lines.once('error', () => resolve());
    options.signal?.addEventListener(
      'abort',
      () => {
        stdin.pause();
        resolve();
      },
      { once: true },
    );
    if (options.signal?.aborted === true) resolve();
  });
  await server.connect(transport);
  await inputDone;
  // Closing the server aborts the SDK's request handlers, whose answers are then never sent: the
  // requests read so far are answered first (a tool call's answer is written a few promise turns
  // after its run settles, so the tool queue alone, idle(), is not enough).
  await answers.settled();
  await idle();
  await server.close();
}

/** The requests a transport has received and not yet answered, for {@link serveMcpStdio}. */
interface AnswerTracker {
  /** Resolves once every request received so far is answered (its response written), or the transport closed. */
  settled(): Promise<void>;
}

type JsonRpcId = string | number;

function requestIdOf(message: unknown): JsonRpcId | undefined {
  const m = message as { id?: unknown; method?: unknown };
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined;
}

function responseIdOf(message: unknown): JsonRpcId | undefined {
  const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  if (m.method !== undefined || (m.result === undefined && m.error === undefined)) return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}

/**
 * Counts the requests (messages with a `method` and an `id`) `transport` hands on and the
 * responses it writes. Set before `server.connect`, which keeps these handlers and calls them
 * before its own. A request cancelled by `notifications/cancelled` is not waited for (the SDK
 * sends no answer to it); nor is anything once the transport or `stdout` has closed (a write
 * to a closed pipe never drains).
 */
function trackAnswers(
  transport: {
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  onclose?: (() => void) | undefined;
    send(message: never, options?: never): Promise<void>;
  },
  stdout: Writable,
): AnswerTracker {
  const open = new Map<JsonRpcId, number>(); // id → requests with it not yet answered
  const writes = new Set<Promise<void>>();
  let closed = false;
  let wake: (() => void) | undefined;
  const check = (): void => {
    if (wake !== undefined && (closed || (open.size === 0 && writes.size === 0))) wake();
  };
  const done = (id: JsonRpcId): void => {
    const n = open.get(id);
    if (n === undefined) return;
    if (n > 1) open.set(id, n - 1);
    else open.delete(id);
  };
  transport.onmessage = (message: unknown) => {
    const id = requestIdOf(message);
    if (id !== undefined) open.set(id, (open.get(id) ?? 0) + 1);
    const m = message as { method?: unknown; params?: { requestId?: unknown } };
    const cancelled = m.params?.requestId;
    if (m.method === 'notifications/cancelled' && (typeof cancelled === 'string' || typeof cancelled === 'number')) {
      open.delete(cancelled);
      check();
    }
  };
  const close = (): void => {
    closed = true;
    check();
  };
  transport.onclose = close;
  stdout.once('close', close);
  const send = transport.send.bind(transport) as (message: unknown, options?: unknown) => Promise<void>;
  transport.send = ((message: unknown, options?: unknown) => {
    const write = send(message, options);
    const id = responseIdOf(message);
    const tracked = write.finally(() => {
      writes.delete(tracked);
      if (id !== undefined) done(id);
      check();
    });
    writes.add(tracked);
    return tracked;
  }) as typeof transport.send;
  return {
    settled: () =>
      new Promise<void>((resolve) => {
        wake = () => {
          stdout.off('close', close);
          resolve();
        };
        check();
      }),
  };
}
