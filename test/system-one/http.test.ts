// Tests of src/util/http.ts (the retry / timeout pieces shared by the System-One and System-Two clients).
import { describe, expect, it } from 'vitest';
import { HTTPError } from 'ky';
import { WaitPastDeadline, backoffDelay, excerpt, parseRetryAfter, postWithRetries, readEventStream, safeUrl, type FetchLike, type PostOptions } from '../../src/util/http.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');

  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0.5 ', now)).toBe(500);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Wed, 01 May 2024 12:00:30 GMT', now)).toBe(30_000);
  });

  it('gives 0 for a date in the past', () => {
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(0);
  });

  it('gives undefined when absent or unparseable', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('starts at 500 ms, doubles and caps at 5 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((i) => backoffDelay(i))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  });

  it('with jitter, spreads over [d/2, d]', () => {
    expect(backoffDelay(1, { jitter: true, random: () => 0 })).toBe(500);
    expect(backoffDelay(1, { jitter: true, random: () => 0.999999 })).toBe(1000);
  });
});

describe('postWithRetries (ky)', () => {
  /** A fake fetch answering from a script of statuses (the last one repeats), counting calls. */
  const scripted = (...replies: Array<{ status: number; headers?: Record<string, string>; body?: string }>) => {
    const calls: string[] = [];
    const fetch: FetchLike = async (url, init) => {
      calls.push(`${init?.method} ${url}`);
      const r = replies[Math.min(calls.length - 1, replies.length - 1)]!;
      return new Response(r.body ?? 'x', { status: r.status, headers: r.headers ?? {} });
    };
    return { fetch, calls };
  };
  const base = (fetch: FetchLike, sleeps: number[], extra: Partial<PostOptions> = {}): PostOptions => ({
    url: 'http://example.test/v1/x', headers: { 'content-type': 'application/json' }, body: '{}', fetch, retries: 3, timeoutMs: 5000,
    retryOnTimeout: true, backoff: (n) => 100 * n, sleep: async (ms) => void sleeps.push(ms), signal: new AbortController().signal, ...extra,
  });
  const text = (r: Response) => r.text();

  it('retries 503 and 529 after the backoff, then returns the read body', async () => {
    const { fetch, calls } = scripted({ status: 503 }, { status: 529 }, { status: 200, body: 'ok' });
    const sleeps: number[] = [];
    expect(await postWithRetries(base(fetch, sleeps), text)).toBe('ok');
    expect(calls).toEqual(['POST http://example.test/v1/x', 'POST http://example.test/v1/x', 'POST http://example.test/v1/x']);
    expect(sleeps).toEqual([100, 200]);
  });

  it('waits retry-after-ms, else retry-after, instead of the backoff', async () => {
    const { fetch } = scripted({ status: 429, headers: { 'retry-after-ms': '1500' } }, { status: 429, headers: { 'retry-after': '3' } }, { status: 200 });
    const sleeps: number[] = [];
    await postWithRetries(base(fetch, sleeps), text);
    expect(sleeps).toEqual([1500, 3000]);
  });

  it('throws the HTTPError of a status that is not retried, after one attempt', async () => {
    const { fetch, calls } = scripted({ status: 404 });
    const e = await postWithRetries(base(fetch, []), text).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HTTPError);
    expect((e as HTTPError).response.status).toBe(404);
    expect(calls).toHaveLength(1);
  });

  it('throws the last HTTPError once the retries are spent', async () => {
    const { fetch, calls } = scripted({ status: 500 });
    const e = await postWithRetries(base(fetch, [], { retries: 2 }), text).catch((x: unknown) => x);
    expect((e as HTTPError).response.status).toBe(500);
    expect(calls).toHaveLength(3);
  });

  it('does not start a wait that would end past the deadline', async () => {
    const { fetch, calls } = scripted({ status: 503, headers: { 'retry-after': '30' } });
    const sleeps: number[] = [];
    const e = await postWithRetries(base(fetch, sleeps, { now: () => 1000, deadlineAt: 20_000 }), text).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WaitPastDeadline);
    expect(((e as WaitPastDeadline).last as HTTPError).response.status).toBe(503);
    expect(sleeps).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('stops at once when the signal has fired', async () => {
    const { fetch, calls } = scripted({ status: 200 });
    const c = new AbortController();
    c.abort(new Error('stop'));
    await expect(postWithRetries(base(fetch, [], { signal: c.signal }), text)).rejects.toThrow('stop');
    expect(calls).toHaveLength(0);
  });
});

describe('readEventStream', () => {
  function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
    const enc = new TextEncoder();
    return new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(enc.encode(c));
        controller.close();
      },
    });
  }
  async function collect(chunks: string[]): Promise<string[]> {
    const out: string[] = [];
    for await (const e of readEventStream(streamOf(chunks))) out.push(e);
    return out;
  }

  it('yields the data of each event', async () => {
    expect(await collect(['data: one\n\ndata: two\n\n'])).toEqual(['one', 'two']);
  });

  it('joins events cut across chunks, CRLF included', async () => {
    expect(await collect(['data: {"a":', '1}\r', '\n\r\ndata: b\r\n\r\n'])).toEqual(['{"a":1}', 'b']);
  });

  it('joins multi-line data with \\n and skips comments and other fields', async () => {
    expect(await collect([': keep-alive\n', 'event: x\nid: 3\ndata: a\ndata: b\n\n'])).toEqual(['a\nb']);
  });

  it('yields a last event that has no closing blank line', async () => {
    expect(await collect(['data: end'])).toEqual(['end']);
  });
});

describe('excerpt and safeUrl', () => {
  it('replaces secrets with *** and collapses whitespace', () => {
    expect(excerpt('key  sk-123\nwas bad', ['sk-123'])).toBe('key *** was bad');
  });

  it('cuts long text with an ellipsis', () => {
    expect(excerpt('x'.repeat(300), [], 10)).toBe(`${'x'.repeat(10)}…`);
  });

  it('drops query and fragment from URLs', () => {
    expect(safeUrl('https://h/v1/chat?key=secret#x')).toBe('https://h/v1/chat');
  });
});
