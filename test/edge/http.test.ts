/**
 * The edge front in Node (no workerd): route table, body limits, operation checks, error mapping,
 * auth and configuration, with a fake Durable Object binding. The workerd suite (worker.test.ts)
 * runs the same code end to end.
 */
import { describe, expect, it } from 'vitest';
import { createEdgeAssetLoader } from '../../src/edge/assets.js';
import { readEdgeConfig } from '../../src/edge/env.js';
import { bearerMatches, checkNamespace, createEdgeHandler, errorResponse, matchRoute, parseJsonBody, readBody, toOperation, type Operation } from '../../src/edge/http.js';
import { fails, route } from './route-helpers.js';
import { JevMemError } from '../../src/errors.js';

describe('matchRoute', () => {
  it('maps each method and path of the API to its operation', () => {
    const table: Array<[string, string, string]> = [
      ['POST', '/v1/namespaces/a/memories', 'add'],
      ['POST', '/v1/namespaces/a/recall', 'recall'],
      ['POST', '/v1/namespaces/a/answer', 'answer'],
      ['GET', '/v1/namespaces/a/export', 'export'],
      ['GET', '/v1/namespaces/a', 'stats'],
      ['DELETE', '/v1/namespaces/a/memories/m1', 'deleteMemory'],
      ['DELETE', '/v1/namespaces/a', 'dropNamespace'],
    ];
    for (const [method, path, name] of table) expect(matchRoute(method, path)).toMatchObject({ route: { name, namespace: 'a' } });
    expect(matchRoute('DELETE', '/v1/namespaces/a/memories/m%201')).toEqual({ route: { name: 'deleteMemory', namespace: 'a', memoryId: 'm%201' } });
  });

  it('answers 404 for unknown paths and 405 with the allowed methods for a wrong method', () => {
    expect(matchRoute('GET', '/')).toEqual({ status: 404 });
    expect(matchRoute('GET', '/v1/namespaces/')).toEqual({ status: 404 });
    expect(matchRoute('POST', '/v1/namespaces/a/memories/x/y')).toEqual({ status: 404 });
    expect(matchRoute('GET', '/v2/namespaces/a/export')).toEqual({ status: 404 });
    expect(matchRoute('PUT', '/v1/namespaces/a')).toEqual({ status: 405, allow: ['GET', 'DELETE'] });
    expect(matchRoute('DELETE', '/v1/namespaces/a/memories')).toEqual({ status: 405, allow: ['GET', 'POST'] });
  });

  it('ignores one trailing slash', () => {
    expect(matchRoute('GET', '/v1/namespaces/a/export/')).toMatchObject({ route: { name: 'export' } });
  });
});

describe('toOperation', () => {

  it('reads one observation, a {observations} batch and a bare array', () => {
    expect(toOperation(route('add'), 'ns', { text: 'hi' }, 10)).toEqual({ op: 'add', namespace: 'ns', observations: [{ text: 'hi' }], single: true });
    expect(toOperation(route('add'), 'ns', { observations: [{ text: 'a' }, { text: 'b' }] }, 10)).toMatchObject({ observations: [{ text: 'a' }, { text: 'b' }], single: false });
    expect(toOperation(route('add'), 'ns', [{ text: 'a' }], 10)).toMatchObject({ observations: [{ text: 'a' }], single: false });
  });

  it('refuses an empty batch, a non-object observation and a batch over the limit, naming the field', () => {
    expect(fails(() => toOperation(route('add'), 'ns', { observations: [] }, 10)).field).toBe('observations');
    expect(fails(() => toOperation(route('add'), 'ns', [{ text: 'a' }, 'b'], 10)).field).toBe('observations[1]');
    const big = fails(() => toOperation(route('add'), 'ns', Array.from({ length: 11 }, () => ({ text: 'x' })), 10));
    expect(big.code).toBe('TOO_LARGE');
    expect(big.message).toContain('11 in one request, the limit is 10');
  });

  it('reads {query, k} and refuses unknown fields, a missing query and k outside 1..1000', () => {
    expect(toOperation(route('recall'), 'ns', { query: 'q', k: 5 }, 10)).toEqual({ op: 'recall', namespace: 'ns', query: 'q', k: 5 } satisfies Operation);
    expect(fails(() => toOperation(route('recall'), 'ns', { query: 'q', kk: 5 }, 10)).field).toBe('kk');
    expect(fails(() => toOperation(route('recall'), 'ns', { query: '  ' }, 10)).field).toBe('query');
    expect(fails(() => toOperation(route('recall'), 'ns', { query: 'q', k: 1.5 }, 10)).field).toBe('k');
    expect(fails(() => toOperation(route('recall'), 'ns', { query: 'q', k: 1001 }, 10)).field).toBe('k');
    expect(fails(() => toOperation(route('recall'), 'ns', ['q'], 10)).message).toContain('got an array');
  });

  it("reads the question's date now (ISO date / instant or epoch ms) for recall and answer, and refuses anything else naming now", () => {
    expect(toOperation(route('recall'), 'ns', { query: 'q', now: '2023-05-30' }, 10)).toEqual({ op: 'recall', namespace: 'ns', query: 'q', now: '2023-05-30' } satisfies Operation);
    expect(toOperation(route('recall'), 'ns', { query: 'q', now: '2023-05-30T18:00:00+02:00' }, 10)).toMatchObject({ now: '2023-05-30T18:00:00+02:00' });
    expect(toOperation(route('recall'), 'ns', { query: 'q', now: 1685404800000 }, 10)).toMatchObject({ now: 1685404800000 });
    expect(toOperation(route('answer'), 'ns', { query: 'q', now: 1685404800000 }, 10)).toMatchObject({ op: 'answer', now: 1685404800000 });
    // /answer keeps taking a free-form "today" string for its prompt.
    expect(toOperation(route('answer'), 'ns', { query: 'q', now: 'Tuesday, 30 May 2023' }, 10)).toMatchObject({ now: 'Tuesday, 30 May 2023' });
    for (const now of ['last Tuesday', '2023-02-30', '', true, [2023], { y: 2023 }, Number.MAX_VALUE]) {
      expect(fails(() => toOperation(route('recall'), 'ns', { query: 'q', now }, 10)), JSON.stringify(now)).toMatchObject({ code: 'INVALID_INPUT', field: 'now' });
    }
    expect(fails(() => toOperation(route('answer'), 'ns', { query: 'q', now: Number.NaN }, 10))).toMatchObject({ code: 'INVALID_INPUT', field: 'now' });
  });

  it('decodes a percent-encoded memory id and refuses a malformed one', () => {
    expect(toOperation(route('deleteMemory', 'a%2Fb'), 'ns', undefined, 10)).toEqual({ op: 'deleteMemory', namespace: 'ns', id: 'a/b' });
    expect(fails(() => toOperation(route('deleteMemory', '%E0%A4%A'), 'ns', undefined, 10)).field).toBe('id');
  });
});

describe('readBody', () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}): Request => new Request('http://x/', { method: 'POST', body, headers });

  it('reads a body up to the limit exactly', async () => {
    expect(await readBody(post('x'.repeat(16)), 16)).toBe('x'.repeat(16));
  });

  it('refuses by Content-Length before reading, and while streaming when none is given', async () => {
    await expect(readBody(post('x'.repeat(17), { 'content-length': '17' }), 16)).rejects.toMatchObject({ code: 'TOO_LARGE', field: 'body' });
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(8));
        c.close();
      },
    });
    await expect(readBody(new Request('http://x/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit), 16)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('refuses bytes that are not UTF-8', async () => {
    await expect(readBody(post(new Uint8Array([0x7b, 0xff, 0x7d])), 16)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'body' });
  });
});

describe('namespace segments and bodies with invisible characters (issue 22)', () => {
  it('refuses a namespace the store-wide rule refuses, its invisible characters escaped in the message', () => {
    expect(checkNamespace('tenant-alice')).toBe('tenant-alice');
    for (const bad of ['tenant\u0000alice', 'tenant\u200balice', 'tenant\u202e']) {
      const e = fails(() => checkNamespace(bad));
      expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'namespace' });
      expect(e.message).toMatch(/\\u(0000|200b|202e)/);
      expect(e.message).not.toMatch(/[\u0000\u200b\u202e]/);
    }
  });

  it('reads a body that starts with a UTF-8 byte-order mark, and escapes invisible characters in a JSON error', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"text":"a"}')]);
    expect(parseJsonBody(await readBody(new Request('http://x/', { method: 'POST', body }), 64))).toEqual({ text: 'a' });
    const e = fails(() => parseJsonBody('\u200b{"text":"a"}'));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'body' });
    expect(e.message).toContain('\\u200b');
    expect(e.message).not.toContain('\u200b');
  });
});

describe('errorResponse', () => {
  it('maps codes to statuses and never exposes a foreign error', async () => {
    const statusOf = (code: ConstructorParameters<typeof JevMemError>[0]) => errorResponse(new JevMemError(code, 'm'), () => {}).status;
    expect([statusOf('INVALID_INPUT'), statusOf('NOT_FOUND'), statusOf('TOO_LARGE'), statusOf('SYSTEM_TWO_NOT_CONFIGURED'), statusOf('SYSTEM_TWO_HTTP'), statusOf('SYSTEM_TWO_TIMEOUT'), statusOf('STORAGE_FAILED'), statusOf('CONFLICT')]).toEqual([
      400, 404, 413, 501, 502, 504, 500, 409,
    ]);
    const logged: string[] = [];
    const r = errorResponse(new TypeError('secret internals at foo.js:1:2'), (m) => logged.push(m));
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ error: { code: 'INTERNAL', message: 'internal error; see the Worker logs' } });
    expect(logged).toEqual(['jev-mem: unexpected error: TypeError: secret internals at foo.js:1:2']);
  });

  it('answers /answer without System Two with 501 naming the Worker’s variables and how to set them, not the library’s options', async () => {
    const libraryError = new JevMemError('SYSTEM_TWO_NOT_CONFIGURED', 'answer() needs System Two: pass options.systemTwo ({ url, model, apiKey? }) to createMemory; recall() works without it');
    const logged: string[] = [];
    const r = errorResponse(libraryError, (m) => logged.push(m));
    expect(r.status).toBe(501);
    const { error } = (await r.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('SYSTEM_TWO_NOT_CONFIGURED');
    for (const name of ['JEV_MEM_LLM_BASE_URL', 'JEV_MEM_LLM_MODEL', 'JEV_MEM_LLM_API_KEY', '[vars]', 'wrangler.toml', 'wrangler secret put JEV_MEM_LLM_API_KEY']) expect(error.message).toContain(name);
    expect(error.message).not.toMatch(/options\.systemTwo|createMemory/);
    expect(logged).toEqual([]); // a missing optional feature is not a server fault to log
  });

  it('answers details.httpStatus when set (configuration errors are the server’s: 500)', () => {
    expect(errorResponse(new JevMemError('INVALID_OPTION', 'bad var', { field: 'JEV_MEM_MAX_BATCH', httpStatus: 500 }), () => {}).status).toBe(500);
  });
});

describe('bearerMatches', () => {
  const req = (auth?: string): Request => new Request('http://x/', auth === undefined ? {} : { headers: { authorization: auth } });

  it('accepts the exact token with the Bearer scheme (any case) and nothing else', async () => {
    expect(await bearerMatches(req('Bearer t0k'), ['other', 't0k'])).toBe(true);
    expect(await bearerMatches(req('bearer t0k'), ['t0k'])).toBe(true);
    expect(await bearerMatches(req('Bearer t0k2'), ['t0k'])).toBe(false);
    expect(await bearerMatches(req('Bearer t0'), ['t0k'])).toBe(false);
    expect(await bearerMatches(req('Basic t0k'), ['t0k'])).toBe(false);
    expect(await bearerMatches(req(), ['t0k'])).toBe(false);
    expect(await bearerMatches(req('Bearer t0k'), [])).toBe(false);
  });
});

describe('readEdgeConfig', () => {
  it('reads tokens, limits and System Two, with defaults', () => {
    const c = readEdgeConfig({
      JEV_MEM_TOKEN: 'all',
      JEV_MEM_TOKENS: '{"alice": "a1", "bob": ["b1", "b2"]}',
      JEV_MEM_MAX_BODY_BYTES: '2048',
      JEV_MEM_LLM_BASE_URL: 'http://127.0.0.1:9/v1/',
      JEV_MEM_LLM_MODEL: 'm',
      JEV_MEM_LLM_API_KEY: 'k',
    });
    expect(c.globalTokens).toEqual(['all']);
    expect([...c.namespaceTokens]).toEqual([
      ['alice', ['a1']],
      ['bob', ['b1', 'b2']],
    ]);
    expect(c.maxBodyBytes).toBe(2048);
    expect(c.maxBatch).toBe(1000);
    expect(c.systemOne).toEqual({ kind: 'local' });
    expect(c.systemTwo).toEqual({ url: 'http://127.0.0.1:9/v1/chat/completions', model: 'm', apiKey: 'k' });
  });

  it('names the variable at fault', () => {
    const fieldOf = (env: Record<string, unknown>): string | undefined => {
      try {
        readEdgeConfig(env);
      } catch (e) {
        return (e as JevMemError).field;
      }
      return undefined;
    };
    expect(fieldOf({ JEV_MEM_TOKENS: 'not json' })).toBe('JEV_MEM_TOKENS');
    expect(fieldOf({ JEV_MEM_TOKENS: '{"a": 3}' })).toBe('JEV_MEM_TOKENS.a');
    expect(fieldOf({ JEV_MEM_MAX_BATCH: '0' })).toBe('JEV_MEM_MAX_BATCH');
    expect(fieldOf({ JEV_MEM_SYSTEM_ONE: 'gpu' })).toBe('JEV_MEM_SYSTEM_ONE');
    expect(fieldOf({ JEV_MEM_SYSTEM_ONE: 'remote' })).toBe('JEV_MEM_SYSTEM_ONE_URL');
    expect(fieldOf({ JEV_MEM_LLM_BASE_URL: 'http://x' })).toBe('JEV_MEM_LLM_MODEL');
    expect(fieldOf({ JEV_MEM_CORS_ORIGINS: 'https://app.example.com/chat' })).toBe('JEV_MEM_CORS_ORIGINS');
    expect(fieldOf({ JEV_MEM_CORS_ORIGINS: 'app.example.com' })).toBe('JEV_MEM_CORS_ORIGINS');
  });

  it('reads CORS origins: none by default, a list, or * for any', () => {
    expect(readEdgeConfig({}).corsOrigins).toEqual([]);
    expect(readEdgeConfig({ JEV_MEM_CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(readEdgeConfig({ JEV_MEM_CORS_ORIGINS: 'https://a.example,*' }).corsOrigins).toEqual(['*']);
  });
});

describe('createEdgeHandler (front) with a fake Durable Object binding', () => {
  /** A binding that records the operations it receives and answers 200 `{ok: true}`. */
  function fakeBinding() {
    const seen: Array<{ name: string; op: Operation }> = [];
    return {
      seen,
      idFromName: (name: string) => name,
      get: (id: never) => ({
        fetch: async (r: Request) => {
          seen.push({ name: id as unknown as string, op: (await r.json()) as Operation });
          return new Response('{"ok":true}', { status: 200 });
        },
      }),
    };
  }
  const handler = createEdgeHandler({ log: () => {} });

  it('sends the checked operation to the object named by the namespace', async () => {
    const JEV_MEM = fakeBinding();
    const r = await handler.fetch(new Request('http://w/v1/namespaces/alice/recall', { method: 'POST', headers: { authorization: 'Bearer t' }, body: '{"query":"q","k":3}' }), { JEV_MEM, JEV_MEM_TOKEN: 't' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JEV_MEM.seen).toEqual([{ name: 'alice', op: { op: 'recall', namespace: 'alice', query: 'q', k: 3 } }]);
  });

  it('fails closed with 500 naming JEV_MEM_TOKEN when no token is configured', async () => {
    const JEV_MEM = fakeBinding();
    const r = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { authorization: 'Bearer anything' } }), { JEV_MEM });
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: { field: string } }).error.field).toBe('JEV_MEM_TOKEN');
    expect(JEV_MEM.seen).toEqual([]);
  });

  it('answers 500 naming the binding when the Durable Object binding is missing', async () => {
    const r = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { authorization: 'Bearer t' } }), { JEV_MEM_TOKEN: 't' });
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('no Durable Object binding JEV_MEM');
  });

  describe('CORS', () => {
    const env = (extra: Record<string, unknown> = {}) => ({ JEV_MEM: fakeBinding(), JEV_MEM_TOKEN: 't', JEV_MEM_CORS_ORIGINS: 'https://app.example', ...extra });
    const preflight = (origin: string, path = '/v1/namespaces/alice/recall') =>
      new Request(`http://w${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });

    it('grants a preflight from an allowed origin: the route\'s methods, the two headers, no call to the object', async () => {
      const e = env();
      const r = await handler.fetch(preflight('https://app.example'), e);
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(r.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
      expect(r.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(r.headers.get('vary')).toBe('Origin');
      expect(e.JEV_MEM.seen).toEqual([]);
    });

    it('gives no grant to another origin, or when no origin is configured', async () => {
      for (const e of [env(), env({ JEV_MEM_CORS_ORIGINS: undefined })]) {
        const r = await handler.fetch(preflight('https://evil.example'), e);
        expect(r.status).toBe(204);
        expect(r.headers.get('allow')).toBe('POST, OPTIONS');
        expect(r.headers.get('access-control-allow-origin')).toBeNull();
        expect(r.headers.get('access-control-allow-methods')).toBeNull();
      }
    });

    it('answers a preflight with the configuration error when JEV_MEM_CORS_ORIGINS is malformed', async () => {
      const r = await handler.fetch(preflight('https://app.example'), env({ JEV_MEM_CORS_ORIGINS: 'https://app.example/' }));
      expect(r.status).toBe(500);
      expect(((await r.json()) as { error: { field: string } }).error.field).toBe('JEV_MEM_CORS_ORIGINS');
    });

    it('answers 404 to a preflight for an unknown path', async () => {
      const r = await handler.fetch(preflight('https://app.example', '/v2/nothing'), env());
      expect(r.status).toBe(404);
    });

    it('adds the allow-origin header to answers and to errors for an allowed origin only', async () => {
      const ok = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { authorization: 'Bearer t', origin: 'https://app.example' } }), env());
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const unauthorised = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { origin: 'https://app.example' } }), env());
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const other = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { authorization: 'Bearer t', origin: 'https://evil.example' } }), env());
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const any = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { authorization: 'Bearer t', origin: 'https://evil.example' } }), env({ JEV_MEM_CORS_ORIGINS: '*' }));
      expect(any.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  it('answers 500 for a malformed configuration, even to a request with a good token', async () => {
    const r = await handler.fetch(new Request('http://w/v1/namespaces/alice/export', { headers: { authorization: 'Bearer t' } }), { JEV_MEM: fakeBinding(), JEV_MEM_TOKEN: 't', JEV_MEM_MAX_BATCH: 'lots' });
    expect(r.status).toBe(500);
  });
});

describe('createEdgeAssetLoader', () => {
  it('answers bytes for Data (ArrayBuffer), Text (string) and JSON (object) modules', async () => {
    const load = createEdgeAssetLoader({ 'm/a.bin': new Uint8Array([1, 2, 3]).buffer, 'm/b.txt': 'é\n', 'm/c.json': { x: 1 } });
    expect([...(await load('m/a.bin'))]).toEqual([1, 2, 3]);
    expect([...(await load('m/b.txt'))]).toEqual([0xc3, 0xa9, 0x0a]);
    expect(new TextDecoder().decode(await load('m/c.json'))).toBe('{"x":1}');
  });

  it('refuses a file that was not bundled with MODEL_LOAD_FAILED listing the bundled ones', async () => {
    const load = createEdgeAssetLoader({ 'm/a.bin': new ArrayBuffer(1) });
    await expect(load('m/missing.bin')).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('bundled: m/a.bin') });
    await expect(load('toString')).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });
});
