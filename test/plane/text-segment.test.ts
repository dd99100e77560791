/**
 * Word segmentation of unspaced scripts in bounded pieces (h-break14 finding 1): `Intl.Segmenter`
 * costs more than linear time in the length of the string it is given, so 100,000 Japanese
 * characters took seconds per write and per recall. The segmenter is now given at most
 * `SEGMENT_CHUNK_CHARS` code units at once, and the tokens stay those of one call over the
 * whole text.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { evictTextCaches, tokenize } from '../../src/plane/text/text.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('text-segment', (e) => (encoder = e));

/** `SEGMENT_CHUNK_CHARS` of src/plane/text/segment.ts (written out: the test reads the same on f3d5c55, where it fails). */
const SEGMENT_CHUNK_CHARS = 1000;

const SEG = new Intl.Segmenter('und', { granularity: 'word' });
const TOKEN = /[\p{L}\p{M}\p{N}]+|\p{RI}{2}|(?:\p{Extended_Pictographic}|\p{So})(?:[\u{FE0E}\u{FE0F}\u{1F3FB}-\u{1F3FF}]|\u200D(?:\p{Extended_Pictographic}|\p{So}))*/gu;

/** tokenize as f3d5c55 wrote it for unspaced text: the whole text given to the segmenter in one call. */
function wholeTextTokens(text: string): string[] {
  const out: string[] = [];
  for (const s of SEG.segment(text.normalize('NFC').toLowerCase())) {
    if (!s.isWordLike && /^[\s\p{P}]*$/u.test(s.segment)) continue;
    for (const m of s.segment.matchAll(TOKEN)) {
      const t = m[0];
      out.push((t.codePointAt(0) as number) > 0x2000 && !/^[\p{L}\p{M}\p{N}]/u.test(t) ? t.replace(/[\u{FE0E}\u{FE0F}]/gu, '') : t);
    }
  }
  return out;
}

const SAMPLES: Record<string, string> = {
  chinese: '我今天去了公园，然后吃了饭。',
  chineseUnpunctuated: '我今天去了公园然后吃了饭',
  japanese: '今日は公園に行って、それから昼ご飯を食べました。',
  japaneseUnpunctuated: '今日は公園に行ってそれから昼ご飯を食べました',
  thai: 'วันนี้ฉันไปสวนสาธารณะ ',
  thaiUnspaced: 'วันนี้ฉันไปสวนสาธารณะ',
  mixed: "Caroline 去了 LGBTQ 小组 3.14 🎉👨‍👩‍👧 don't 東京タワー。",
};

function repeatTo(base: string, n: number): string {
  return base.repeat(Math.ceil(n / base.length)).slice(0, n);
}

/** Every string `Intl.Segmenter#segment` is given while `run` runs. */
function segmenterInputs(run: () => void): string[] {
  const seen: string[] = [];
  const original = Intl.Segmenter.prototype.segment;
  vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, input: string) {
    seen.push(input);
    return original.call(this, input);
  });
  run();
  vi.restoreAllMocks();
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe('tokenize: unspaced scripts in bounded pieces', () => {
  it('gives a text under the piece size to the segmenter whole, with the tokens of one call', () => {
    for (const base of Object.values(SAMPLES)) {
      const text = repeatTo(base, SEGMENT_CHUNK_CHARS - 1);
      let tokens: string[] = [];
      const inputs = segmenterInputs(() => {
        tokens = tokenize(text);
      });
      expect(inputs).toEqual([text.normalize('NFC').toLowerCase()]);
      expect(tokens).toEqual(wholeTextTokens(text));
    }
  });

  it('never gives the segmenter more than SEGMENT_CHUNK_CHARS, and each character once (linear work)', () => {
    for (const [name, base] of Object.entries(SAMPLES)) {
      const text = repeatTo(base, 30_000);
      const inputs = segmenterInputs(() => tokenize(text));
      const longest = Math.max(...inputs.map((s) => s.length));
      const total = inputs.reduce((a, s) => a + s.length, 0);
      expect(longest, name).toBeLessThanOrEqual(SEGMENT_CHUNK_CHARS);
      // Pieces cut at white space or punctuation cover the text once; a piece cut inside a run
      // of letters gives back at most its last 32 characters and one word to the next piece.
      expect(total, name).toBeLessThanOrEqual(text.length * 1.1);
      expect(total, name).toBeGreaterThanOrEqual(text.length);
    }
  });

  it('keeps the tokens of the whole text for long texts, cut at punctuation, white space or inside a run', () => {
    for (const [name, base] of Object.entries(SAMPLES)) {
      for (const n of [SEGMENT_CHUNK_CHARS + 1, 5_000, 30_000]) {
        const text = repeatTo(base, n);
        expect(tokenize(text), `${name} ${n}`).toEqual(wholeTextTokens(text));
      }
    }
  });

  it('does not cut a surrogate pair or an emoji sequence at a piece end', () => {
    // 999 Han characters, then emoji with no white space or punctuation: the hard cut falls
    // among the emoji, at a segment boundary.
    const text = `${'猫'.repeat(SEGMENT_CHUNK_CHARS - 1)}${'👨‍👩‍👧😀'.repeat(300)}`;
    expect(tokenize(text)).toEqual(wholeTextTokens(text));
  });
});

describe('tokenize: a long unspaced text is segmented once', () => {
  const text = repeatTo(SAMPLES.japanese as string, 20_000);

  it('gives the segmenter a long text once; a second tokenize copies the tokens; evictTextCaches drops them', () => {
    evictTextCaches(undefined);
    let first: string[] = [];
    expect(segmenterInputs(() => (first = tokenize(text))).join('')).toBe(text);
    first.push('changed by the caller');
    let second: string[] = [];
    expect(segmenterInputs(() => (second = tokenize(text)))).toEqual([]);
    expect(second).toEqual(wholeTextTokens(text)); // the caller's change is not in the cache
    evictTextCaches([text]);
    expect(segmenterInputs(() => tokenize(text)).join('')).toBe(text);
  });
});

describe('recall: stored long texts are not segmented again at every recall', () => {
  it('two memories of 20,000 Japanese characters: a recall gives the segmenter only the query', async () => {
    const memory = await createMemory({ encoder });
    await memory.add({ text: `0${text20k()}`, observedAt: '2024-05-01T10:00:00Z' });
    await memory.add({ text: `1${text20k()}`, observedAt: '2024-05-01T10:00:00Z' });
    for (const query of ['公園に行って', '昼ご飯を食べました']) {
      let found = 0;
      let inputs: string[] = [];
      const original = Intl.Segmenter.prototype.segment;
      vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, input: string) {
        inputs.push(input);
        return original.call(this, input);
      });
      found = (await memory.recall(query)).memories.length;
      vi.restoreAllMocks();
      expect(found).toBe(2);
      // f3d5c55 gave it each stored text three times or more (candidate terms, answer cues, words).
      expect(inputs.reduce((a, s) => a + s.length, 0)).toBeLessThan(1_000);
      inputs = [];
    }
    await memory.close();
  });
});

function text20k(): string {
  return repeatTo(SAMPLES.japanese as string, 20_000).slice(1);
}
