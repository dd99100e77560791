import { describe, expect, it } from 'vitest';
import { asksPast, asksPresent, presentLift, questionTime, questionWindow, windowWeight, WINDOW_FLOOR } from '../../src/read/when.js';

const MON = Date.parse('2024-05-13T12:00:00Z'); // a Monday
const iso = (ms: number): string => new Date(ms).toISOString();
const span = (q: string, now = MON): [string, string] | undefined => {
  const w = questionWindow(q, now);
  return w === undefined ? undefined : [iso(w.startMs), iso(w.endMs)];
};

describe('questionWindow (when.ts)', () => {
  it('reads months, weekends, weeks ago, years, days, ranges and seasons against the clock, past tense to the last one before now', () => {
    expect(span('What did I do in March?')).toEqual(['2024-03-01T00:00:00.000Z', '2024-03-31T23:59:59.999Z']);
    expect(span('What did I do in June?')).toEqual(['2023-06-01T00:00:00.000Z', '2023-06-30T23:59:59.999Z']); // June 2024 is still ahead
    expect(span('What did I do in May?')).toEqual(['2024-05-01T00:00:00.000Z', '2024-05-31T23:59:59.999Z']); // the bare "May" chrono skips
    expect(span('What did I do last weekend?')).toEqual(['2024-05-11T00:00:00.000Z', '2024-05-12T23:59:59.999Z']);
    expect(span('What did I do two weeks ago?')).toEqual(['2024-04-29T00:00:00.000Z', '2024-05-05T23:59:59.999Z']);
    expect(span('What happened in 2023?')).toEqual(['2023-01-01T00:00:00.000Z', '2023-12-31T23:59:59.999Z']);
    expect(span('What did I eat yesterday?')).toEqual(['2024-05-12T00:00:00.000Z', '2024-05-12T23:59:59.999Z']);
    expect(span('What did I do between May and June?')).toEqual(['2024-05-01T00:00:00.000Z', '2024-06-30T23:59:59.999Z']); // June after May
    expect(span('What did I do in the spring?')).toEqual(['2024-03-01T00:00:00.000Z', '2024-05-31T23:59:59.999Z']);
    expect(span('What did I do last summer?')).toEqual(['2023-06-01T00:00:00.000Z', '2023-08-31T23:59:59.999Z']);
  });

  it('names no window for the present or a question without a time', () => {
    expect(span('Where do I work now?')).toBeUndefined();
    expect(span('What is Biscuit doing currently?')).toBeUndefined();
    expect(span('Who did I go climbing with?')).toBeUndefined();
  });
});

describe('windowWeight', () => {
  const march = questionWindow('What did I do in March?', MON) as NonNullable<ReturnType<typeof questionWindow>>;
  const sigma = (march.endMs + 1 - march.startMs) / 30 - 1 / 30; // (end − start)/30, end inclusive
  it('is 1 inside, exp(−d/σ) outside (σ = length/30), the best of event and observation times, 0 below the floor', () => {
    expect(windowWeight({ timeRefs: [], observedAt: '2024-03-15T10:00:00Z' }, march)).toBe(1);
    const d = Date.parse('2024-04-01T00:00:00Z') + 86_400_000 - march.endMs; // a day and 1 ms after March
    expect(windowWeight({ timeRefs: [], observedAt: '2024-04-02T00:00:00Z' }, march)).toBeCloseTo(Math.exp(-d / sigma), 9);
    expect(windowWeight({ timeRefs: [], observedAt: '2024-06-01T00:00:00Z' }, march)).toBe(0);
    expect(Math.exp(-(61 * 86_400_000) / sigma)).toBeLessThan(WINDOW_FLOOR);
    // observed in June about an event in March: the event counts (an interval at its middle)
    const ref = { text: 'March 10', start: '2024-03-10T00:00:00.000Z', end: '2024-03-10T23:59:59.999Z', certain: ['month', 'day'], certainty: 1 };
    expect(windowWeight({ timeRefs: [ref] as never, observedAt: '2024-06-01T00:00:00Z' }, march)).toBe(1);
    expect(windowWeight({ timeRefs: [] }, march)).toBe(0);
  });
});

describe('windows after the question (issue 24, round eight)', () => {
  it('marks a window that starts after the clock as future; there only event times weigh, not when a memory was said', () => {
    const next = questionWindow('What am I doing this weekend?', MON) as NonNullable<ReturnType<typeof questionWindow>>;
    expect([iso(next.startMs), next.future]).toEqual(['2024-05-18T00:00:00.000Z', true]);
    expect(questionWindow('What did I do last weekend?', MON)?.future).toBeUndefined();
    // said on the Friday evening before it, four hours before the window: the observation time counted exp(−4 h / 12 h) = 0.72 before
    expect(windowWeight({ timeRefs: [], observedAt: '2024-05-17T20:00:00Z' }, next)).toBe(0);
    const ref = { text: 'next Saturday', start: '2024-05-18T00:00:00.000Z', end: '2024-05-18T23:59:59.999Z', certain: ['day'], certainty: 1 };
    expect(windowWeight({ timeRefs: [ref] as never, observedAt: '2024-05-10T09:00:00Z' }, next)).toBe(1);
  });

  it('reads no window in a request for a suggestion: its time is the plan\'s ("a series to start this weekend"), not the evidence\'s', async () => {
    const state = { loadNodes: async () => undefined, nodes: new Map(), vector: { size: 0 } } as never;
    const ask = (query: string) => questionTime(state, { query, nowMs: MON, temporal: 1, queryVector: undefined, lexHits: [], passes: () => true }, []);
    expect((await ask('Can you recommend a series I could start this weekend?')).window).toBeUndefined();
    expect((await ask('What should I cook for dinner tonight?')).window).toBeUndefined();
    expect((await ask('What did I cook last weekend?')).window?.text).toBe('last weekend');
  });
});

describe('asksPresent', () => {
  it('is true for present markers and present-tense state questions, false for the past and the future', () => {
    for (const q of ['Where do I work now?', 'What city do I live in?', "What's my diet?", 'Am I vegetarian?', 'Which gym do I go to these days?', 'Is my sister still in Leeds?', 'What instrument am I learning at the moment?']) expect(asksPresent(q), q).toBe(true);
    for (const q of ['Where did I work before?', 'What was my first job?', 'Where will I live next year?', 'When did Caroline go to the support group?', 'What did I do now and then in 2022?']) expect(asksPresent(q), q).toBe(false);
  });
});

describe('asksPast (issue 24: a replaced state still answers it)', () => {
  it('is true for a past tense, a word of the past or a present perfect, false for the present and for questions with no time', () => {
    for (const q of ['Where did I live before I moved?', 'When did Caroline go to the support group?', 'What was my first job?', 'Which city did Maya use to live in?', 'What has Melanie painted?', 'Which events have they attended?', 'Where was Jon working two years ago?']) expect(asksPast(q), q).toBe(true);
    for (const q of ['Where do I live now?', 'What is my current 5k personal best?', 'Which company am I working for currently?', 'What is Caroline\'s relationship status?', 'Lisbon river', 'Where does Maya live?', 'What phone do I have now?']) expect(asksPast(q), q).toBe(false);
  });
});

describe('presentLift', () => {
  const node = (at: string, speaker = 'user') => ({ observedAt: at, provenance: { speaker } });
  const v = (...x: number[]) => Float32Array.from(x);
  it('raises the best-scored newer memory of the same speaker on a top memory\'s subject to its score × (1 + β_p); old ones keep theirs', () => {
    const items = [
      { node: node('2024-01-01T00:00:00Z'), score: 0.6, vector: v(1, 0) }, // the old fact, best match
      { node: node('2024-05-01T00:00:00Z'), score: 0.1, vector: v(0.8, 0.6) }, // cos 0.8: the update
      { node: node('2024-06-01T00:00:00Z'), score: 0.05, vector: v(0, 1) }, // cos 0 and 0.6 to the two above: another subject
      { node: node('2024-06-01T00:00:00Z', 'assistant'), score: 0.3, vector: v(1, 0) }, // same subject, other speaker
    ];
    expect(presentLift(items)).toEqual([0.6, 0.6 * 1.01, 0.05, 0.3]); // β_p = 0.01: just above the old fact
  });
  it('lifts no memory observed after the time the question is asked at (asOfMs, RecallOptions.now)', () => {
    const items = [
      { node: node('2024-01-01T00:00:00Z'), score: 0.6, vector: v(1, 0) },
      { node: node('2024-05-01T00:00:00Z'), score: 0.1, vector: v(0.8, 0.6) }, // the update, said after the question's time
    ];
    expect(presentLift(items, Date.parse('2024-03-01T00:00:00Z'))).toEqual([0.6, 0.1]);
    expect(presentLift(items, Date.parse('2024-05-01T00:00:00Z'))).toEqual([0.6, 0.6 * 1.01]); // said by then
  });
  it('changes nothing when no newer memory is on the subject (the only match keeps its place)', () => {
    const items = [
      { node: node('2024-05-01T00:00:00Z'), score: 0.6, vector: v(1, 0) },
      { node: node('2024-01-01T00:00:00Z'), score: 0.2, vector: v(1, 0) },
    ];
    expect(presentLift(items)).toEqual([0.6, 0.2]);
  });
});
