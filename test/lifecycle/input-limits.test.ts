/**
 * Issue 22, bounded input: text with nothing visible (white space, zero-width and other invisible
 * characters only) is refused; metadata is at most 16 KiB as JSON (UTF-8 bytes) and 16 levels
 * deep; a JSONL file that starts with a UTF-8 byte-order mark is read; messages that echo input
 * show invisible characters as escapes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { describeValue, isJevMemError } from '../../src/errors.js';
import { parseJsonl, parseQuestions } from '../../src/formats/jsonl.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { lifecycleFixture } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('limits', (e) => (encoder = e));
let memory: Memory;
beforeAll(async () => {
  memory = await createMemory({ encoder, storage: createMemoryStorage() });
});

async function errorOf(p: Promise<unknown>): Promise<Error & { code?: string; field?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

/** Metadata nested `levels` deep: the metadata object is level 1 (`{}`), `{ a: {} }` is 2. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

describe('text with nothing visible', () => {
  it.each([
    ['zero-width space', '\u200b'],
    ['zero-width joiners and a byte-order mark', '\u200d\u200c\ufeff'],
    ['word joiner between spaces', ' \u2060 '],
    ['soft hyphen', '\u00ad'],
    ['Mongolian vowel separator', '\u180e'],
    ['Hangul filler', '\u3164'],
    ['control characters', '\u0000\u0007\n\t'],
    ['line and paragraph separators', '\u2028\u2029'],
  ])('refuses %s with INVALID_INPUT naming the text, escaped in the message', async (_label, text) => {
    const before = (await memory.stats()).nodes;
    const e = await errorOf(memory.add({ text }));
    expect(isJevMemError(e, 'INVALID_INPUT')).toBe(true);
    expect(e.field).toBe('observation.text');
    expect(e.message).toMatch(/\\u[0-9a-f]{4}/);
    expect(e.message).not.toMatch(/[\u0000\u0007\u00ad\u180e\u200b-\u200d\u2028\u2029\u2060\u3164\ufeff]/);
    expect((await memory.stats()).nodes).toBe(before);
  });

  it('refuses the whole batch when one text is invisible, writing nothing', async () => {
    const before = (await memory.stats()).nodes;
    const e = await errorOf(memory.addMany([{ text: 'a visible one' }, { text: '\u200b\u200b' }]));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'observations[1].text' });
    expect((await memory.stats()).nodes).toBe(before);
  });

  it('keeps text that has a visible character, invisible ones included, verbatim', async () => {
    const text = 'zero\u200bwidth inside, then an emoji 👩\u200d👩';
    const { id } = await memory.add({ text });
    expect((await memory.get(id))?.text).toBe(text);
  });

  it('refuses a recall query with nothing visible', async () => {
    expect(await errorOf(memory.recall('\u200b\ufeff'))).toMatchObject({ code: 'INVALID_INPUT', field: 'query' });
  });
});

describe('metadata limits', () => {
  // {"k":"…"} is 8 bytes around the value; é is 2 bytes in UTF-8.
  it('accepts metadata of exactly 16 KiB as UTF-8 JSON', async () => {
    const metadata = { k: 'é'.repeat(8188) }; // 8 + 16,376 = 16,384 bytes
    const { id } = await memory.add({ text: 'sixteen KiB of metadata', metadata });
    expect((await memory.get(id))?.provenance.metadata).toEqual(metadata);
  });

  it('refuses one byte more with TOO_LARGE naming the metadata, counting bytes not characters', async () => {
    const before = (await memory.stats()).nodes;
    // 8,197 characters, 16,386 bytes.
    const e = await errorOf(memory.add({ text: 'too much metadata', metadata: { k: 'é'.repeat(8189) } }));
    expect(e).toMatchObject({ code: 'TOO_LARGE', field: 'observation.metadata' });
    expect(e.message).toContain('16386 bytes');
    expect((await memory.stats()).nodes).toBe(before);
  });

  it('accepts 16 levels of nesting and refuses 17 with INVALID_INPUT', async () => {
    await memory.add({ text: 'deep but allowed', metadata: nested(16) });
    const e = await errorOf(memory.add({ text: 'too deep', metadata: nested(17) }));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'observation.metadata' });
    expect(e.message).toContain('16 levels');
  });

  it('counts arrays as levels too', async () => {
    let v: unknown = [];
    for (let i = 2; i <= 17; i++) v = [v];
    expect(await errorOf(memory.add({ text: 'deep arrays', metadata: { a: v } }))).toMatchObject({ code: 'INVALID_INPUT', field: 'observation.metadata' });
  });

  it('refuses metadata that refers to itself, and a deep nest of 100,000 levels without overflowing the stack', async () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(await errorOf(memory.add({ text: 'loop', metadata: loop }))).toMatchObject({ code: 'INVALID_INPUT', field: 'observation.metadata' });
    expect(await errorOf(memory.add({ text: 'very deep', metadata: nested(100_000) }))).toMatchObject({ code: 'INVALID_INPUT', field: 'observation.metadata' });
  });

  it('refuses values JSON would drop or change without a word, naming their path; writes nothing', async () => {
    const before = (await memory.stats()).nodes;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ f: () => 1 }, 'observation.metadata.f'],
      [{ n: Number.NaN }, 'observation.metadata.n'],
      [{ deep: { list: [1, Number.POSITIVE_INFINITY] } }, 'observation.metadata.deep.list[1]'],
      [{ s: Symbol('x') }, 'observation.metadata.s'],
      [{ b: 10n }, 'observation.metadata.b'],
    ];
    for (const [metadata, path] of cases) {
      const e = (await errorOf(memory.add({ text: 'odd metadata', metadata }))) as { code: string; field: string; message: string };
      expect([e.code, e.field]).toEqual(['INVALID_INPUT', 'observation.metadata']);
      expect(e.message).toContain(`(at ${path})`);
    }
    expect((await memory.stats()).nodes).toBe(before);
  });
});

describe('JSONL with a byte-order mark', () => {
  it('skips a UTF-8 BOM at the start of a JSONL file', () => {
    expect(parseJsonl('\ufeff{"text":"first"}\r\n{"text":"second"}\n')).toEqual([{ text: 'first' }, { text: 'second' }]);
  });

  it('skips a BOM at the start of a questions file', () => {
    expect(parseQuestions('\ufeffWhere is the key?\n')).toEqual([{ question: 'Where is the key?' }]);
  });

  it('names a line that starts with an invisible character, showing it as an escape', () => {
    let e: (Error & { field?: string }) | undefined;
    try {
      parseJsonl('{"text":"first"}\n\u200b{"text":"second"}\n');
    } catch (err) {
      e = err as Error;
    }
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'line 2' });
    expect(e?.message).toContain('\\u200b');
    expect(e?.message).not.toContain('\u200b');
  });
});

describe('messages that echo input', () => {
  it('show a string value with its invisible characters escaped, as JSON does for controls', () => {
    expect(describeValue('a\u200bb\u202e')).toBe('"a\\u200bb\\u202e" (a string)');
    expect(describeValue('line\nnext\u0000')).toBe('"line\\nnext\\u0000" (a string)');
  });

  it('name a bad observedAt without printing its zero-width space raw', async () => {
    const e = await errorOf(memory.add({ text: 'dated', observedAt: '\u200byesterday' }));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'observation.observedAt' });
    expect(e.message).toContain('"\\u200byesterday" (a string)');
    expect(e.message).not.toContain('\u200b');
  });
});
