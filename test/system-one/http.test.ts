// Tests of src/util/http.ts (the retry / timeout pieces shared by the System-One and System-Two clients).
import { describe, expect, it } from 'vitest';
import { backoffDelay, excerpt, parseRetryAfter, readEventStream, safeUrl, withRetries } from '../../src/util/http.js';
import { JevMemError } from '../../src/errors.js';

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

describe('withRetries', () => {
  const policy = { retries: 3, timeoutMs: 1000, deadlineAt: Infinity, sleep: async () => undefined, backoff: () => 10 };

  it('throws a non-retryable error at once', async () => {
    let calls = 0;
    const error = new Error('no');
    await expect(
      withRetries(policy, async () => {
        calls++;
        return { ok: false, retry: false, error };
      }, () => new Error('deadline')),
    ).rejects.toBe(error);
    expect(calls).toBe(1);
  });

  it('gives each attempt the time left when it is below timeoutMs', async () => {
    let now = 0;
    const timeouts: number[] = [];
    await withRetries(
      { ...policy, deadlineAt: 1500, now: () => now, sleep: async (ms: number) => void (now += ms) },
      async (i, t) => {
        timeouts.push(t);
        now += t;
        return i < 1 ? { ok: false, retry: true, error: new Error('x') } : { ok: true, value: 1 };
      },
      () => new Error('deadline'),
    );
    expect(timeouts).toEqual([1000, 490]);
  });

  it('rejects with ABORTED when the signal has fired', async () => {
    const c = new AbortController();
    c.abort();
    await expect(withRetries({ ...policy, signal: c.signal }, async () => ({ ok: true, value: 1 }), () => new Error('d'))).rejects.toMatchObject({
      code: 'ABORTED',
    } satisfies Partial<JevMemError>);
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
