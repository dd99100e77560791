/**
 * The JSON-RPC 2.0 errors the MCP SDK's stdio transport does not send. Its `ReadBuffer` parses
 * each line and hands a line that is not JSON, or not a JSON-RPC message, to `onerror` only: the
 * client gets no answer and waits for ever. JSON-RPC 2.0 (section 5.1) requires a `-32700` Parse
 * error, and for JSON that is not a request a `-32600` Invalid Request, both with `id: null`
 * when the id cannot be read. {@link guardJsonRpcLines} reads stdin before the transport: it
 * answers those lines itself and passes the others on unchanged.
 *
 * @module
 */
import { PassThrough, type Readable } from 'node:stream';

/** The JSON-RPC 2.0 code of a line that is not JSON. */
export const PARSE_ERROR = -32700;
/** The JSON-RPC 2.0 code of JSON that is not a valid request. */
export const INVALID_REQUEST = -32600;

/** The SDK's limit on one buffered message (`STDIO_DEFAULT_MAX_BUFFER_SIZE`), 10 MiB. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** A JSON-RPC 2.0 error response. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** Options of {@link guardJsonRpcLines}. */
export interface JsonRpcLineGuardOptions {
  /** True for a parsed value that is a JSON-RPC message the transport accepts (the SDK's `JSONRPCMessageSchema`). */
  isMessage(value: unknown): boolean;
  /** Sends an error response (through the transport, so it is ordered with its other writes). */
  reply(response: JsonRpcErrorResponse): void;
  /** Longest line accepted; a longer one is discarded up to its newline and answered `-32700`. @default MAX_LINE_BYTES */
  maxLineBytes?: number;
}

/** JSON-RPC 2.0 Invalid params. */
export const INVALID_PARAMS_CODE = -32602;

/** How many bytes of an over-long line are kept to read its `id` from. */
const HEAD_BYTES = 1024;

/**
 * The `id` written at the start of a line too long to parse (`{"jsonrpc":"2.0","id":7,…`: after
 * nothing but `jsonrpc` / `method` string members), else null.
 */
export function leadingId(head: string): string | number | null {
  const m = /^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")/.exec(head);
  if (m === null) return null;
  try {
    const id: unknown = JSON.parse(m[1] as string);
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The id of a request that could be read (a string or a number), else null. */
function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A stream of the lines of `input` that are JSON-RPC messages, for the SDK's stdio transport;
 * each other line is answered through `options.reply`:
 * - not JSON: `-32700` "Parse error", `id: null`; longer than `maxLineBytes`: the same, with the
 *   `id` the line opens with when it can be read ({@link leadingId}), else `null`;
 * - JSON that is not a JSON-RPC message (a batch array too: MCP 2025-06-18 removed batching):
 *   `-32600` "Invalid Request", with its `id` when that is a string or a number, else `null`;
 * - a `tools/call` whose `params.arguments` is not an object (`null`, an array, a string):
 *   `-32602` "Invalid params", one line, with its id.
 * Blank lines are skipped (they carry no message). The end of `input` (or its close without an
 * end), and its errors, are passed on; a last line without a newline at the end is treated as a
 * line, before the end.
 */
export function guardJsonRpcLines(input: Readable, options: JsonRpcLineGuardOptions): Readable {
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  const out = new PassThrough();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let head = '';

  const line = (bytes: Buffer): void => {
    if (overlong) {
      overlong = false;
      // Its id, when it opens the line, so the client's request is answered, not left waiting.
      options.reply({ jsonrpc: '2.0', id: leadingId(head), error: { code: PARSE_ERROR, message: `Parse error: a line longer than ${max} bytes` } });
      head = '';
      return;
    }
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      options.reply({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: `Parse error: ${(e as Error).message}` } });
      return;
    }
    if (!options.isMessage(value)) {
      const batch = Array.isArray(value) ? ' (a batch array: MCP 2025-06-18 removed JSON-RPC batching; send one message a line)' : '';
      options.reply({ jsonrpc: '2.0', id: idOf(value), error: { code: INVALID_REQUEST, message: `Invalid Request: not a JSON-RPC 2.0 request, notification or response${batch}` } });
      return;
    }
    const params = (value as { method?: unknown; params?: unknown }).method === 'tools/call' ? (value as { params?: unknown }).params : undefined;
    const args = params !== null && typeof params === 'object' ? (params as { arguments?: unknown }).arguments : undefined;
    if (args === null || (args !== undefined && (typeof args !== 'object' || Array.isArray(args)))) {
      // The SDK would answer -32603 with its validator's dump; this is a bad parameter (-32602).
      options.reply({ jsonrpc: '2.0', id: idOf(value), error: { code: INVALID_PARAMS_CODE, message: `Invalid params: tools/call arguments must be an object (or absent), got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}` } });
      return;
    }
    out.write(Buffer.concat([bytes, Buffer.from('\n')]));
  };

  const append = (part: Buffer): void => {
    if (overlong) return;
    if (pendingBytes + part.length > max) {
      head = Buffer.concat([...pending, part]).subarray(0, HEAD_BYTES).toString('utf8');
      overlong = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    pending.push(part);
    pendingBytes += part.length;
  };

  const take = (): Buffer => {
    const all = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    return all;
  };

  input.on('data', (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      append(buf.subarray(0, nl));
      line(take());
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > 0) append(buf);
  });
  // The end of the input: its last line goes on, then the end. A stream closed without 'end'
  // (destroyed) ends the same way, so the server behind it still stops.
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    if (pendingBytes > 0 || overlong) line(take());
    out.end();
  };
  input.once('end', finish);
  input.once('close', finish);
  input.on('error', (e) => out.emit('error', e));
  return out;
}
