/**
 * A real HTTP server (node:http on 127.0.0.1, port 0) implementing the System-One wire contract
 * (SPEC 5) for tests: `POST /v1/systemone` with a bearer token, 401 on a wrong token, 422 (via
 * `validateRequest`) on an invalid request, and answers shaped by `answers.ts` from deterministic
 * pseudo-probabilities. Failures are scripted with a queue of canned replies.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerFromProbabilities } from '../../src/system-one/answers.js';
import { validateRequest } from '../../src/system-one/validate.js';
import type { Answer, SystemOneRequest, SystemOneResponse } from '../../src/system-one/wire.js';
import { isJevMemError } from '../../src/errors.js';
import { prng } from './prng.js';

/** A canned HTTP reply. A string body is sent as is; anything else as JSON. */
export interface JevReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One scripted behaviour: a reply, or a request that is never answered. */
export type JevScript = JevReply | { hang: true };

/** A request the server received. */
export interface RecordedRequest {
  /** Date.now() when the request body had arrived. */
  at: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
}

/** Options of {@link startJevServer}. */
export interface JevServerOptions {
  /** The accepted bearer token; null accepts any request. @default 'test-key' */
  apiKey?: string | null;
  /** Model id of the answers. @default 'jev-test/system-one@1.0.0' */
  model?: string;
  /** Answers a valid request (a response, or a canned reply). @default {@link deterministicResponse} */
  answer?: (req: SystemOneRequest) => SystemOneResponse | JevReply;
}

/** A running test server. */
export interface JevServer {
  /** Base URL for `createRemoteSystemOne` (no trailing slash). */
  baseURL: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Queues behaviours for the next requests (one per request, before any other handling). */
  enqueue(...script: JevScript[]): void;
  /** Forgets recorded requests and drops the unused script. */
  reset(): void;
  /** Stops the server, dropping hanging connections. */
  close(): Promise<void>;
}

/** FNV-1a 32-bit hash. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}


/**
 * The default answerer: for each question, pseudo-probabilities seeded by the question id and the
 * state (so equal requests get equal answers), shaped with `answerFromProbabilities`.
 */
export function deterministicResponse(req: SystemOneRequest, model = 'jev-test/system-one@1.0.0'): SystemOneResponse {
  const state = JSON.stringify(req.state);
  const answers: Record<string, Answer> = {};
  for (const [id, q] of Object.entries(req.questions)) {
    const rand = prng(hash(`${id}|${state}`));
    const k = q.type === 'noul' ? 1 : q.type === 'choice' ? Object.keys(q.criteria).length : q.criteria.length;
    // Cubing spreads the weights so that answers are not all near-uniform.
    const probs = Array.from({ length: k }, () => (q.type === 'noul' ? rand() : rand() ** 3 + 0.001));
    answers[id] = answerFromProbabilities(q, probs);
  }
  return { model, answers, usage: { input_tokens: Math.ceil(state.length / 4), output_tokens: Object.keys(answers).length } };
}

function send(res: ServerResponse, reply: JevReply): void {
  const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
  const headers: Record<string, string> = { 'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json', ...(reply.headers ?? {}) };
  res.writeHead(reply.status, headers);
  res.end(text);
}

function isReply(x: SystemOneResponse | JevReply): x is JevReply {
  return typeof (x as JevReply).status === 'number';
}

/** Starts the server on 127.0.0.1 with a free port. */
export async function startJevServer(options: JevServerOptions = {}): Promise<JevServer> {
  const apiKey = options.apiKey === undefined ? 'test-key' : options.apiKey;
  const model = options.model ?? 'jev-test/system-one@1.0.0';
  const answer = options.answer ?? ((req: SystemOneRequest) => deterministicResponse(req, model));
  const queue: JevScript[] = [];
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      requests.push({ at: Date.now(), method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const scripted = queue.shift();
      if (scripted !== undefined) {
        if ('hang' in scripted) return; // never answered; close() drops the socket
        send(res, scripted);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/systemone') {
        send(res, { status: 404, body: { error: { message: `no route ${req.method} ${req.url}` } } });
        return;
      }
      if (apiKey !== null && req.headers.authorization !== `Bearer ${apiKey}`) {
        send(res, { status: 401, body: { error: { message: 'invalid API key' } } });
        return;
      }
      if (body === undefined) {
        send(res, { status: 422, body: { error: { message: 'body: expected JSON' } } });
        return;
      }
      let request: SystemOneRequest;
      try {
        request = validateRequest(body);
      } catch (e) {
        if (isJevMemError(e)) {
          send(res, { status: 422, body: { error: { message: e.message } } });
          return;
        }
        throw e;
      }
      const out = answer(request);
      if (isReply(out)) send(res, out);
      else send(res, { status: 200, body: out });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
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
