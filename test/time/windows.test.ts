/**
 * Long texts (issue 22/25): chrono reads a text longer than TIME_WINDOW_CHARS in windows
 * (src/util/text-windows.ts), so the time extraction of a 100k-character text is linear in its
 * length, and finds the references one pass over the whole text finds: on LoCoMo sessions written
 * as one text, and on hand-made texts whose dates lie across the windows' edges.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadLocomo } from '../../bench/lib/data.js';
import { textWindows } from '../../src/util/text-windows.js';
import { timeChrono } from '../../src/util/time-gate.js';
import { extractTimeRefs, parseTimestamp, TIME_WINDOW_CHARS, TIME_WINDOW_OVERLAP } from '../../src/util/time.js';


const LOCOMO = process.env.JEV_MEM_LOCOMO_DATA || join(__dirname, '..', '..', '..', 'shared', 'data', 'locomo10.json');
const SAID = Date.parse('2023-05-08T13:56:00Z');
const ONE_PASS = Number.POSITIVE_INFINITY;

/** Filler sentences without time expressions, `n` characters or a little more. */
function filler(n: number, seed: number): string {
  const words = ['the', 'garden', 'looked', 'green', 'and', 'quiet', 'after', 'rain', 'while', 'we', 'talked', 'about', 'books'];
  let s = '';
  for (let i = seed; s.length < n; i++) s += (i % 9 === 8 ? '. ' : ' ') + (words[(i * 7) % words.length] as string);
  return `${s.trim()}. `;
}

describe('textWindows', () => {
  it('tiles the text with its kept parts and reads each with the overlap around it', () => {
    const text = filler(20_000, 1);
    const ws = textWindows(text, 2000, 200);
    expect(ws[0]?.from).toBe(0);
    expect(ws[ws.length - 1]?.to).toBe(text.length);
    for (let k = 0; k + 1 < ws.length; k++) expect(ws[k + 1]?.from).toBe(ws[k]?.to);
    for (const w of ws) {
      // A part is cut in the second half of its 2000 characters (the last one: what is left, ≤ 2200).
      if (w.to < text.length) expect(w.to - w.from).toBeGreaterThan(1000);
      expect(w.to - w.from).toBeLessThanOrEqual(2200);
      if (w.from > 0) expect(w.from - w.start).toBeGreaterThanOrEqual(200);
      if (w.to < text.length) expect(w.end - w.to).toBeGreaterThanOrEqual(200);
      // Cut just after a sentence end, never inside a word.
      if (w.from > 0) expect(text[w.from - 1]).toBe('.');
    }
    expect(textWindows('short text', 2000, 200)).toEqual([{ start: 0, end: 10, from: 0, to: 10 }]);
  });
});

describe('extractTimeRefs on long texts', () => {
  it('reads a 100k-character text in windows of at most a few thousand characters', () => {
    // chrono reads through timeChrono (util/time-gate.ts, issue 25): its calls are the windows
    const parse = vi.spyOn(timeChrono, 'parse');
    let text = '';
    for (let i = 0; text.length < 100_000; i++) text += `${filler(700, i)}We met on ${(i % 28) + 1} March 2023. `;
    const refs = extractTimeRefs(text, SAID);
    const lengths = parse.mock.calls.map((c) => (c[0] as string).length);
    parse.mockRestore();
    expect(lengths.length).toBeGreaterThan(40);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(TIME_WINDOW_CHARS + 5 * TIME_WINDOW_OVERLAP);
    // Each paragraph's date, once, in order: day (i mod 28) + 1 of March 2023.
    const paragraphs = text.split('We met on').length - 1;
    expect(refs.map((r) => r.start)).toEqual(Array.from({ length: paragraphs }, (_, i) => `2023-03-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`));
  });

  it('finds the references of one pass when dates and ranges lie across the window edges', () => {
    // A date range, a weekday with a tense, "this morning" and a bare year placed at every
    // distance from the first cut (about TIME_WINDOW_CHARS): each text is read in several windows.
    const pieces = ['from June 3 to June 9', 'last Friday', 'this morning', 'back in 2019', 'on 14 August', 'at 3pm tomorrow'];
    let checked = 0;
    for (const piece of pieces) {
      for (let shift = -40; shift <= 40; shift += 4) {
        const head = filler(TIME_WINDOW_CHARS + shift - 30, 3).slice(0, TIME_WINDOW_CHARS + shift - 30);
        const text = `${head} We were away ${piece}, she said. ${filler(3000, 5)}Then ${piece} again.`;
        const windowed = extractTimeRefs(text, SAID);
        expect(windowed).toEqual(extractTimeRefs(text, SAID, 0, undefined, ONE_PASS));
        // Both places found (a year written twice is one whole-year reference).
        expect(windowed.length).toBe(piece === 'back in 2019' ? 1 : 2);
        checked++;
      }
    }
    expect(checked).toBe(pieces.length * 21);
  });

  it.skipIf(!existsSync(LOCOMO))('finds on LoCoMo dev sessions, each written as one text, the references of one pass, and reads every turn in one pass', async () => {
    const data = await loadLocomo(LOCOMO);
    let sessions = 0;
    let refs = 0;
    for (const conv of data.conversations.slice(0, 5)) {
      const bySession = new Map<string, { text: string[]; at: number }>();
      for (const o of conv.observations) {
        expect(o.text.length).toBeLessThanOrEqual(TIME_WINDOW_CHARS + TIME_WINDOW_OVERLAP);
        const s = bySession.get(o.sessionId as string) ?? { text: [], at: parseTimestamp(o.observedAt as string) as number };
        s.text.push(o.text);
        bySession.set(o.sessionId as string, s);
      }
      for (const s of bySession.values()) {
        const text = s.text.join('\n');
        const windowed = extractTimeRefs(text, s.at);
        expect(windowed).toEqual(extractTimeRefs(text, s.at, 0, undefined, ONE_PASS));
        if (text.length > TIME_WINDOW_CHARS + TIME_WINDOW_OVERLAP) sessions++;
        refs += windowed.length;
      }
    }
    expect(sessions).toBeGreaterThan(50);
    expect(refs).toBeGreaterThan(100);
  });
});
