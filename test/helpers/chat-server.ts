/**
 * A minimal OpenAI-compatible chat-completions server (node:http on 127.0.0.1, port 0) for the
 * System-Two tests, with a queue of scripted behaviours: a normal completion, a non-200 status,
 * a hang, a malformed body, and a server-sent-events stream of `chat.completion.chunk`s.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted behaviour of the chat server. */
export type ChatScript =
  /** A normal `chat.completion` with this content. */
  | { kind: 'ok'; content: string; model?: string; usage?: { prompt_tokens: number; completion_tokens: number; total_tokens?: number } }
  /** A reply with this status and raw body. */
  | { kind: 'status'; status: number; body: string; headers?: Record<string, string> }
  /** Never answers (until the server closes). */
  | { kind: 'hang' }
  /** A 200 with this raw body (e.g. not JSON, or JSON that is not a completion). */
  | { kind: 'raw'; body: string; contentType?: string }
  /**
   * A `text/event-stream` of chunks with these `delta.content` pieces, then `data: [DONE]`.
   * `split` writes every event in two halves (cutting inside the JSON) to exercise buffering.
   * `events` replaces the generated events with these raw `data:` payloads.
   */
  | { kind: 'sse'; pieces?: string[]; model?: string; split?: boolean; events?: string[] };

/** A request the server received. */
export interface ChatRequest {
  at: number;
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when not JSON). */
  body: Record<string, unknown> | undefined;
}

/** A running chat server. */
export interface ChatServer {
  /** Full chat-completions URL: `http://127.0.0.1:<port>/v1/chat/completions`. */
  url: string;
  requests: ChatRequest[];
  /** Queues behaviours for the next requests (one per request). */
  enqueue(...script: ChatScript[]): void;
  /** Forgets recorded requests and drops the unused script. */
  reset(): void;
  close(): Promise<void>;
}

/** Options of {@link startChatServer}. */
export interface ChatServerOptions {
  /** Content of the default completion (when the queue is empty). @default () => 'default answer' */
  reply?: (body: Record<string, unknown> | undefined) => string;
  /** Model name in completions. @default 'test-model-2024' */
  model?: string;
}

function completion(content: string, model: string, usage?: unknown): string {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...(usage === undefined ? {} : { usage }),
  });
}

function chunk(content: string, model: string): string {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });
}

async function stream(res: ServerResponse, events: string[], split: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 2));
  for (const data of [...events, '[DONE]']) {
    const text = `data: ${data}\n\n`;
    if (split) {
      const cut = Math.floor(text.length / 2);
      res.write(text.slice(0, cut));
      await tick();
      res.write(text.slice(cut));
    } else {
      res.write(text);
    }
    await tick();
  }
  res.end();
}

/** Starts the chat server on 127.0.0.1 with a free port. */
export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  const model = options.model ?? 'test-model-2024';
  const reply = options.reply ?? (() => 'default answer');
  const queue: ChatScript[] = [];
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      requests.push({ at: Date.now(), url: req.url ?? '', headers: req.headers, body });
      const script: ChatScript = queue.shift() ?? { kind: 'ok', content: reply(body) };
      switch (script.kind) {
        case 'ok':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(completion(script.content, script.model ?? model, script.usage));
          return;
        case 'status':
          res.writeHead(script.status, { 'content-type': 'application/json', ...(script.headers ?? {}) });
          res.end(script.body);
          return;
        case 'hang':
          return;
        case 'raw':
          res.writeHead(200, { 'content-type': script.contentType ?? 'application/json' });
          res.end(script.body);
          return;
        case 'sse': {
          const events = script.events ?? (script.pieces ?? []).map((p) => chunk(p, script.model ?? model));
          void stream(res, events, script.split ?? false);
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    requests,
    enqueue: (...script) => {
      queue.push(...script);
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
