import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRemoteSystemOne, type RemoteSystemOneOptions } from '../../src/system-one/remote.js';
import { JevMemError, isJevMemError } from '../../src/errors.js';
import type { SystemOneRequest } from '../../src/system-one/wire.js';
import { CATALOGUE } from '../../src/system-one/catalogue.js';
import { deterministicResponse, startJevServer, type JevServer } from '../helpers/jev-server.js';
import { runConformanceSuite } from './conformance.js';

let server: JevServer;
beforeAll(async () => {
  server = await startJevServer();
});
afterAll(async () => {
  await server.close();
});

runConformanceSuite('remote', async () => createRemoteSystemOne({ baseURL: server.baseURL, apiKey: 'test-key' }));

const REQUEST: SystemOneRequest = {
  state: { kind: 'routing', query: 'When did Melanie go camping?', mentions: ['Melanie'] },
  questions: { 'route.temporal': CATALOGUE['route.temporal'], 'rel.temporal#c1': CATALOGUE['rel.temporal'] },
};

/** A fresh server per test, so request counts and the script queue start empty. */
describe('remote System One over HTTP', () => {
  let jev: JevServer;
  const sleeps: number[] = [];
  const fakeSleep = async (ms: number): Promise<void> => {
    sleeps.push(ms);
  };
  const make = (extra: Partial<RemoteSystemOneOptions> = {}) =>
    createRemoteSystemOne({ baseURL: jev.baseURL, apiKey: 'test-key', sleep: fakeSleep, jitter: false, cacheSize: 0, ...extra });

  beforeAll(async () => {
    jev = await startJevServer();
  });
  afterAll(async () => {
    await jev.close();
  });
  afterEach(() => {
    jev.reset();
    sleeps.length = 0;
    vi.unstubAllGlobals();
  });

  async function failure(p: Promise<unknown>): Promise<JevMemError> {
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    );
    if (!(e instanceof JevMemError)) throw new Error(`expected a JevMemError, got ${String(e)}`);
    return e;
  }

  it('POSTs {model, state, questions} to /v1/systemone with a bearer token and returns the answers', async () => {
    const s1 = make({ model: 'jev-mini' });
    const res = await s1.decide(REQUEST);
    expect(jev.requests).toHaveLength(1);
    const [sent] = jev.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/v1/systemone');
    expect(sent!.headers.authorization).toBe('Bearer test-key');
    expect(sent!.body).toEqual({ model: 'jev-mini', state: REQUEST.state, questions: REQUEST.questions });
    expect(res).toEqual(deterministicResponse({ ...REQUEST, model: 'jev-mini' }));
  });

  it("takes its modelId from the latest answer's model", async () => {
    const s1 = make({ model: 'jev-mini' });
    expect(s1.modelId).toBe('jev-mini');
    await s1.decide(REQUEST);
    expect(s1.modelId).toBe('jev-test/system-one@1.0.0');
  });

  it('sends custom headers and ignores a trailing slash in baseURL', async () => {
    const s1 = make({ baseURL: `${jev.baseURL}/`, headers: { 'x-tenant': 'acme' } });
    await s1.decide(REQUEST);
    expect(jev.requests[0]!.url).toBe('/v1/systemone');
    expect(jev.requests[0]!.headers['x-tenant']).toBe('acme');
  });

  it('checks the request locally and sends nothing when it is invalid', async () => {
    const e = await failure(make().decide({ state: 'x', questions: {} }));
    expect(e.code).toBe('SYSTEM_ONE_INVALID_REQUEST');
    expect(jev.requests).toHaveLength(0);
  });

  it("turns a 422 into SYSTEM_ONE_INVALID_REQUEST with the status and the server's message, without retrying", async () => {
    jev.enqueue({ status: 422, body: { error: { message: 'questions.route.temporal: unsupported question' } } });
    const e = await failure(make().decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_INVALID_REQUEST');
    expect(e.status).toBe(422);
    expect(e.message).toContain('questions.route.temporal: unsupported question');
    expect(jev.requests).toHaveLength(1);
  });

  it('turns a 401 into SYSTEM_ONE_FAILED with status 401, without retrying', async () => {
    const e = await failure(make({ apiKey: 'wrong-key-123' }).decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.status).toBe(401);
    expect(e.message).toContain('apiKey');
    expect(e.message).not.toContain('wrong-key-123');
    expect(jev.requests).toHaveLength(1);
  });

  it('never puts the API key in an error message, even when the server echoes it', async () => {
    jev.enqueue({ status: 400, body: 'bad header: Bearer test-key' });
    const e = await failure(make().decide(REQUEST));
    expect(e.status).toBe(400);
    expect(e.message).not.toContain('test-key');
    expect(e.message).toContain('Bearer ***');
  });

  it('waits the retry-after seconds of a 429 before the next attempt', async () => {
    jev.enqueue({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } });
    const res = await make().decide(REQUEST);
    expect(res.answers['route.temporal']?.type).toBe('noul');
    expect(jev.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('honours a retry-after given as an HTTP date', async () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    jev.enqueue({ status: 429, body: 'busy', headers: { 'retry-after': at } });
    await make({ deadlineMs: 120_000 }).decide(REQUEST);
    expect(sleeps).toHaveLength(1);
    // HTTP dates have 1 s resolution: the wait is within (59 s, 60 s].
    expect(sleeps[0]).toBeGreaterThan(58_000);
    expect(sleeps[0]).toBeLessThanOrEqual(60_000);
  });

  it('retries a 529 after the 500 ms backoff and then succeeds', async () => {
    jev.enqueue({ status: 529, body: { error: { message: 'overloaded' } } });
    const res = await make().decide(REQUEST);
    expect(res.model).toBe('jev-test/system-one@1.0.0');
    expect(jev.requests).toHaveLength(2);
    expect(sleeps).toEqual([500]);
  });

  it('doubles the backoff from 500 ms across successive 5xx answers', async () => {
    jev.enqueue({ status: 500, body: 'a' }, { status: 502, body: 'b' }, { status: 503, body: 'c' }, { status: 408, body: 'd' });
    await make().decide(REQUEST);
    expect(sleeps).toEqual([500, 1000, 2000, 4000]);
    expect(jev.requests).toHaveLength(5);
  });

  it('caps the backoff at 5 s', async () => {
    jev.enqueue(...Array.from({ length: 5 }, () => ({ status: 503, body: 'down' })));
    await make({ retries: 5, deadlineMs: 60_000 }).decide(REQUEST);
    expect(sleeps).toEqual([500, 1000, 2000, 4000, 5000]);
  });

  it('gives up with SYSTEM_ONE_FAILED and the last status once retries are spent', async () => {
    jev.enqueue({ status: 503, body: 'down' }, { status: 503, body: 'down' }, { status: 503, body: 'still down' });
    const e = await failure(make({ retries: 2 }).decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.status).toBe(503);
    expect(e.message).toContain('still down');
    expect(jev.requests).toHaveLength(3);
  });

  it('does not retry other 4xx answers', async () => {
    jev.enqueue({ status: 404, body: { error: { message: 'no such route' } } });
    const e = await failure(make().decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.status).toBe(404);
    expect(jev.requests).toHaveLength(1);
  });

  it('retries an attempt that timed out and returns the next answer', async () => {
    jev.enqueue({ hang: true });
    const res = await make({ timeoutMs: 150 }).decide(REQUEST);
    expect(res.model).toBe('jev-test/system-one@1.0.0');
    expect(jev.requests).toHaveLength(2);
  });

  it('fails with SYSTEM_ONE_FAILED when the overall deadline cuts a hanging attempt', async () => {
    jev.enqueue({ hang: true });
    const e = await failure(make({ timeoutMs: 10_000, deadlineMs: 300 }).decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.message).toContain('deadline of 300 ms');
  });

  it('does not start a wait that would end past the deadline', async () => {
    jev.enqueue({ status: 529, body: 'overloaded', headers: { 'retry-after': '30' } });
    const e = await failure(make({ deadlineMs: 20_000 }).decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.status).toBe(529);
    expect(sleeps).toEqual([]);
    expect(jev.requests).toHaveLength(1);
  });

  it("uses the call's deadlineMs when it is earlier than the option", async () => {
    jev.enqueue({ status: 429, body: 'busy', headers: { 'retry-after': '5' } });
    const e = await failure(make({ deadlineMs: 20_000 }).decide(REQUEST, { deadlineMs: 2000 }));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.message).toContain('deadline of 2000 ms');
    expect(sleeps).toEqual([]);
  });

  it('rejects an answer that breaks the contract with SYSTEM_ONE_FAILED, without retrying', async () => {
    const good = deterministicResponse(REQUEST);
    jev.enqueue({
      status: 200,
      body: { ...good, answers: { ...good.answers, 'rel.temporal#c1': { type: 'choice', choice: 'before', probabilities: { before: 0.5, after: 0.2 }, confidence: 0.3 } } },
    });
    const e = await failure(make().decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.message).toMatch(/^invalid answer answers\.rel\.temporal#c1\.probabilities/);
    expect(jev.requests).toHaveLength(1);
  });

  it('rejects a body that is not JSON with SYSTEM_ONE_FAILED', async () => {
    jev.enqueue({ status: 200, body: '<html>gateway</html>' });
    const e = await failure(make().decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.message).toContain('not JSON');
  });

  it('answers a repeated request from the cache without a second HTTP request', async () => {
    const s1 = make({ cacheSize: 10 });
    const first = await s1.decide(REQUEST);
    const reordered: SystemOneRequest = { questions: { 'rel.temporal#c1': CATALOGUE['rel.temporal'], 'route.temporal': CATALOGUE['route.temporal'] }, state: REQUEST.state };
    const second = await s1.decide(reordered);
    expect(second).toEqual(first);
    expect(jev.requests).toHaveLength(1);
    expect(s1.cacheSize).toBe(1);
  });

  it('evict() empties the cache: a request seen before an erasure goes to the server again (issue 22)', async () => {
    const s1 = make({ cacheSize: 10 });
    await s1.decide(REQUEST);
    expect(s1.cacheSize).toBe(1);
    s1.evict?.(['When did Melanie go camping?']);
    expect(s1.cacheSize).toBe(0);
    await s1.decide(REQUEST);
    expect(jev.requests).toHaveLength(2);
  });

  it('hands out cache hits as copies the caller may change', async () => {
    const s1 = make({ cacheSize: 10 });
    const first = await s1.decide(REQUEST);
    (first.answers['route.temporal'] as { noul: number }).noul = 99;
    const second = await s1.decide(REQUEST);
    expect((second.answers['route.temporal'] as { noul: number }).noul).not.toBe(99);
  });

  it('sends every request when cacheSize is 0', async () => {
    const s1 = make({ cacheSize: 0 });
    await s1.decide(REQUEST);
    await s1.decide(REQUEST);
    expect(jev.requests).toHaveLength(2);
  });

  it('keeps at most cacheSize answers and evicts the least recently used one', async () => {
    const s1 = make({ cacheSize: 2 });
    const req = (query: string): SystemOneRequest => ({ state: { kind: 'routing', query, mentions: [] }, questions: { 'route.temporal': CATALOGUE['route.temporal'] } });
    await s1.decide(req('a'));
    await s1.decide(req('b'));
    await s1.decide(req('a')); // a hit: 'a' is now the most recently used
    await s1.decide(req('c')); // evicts 'b'
    expect(s1.cacheSize).toBe(2);
    expect(jev.requests).toHaveLength(3);
    await s1.decide(req('a')); // still cached
    expect(jev.requests).toHaveLength(3);
    await s1.decide(req('b')); // evicted: sent again
    expect(jev.requests).toHaveLength(4);
  });

  it('keys the cache by model too', async () => {
    const s1 = make({ cacheSize: 10 });
    await s1.decide(REQUEST);
    await s1.decide({ ...REQUEST, model: 'other-model' });
    expect(jev.requests).toHaveLength(2);
  });

  it('sends one HTTP request per request in decideMany and keeps the order', async () => {
    const other: SystemOneRequest = { state: 'plain text state', questions: { 'route.causal': CATALOGUE['route.causal'] } };
    const [a, b] = await make().decideMany([REQUEST, other]);
    expect(jev.requests).toHaveLength(2);
    expect(Object.keys(a!.answers).sort()).toEqual(['rel.temporal#c1', 'route.temporal']);
    expect(Object.keys(b!.answers)).toEqual(['route.causal']);
  });

  it('rejects with ABORTED when the signal fires during a request', async () => {
    jev.enqueue({ hang: true });
    const controller = new AbortController();
    const pending = make().decide(REQUEST, { signal: controller.signal });
    // abort once the server holds the request (a fixed 50 ms could fire before it arrived on a loaded machine)
    await vi.waitFor(() => expect(jev.requests).toHaveLength(1), { timeout: 5000, interval: 5 });
    controller.abort();
    const e = await failure(pending);
    expect(e.code).toBe('ABORTED');
    expect(jev.requests).toHaveLength(1);
  });

  it('rejects with CLOSED after close()', async () => {
    const s1 = make();
    await s1.close();
    await s1.close();
    const e = await failure(s1.decide(REQUEST));
    expect(e.code).toBe('CLOSED');
  });

  it('refuses an apiKey in a browser-like environment unless allowBrowserKey is set', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('process', { ...process, versions: {} });
    let error: unknown;
    try {
      createRemoteSystemOne({ baseURL: 'https://api.example.com', apiKey: 'secret-key' });
    } catch (e) {
      error = e;
    }
    let allowed: unknown;
    try {
      allowed = createRemoteSystemOne({ baseURL: 'https://api.example.com', apiKey: 'secret-key', allowBrowserKey: true });
      createRemoteSystemOne({ baseURL: '/api/jev' });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(isJevMemError(error, 'INVALID_OPTION')).toBe(true);
    expect((error as JevMemError).field).toBe('apiKey');
    expect((error as JevMemError).message).toContain('proxy');
    expect((error as JevMemError).message).not.toContain('secret-key');
    expect(allowed).toBeDefined();
  });

  it('accepts an apiKey in Node', () => {
    expect(() => createRemoteSystemOne({ baseURL: 'https://api.example.com', apiKey: 'k' })).not.toThrow();
  });

  it('refuses options with bad values, naming the option', () => {
    const field = (o: RemoteSystemOneOptions): string | undefined => {
      try {
        createRemoteSystemOne(o);
      } catch (e) {
        return isJevMemError(e, 'INVALID_OPTION') ? e.field : 'wrong error';
      }
      return undefined;
    };
    expect(field({ baseURL: '' })).toBe('baseURL');
    expect(field({ baseURL: 'http://x', timeoutMs: 0 })).toBe('timeoutMs');
    expect(field({ baseURL: 'http://x', retries: 1.5 })).toBe('retries');
    expect(field({ baseURL: 'http://x', cacheSize: -1 })).toBe('cacheSize');
    expect(field({ baseURL: 'http://x', deadlineMs: Number.NaN })).toBe('deadlineMs');
  });

  it('reports a network failure as SYSTEM_ONE_FAILED after retrying', async () => {
    const closed = await startJevServer();
    const baseURL = closed.baseURL;
    await closed.close();
    const e = await failure(createRemoteSystemOne({ baseURL, sleep: fakeSleep, jitter: false, retries: 1 }).decide(REQUEST));
    expect(e.code).toBe('SYSTEM_ONE_FAILED');
    expect(e.message).toContain('network error');
    expect(sleeps).toEqual([500]);
  });
});
