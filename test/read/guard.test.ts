import { describe, expect, it } from 'vitest';
import { asksCurrent, asksSuggestion, GUARD_COSINE_SPAN, GUARD_COSINE_WEIGHT, GUARD_LONG_WEIGHT, GUARD_OTHER_ROLE, GUARD_PASSAGE_WEIGHT, GUARD_PREFERENCE, GUARD_RECENCY, GUARD_ROLE_WEIGHT, GUARD_TASTE, GUARD_TASTE_SPAN, guardedScores, guardReading, guardWeight, isRole, LONG_TURN_WORDS, otherRolePrior, questionRole, type GuardCandidate } from '../../src/read/guard.js';
import type { MemoryNode } from '../../src/types.js';

function node(id: string, text: string, speaker: string | undefined, observedAt: string, seq = 0): MemoryNode {
  return { id, text, seq, observedAt, provenance: speaker === undefined ? {} : { speaker }, status: 'active', types: [], timeRefs: [], entities: [], keywords: [], supersededBy: [], duplicates: [] } as unknown as MemoryNode;
}
const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('guardReading (issue 24: distance from System One training range, by feature)', () => {
  it('is 0 on short turns by named speakers; twice the share of turns over LONG_TURN_WORDS, capped at 1', () => {
    const short = node('a', words(LONG_TURN_WORDS), 'Ana', '2024-01-01T00:00:00Z');
    const long = node('b', words(LONG_TURN_WORDS + 1), 'Ben', '2024-01-01T00:00:00Z');
    expect(GUARD_LONG_WEIGHT).toBe(2);
    expect(guardWeight([])).toBe(0);
    expect(guardReading([short, short, short])).toEqual({ long: 0, roles: 0, g: 0 }); // exactly LONG_TURN_WORDS words is in range
    expect(guardWeight([long, short, short, short])).toBe(0.5); // 2 × 1/4
    expect(guardWeight([long, long, short])).toBe(1); // 2 × 2/3 capped
  });

  it('fires on role speakers without any long turn (a short-turn user/assistant history)', () => {
    const u = node('u', 'I adopted a beagle.', 'user', '2024-01-01T00:00:00Z');
    const a = node('a', 'Congratulations on the beagle!', 'Assistant', '2024-01-01T00:00:00Z');
    const named = node('n', 'I adopted a beagle.', 'Maya', '2024-01-01T00:00:00Z');
    const none = node('x', 'I adopted a beagle.', undefined, '2024-01-01T00:00:00Z');
    expect(guardReading([u, a, u, a])).toEqual({ long: 0, roles: 1, g: GUARD_ROLE_WEIGHT });
    expect(guardReading([u, named, none, named])).toEqual({ long: 0, roles: 0.25, g: GUARD_ROLE_WEIGHT * 0.25 });
    expect(guardWeight([none, named])).toBe(0); // no speaker is not a role
  });

  it('takes the larger of the two readings', () => {
    const longRole = node('l', words(LONG_TURN_WORDS + 50), 'assistant', '2024-01-01T00:00:00Z');
    const shortRole = node('s', 'Thanks!', 'user', '2024-01-01T00:00:00Z');
    const r = guardReading([longRole, shortRole, shortRole, shortRole, shortRole]);
    expect(r.long).toBeCloseTo(0.2, 12);
    expect(r.roles).toBe(1);
    expect(r.g).toBeCloseTo(Math.min(1, Math.max(GUARD_LONG_WEIGHT * 0.2, GUARD_ROLE_WEIGHT)), 12);
  });

  it('isRole knows roles in any case, not names', () => {
    expect(isRole('user')).toBe(true);
    expect(isRole(' AI ')).toBe(true);
    expect(isRole('assistant')).toBe(true);
    expect(isRole('Maya')).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});

describe('questionRole', () => {
  it('finds the assistant in questions about what "you" said, the user otherwise', () => {
    expect(questionRole('What book on habits did you recommend to me?')).toBe('assistant');
    expect(questionRole('Remind me which neighbourhood you suggested for Lisbon')).toBe('assistant');
    expect(questionRole('What was the recipe you had mentioned last time?')).toBe('assistant');
    expect(questionRole('What camera accessories would you suggest for me?')).toBe('user');
    expect(questionRole('Where do I work now?')).toBe('user');
    expect(questionRole('How long should I hold the stretch you showed me?')).toBe('assistant'); // irregular past
    expect(questionRole('Which trail had you mapped out for the weekend?')).toBe('assistant'); // -ed after "you had"
    expect(questionRole('What was in your suggestion for the party?')).toBe('assistant');
    expect(questionRole('Do you need more details from me?')).toBe('user');
    expect(questionRole('What would you need to plan my trip?')).toBe('user');
    expect(questionRole('Is your advice different for beginners?')).toBe('assistant');
    expect(questionRole('Can you recommend a series for the weekend?')).toBe('user');
  });
});

describe('asksCurrent', () => {
  it('is true for now / currently / these days / at the moment only', () => {
    expect(asksCurrent('Where do I live now?')).toBe(true);
    expect(asksCurrent('How often do I go to the gym these days?')).toBe(true);
    expect(asksCurrent('What phone am I using at the moment?')).toBe(true);
    expect(asksCurrent('Which company am I working for currently?')).toBe(true);
    expect(asksCurrent('What breed is my dog?')).toBe(false);
    expect(asksCurrent('How many days passed between the two trips?')).toBe(false);
  });
});

describe('asksSuggestion', () => {
  it('is true for requests for suggestions, false for questions about facts', () => {
    expect(asksSuggestion('Can you recommend a series for the weekend?')).toBe(true);
    expect(asksSuggestion('Any ideas for what to bake this weekend?')).toBe(true);
    expect(asksSuggestion('What should I put on at the dinner party tonight?')).toBe(true);
    expect(asksSuggestion('What could we play at game night?')).toBe(true);
    expect(asksSuggestion('Could you help me pick a restaurant for Saturday?')).toBe(true);
    expect(asksSuggestion('Can you help us choose a plant for the desk?')).toBe(true);
    expect(asksSuggestion('What kind of dog would suit me?')).toBe(true);
    expect(asksSuggestion('Can you help me understand my rent contract?')).toBe(false);
    expect(asksSuggestion('Does the blue jacket suit the occasion?')).toBe(false);
    expect(asksSuggestion('What breed is my dog?')).toBe(false);
    expect(asksSuggestion('Where do I live now?')).toBe(false);
  });
});

describe('guardedScores', () => {
  const c = (n: MemoryNode, score: number, lexical: number, cosine: number): GuardCandidate => ({ node: n, score, lexical, cosine });

  it('returns the scores unchanged when g = 0', () => {
    const list = [c(node('a', 'x', 'user', '2024-01-01T00:00:00Z'), 0.7, 1, 0.9), c(node('b', 'y', 'assistant', '2024-01-02T00:00:00Z'), 0.2, 0.1, 0.1)];
    expect(guardedScores(list, 'What did I buy?', 0)).toEqual([0.7, 0.2]);
  });

  it('with g = 1 orders by role prior × ((1 − α)·BM25 + α·passage + β·rescaled cosine), normalised by the best', () => {
    // A user question over role speakers: the assistant turn's G is scaled by GUARD_OTHER_ROLE.
    // Query stems {breed, dog}; the answer holds neither (p = 0), the user turn "dog" (p = 1/2 with unit weights).
    const a = c(node('a', 'long answer', 'assistant', '2024-01-01T00:00:00Z'), 0.9, 1, 0.8);
    const u = c(node('u', 'I adopted a dog', 'user', '2024-01-01T00:00:00Z'), 0.1, 0.8, 0.8 - GUARD_COSINE_SPAN / 2);
    const al = GUARD_PASSAGE_WEIGHT;
    const [ga, gu] = guardedScores([a, u], 'What breed is my dog?', 1) as [number, number];
    const rawA = GUARD_OTHER_ROLE * ((1 - al) * 1 + al * 0 + GUARD_COSINE_WEIGHT * 1);
    const rawU = 1 * ((1 - al) * 0.8 + al * 0.5 + GUARD_COSINE_WEIGHT * 0.5);
    expect(gu).toBeCloseTo(1, 10);
    expect(ga).toBeCloseTo(rawA / rawU, 10);
    // g = 0.5 mixes half and half.
    const [ha, hu] = guardedScores([a, u], 'What breed is my dog?', 0.5) as [number, number];
    expect(ha).toBeCloseTo(0.5 * 0.9 + 0.5 * (rawA / rawU), 10);
    expect(hu).toBeCloseTo(0.5 * 0.1 + 0.5, 10);
  });

  it('relaxes the other-role prior when only the other role holds the query (h-break15 finding 4)', () => {
    // Query stems {kyoto, osaka, bullet, train}, unit weights. One long assistant answer holds all
    // four in one sentence (p = 1); the user's turns hold none (p_w = 0) but are nearer by cosine.
    const filler = 'Japan rewards slow travel. Book rooms early in spring. ';
    const answer = `${filler.repeat(4)}The bullet train from Kyoto to Osaka takes about fifteen minutes. ${filler.repeat(3)}`;
    const a = c(node('a', answer, 'assistant', '2024-01-01T00:00:00Z'), 0.6, 1, 0.35);
    const cello = c(node('u1', 'My cousin Malik plays the cello in an orchestra.', 'user', '2024-01-02T00:00:00Z'), 0.01, 0, 0.5);
    const jog = c(node('u2', 'I jog 5k along the river on Saturdays.', 'user', '2024-01-03T00:00:00Z'), 0.01, 0, 0.45);
    const [sa, s1, s2] = guardedScores([a, cello, jog], 'Kyoto Osaka bullet train', 1) as [number, number, number];
    // ρ = max(0.2, 1 − 0) = 1: G(a) = 0.2·1 + 0.8·1 + 0.3·(0.35 − 0.3)/0.2, G(cello) = 0.3·1
    expect(otherRolePrior(1, 0)).toBe(1);
    expect(sa).toBeCloseTo(1, 10);
    expect(s1).toBeCloseTo(GUARD_COSINE_WEIGHT / ((1 - GUARD_PASSAGE_WEIGHT) + GUARD_PASSAGE_WEIGHT + GUARD_COSINE_WEIGHT * 0.25), 10);
    expect(s2).toBeLessThan(s1);
    // a question in words: stems {bullet, train, goe, kyoto, osaka}, p = 4/5, ρ = 0.8² = 0.64: still first
    const [qa, q1] = guardedScores([a, cello, jog], 'Which bullet train goes from Kyoto to Osaka?', 1) as [number, number, number];
    expect(qa).toBeCloseTo(1, 10);
    expect(q1).toBeCloseTo(GUARD_COSINE_WEIGHT / (0.64 * ((1 - GUARD_PASSAGE_WEIGHT) + GUARD_PASSAGE_WEIGHT * 0.8 + GUARD_COSINE_WEIGHT * 0.25)), 10);
    // The prior stays where the user's own turn holds as much of the query as the assistant's talk:
    // stems {malik, wed}; the user turn and the assistant's tips hold one each (p = p_w = 1/2).
    const tips = c(node('t', 'Wedding planning tips: book the venue early and keep a budget. A wedding needs a list.', 'assistant', '2024-01-01T00:00:00Z'), 0.5, 1, 0.5);
    const plant = c(node('p', 'Malik is getting married in Lyon next June.', 'user', '2024-01-02T00:00:00Z'), 0.1, 0.6, 0.45);
    expect(otherRolePrior(0.5, 0.5)).toBe(GUARD_OTHER_ROLE);
    const [st, sp] = guardedScores([tips, plant], "Where is Malik's wedding?", 1) as [number, number];
    expect(sp).toBeCloseTo(1, 10);
    expect(st).toBeLessThan(sp);
    // in between: ρ = (p − p_w)², never below the prior nor above 1; one word of three keeps the prior
    expect(otherRolePrior(0.9, 0.3)).toBeCloseTo(0.36, 12);
    expect(otherRolePrior(1 / 3, 0)).toBe(GUARD_OTHER_ROLE);
    expect(otherRolePrior(0.3, 0.2)).toBe(GUARD_OTHER_ROLE);
  });

  it('ranks a long answer by its best passage: the one sentence with the fact beats words repeated all over', () => {
    // Query stems {wine, pair, risotto}, unit weights. Both answers: same BM25 and cosine.
    const filler = 'Cooking for guests is fun. Taste as you go.';
    const repeats = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'Good wine matters.' : 'A creamy risotto takes time.')).join(' ');
    const fact = `${filler} Pair the risotto with a chilled Soave wine. ${filler}`;
    const r = c(node('r', repeats, 'assistant', '2024-01-01T00:00:00Z'), 0.5, 1, 0.7);
    const f = c(node('f', fact, 'assistant', '2024-01-01T00:00:00Z'), 0.5, 1, 0.7);
    const [sr, sf] = guardedScores([r, f], 'What wine did you pair with my risotto?', 1) as [number, number];
    const al = GUARD_PASSAGE_WEIGHT;
    const rawR = (1 - al) + al * (2 / 3) + GUARD_COSINE_WEIGHT; // best window: wine + risotto
    const rawF = (1 - al) + al * 1 + GUARD_COSINE_WEIGHT;
    expect(sf).toBeCloseTo(1, 10);
    expect(sr).toBeCloseTo(rawR / rawF, 10);
    // An IDF that makes "wine" rare weighs its presence more.
    const [sr2] = guardedScores([r, f], 'What wine did you pair with my risotto?', 1, { idf: (t) => (t === 'pair' ? 4 : 1) }) as [number, number];
    expect(sr2).toBeCloseTo(((1 - al) + al * (2 / 6) + GUARD_COSINE_WEIGHT) / rawF, 10);
  });

  it('when the user asks for a suggestion, multiplies G by 1 + π·preference type; not for questions about facts or about what "you" said', () => {
    const n = (id: string, pref: number): MemoryNode => ({ ...node(id, 'zzz', 'user', '2024-01-01T00:00:00Z'), types: { episodic: 0, semantic: 0, procedural: 0, preference: pref } }) as MemoryNode;
    const taste = c(n('t', 1), 0, 0.5, 0.5);
    const plain = c(n('p', 0), 0, 0.5, 0.5);
    const [st, sp] = guardedScores([taste, plain], 'Can you recommend a film for tonight?', 1) as [number, number];
    expect(st).toBeCloseTo(1, 10);
    expect(sp).toBeCloseTo(1 / (1 + GUARD_PREFERENCE), 10);
    const [ft, fp] = guardedScores([taste, plain], 'What film did I watch?', 1) as [number, number];
    expect(ft).toBeCloseTo(fp, 10);
  });

  it('gives named speakers no role prior, and the latest turn the recency boost when the question asks for now', () => {
    // No text holds a query stem, so p = 0 for all.
    const old = c(node('o', 'Our home is in Denver', 'Ana', '2024-01-01T00:00:00Z'), 0, 1, 0.5);
    const neu = c(node('n', 'Our home is in Austin', 'Ana', '2024-03-01T00:00:00Z'), 0, 1, 0.5);
    const mid = c(node('m', 'unrelated', 'Ben', '2024-02-01T00:00:00Z'), 0, 0, 0.5);
    const s = guardedScores([old, neu, mid], 'Where do we live now?', 1) as [number, number, number];
    const base = 1 - GUARD_PASSAGE_WEIGHT + GUARD_COSINE_WEIGHT; // equal cosines are all the best: z̃ = 1
    const top = base * (1 + GUARD_RECENCY);
    expect(s[1]).toBeCloseTo(1, 10);
    expect(s[0]).toBeCloseTo(base / top, 10);
    expect(s[2]).toBeCloseTo((GUARD_COSINE_WEIGHT * (1 + (GUARD_RECENCY * 31) / 60)) / top, 10); // 1 Feb is 31 of the 60 days
  });

  it("adds μ·m̃ (the user's taste, rescaled against the best) inside G for a suggestion request only", () => {
    // Same lexical, passage (query stems absent from 'zzz') and cosine: only the taste differs.
    // Tastes: best 0.9 → m̃ = 1; 0.9 − span/2 → m̃ = 1/2; none → 0.
    const t = (id: string): GuardCandidate => c(node(id, 'zzz', 'user', '2024-01-01T00:00:00Z'), 0, 0, 0.5);
    const list = [t('a'), t('b'), t('c')];
    const taste = new Map([['a', 0.9 - GUARD_TASTE_SPAN / 2], ['b', 0.9]]);
    const base = GUARD_COSINE_WEIGHT; // z̃ = 1 for all: every cosine is the best
    const s = guardedScores(list, 'Could you recommend a restaurant?', 1, { taste });
    const top = base + GUARD_TASTE;
    expect(s[1]).toBeCloseTo(1, 10);
    expect(s[0]).toBeCloseTo((base + GUARD_TASTE / 2) / top, 10);
    expect(s[2]).toBeCloseTo(base / top, 10);
    // A question about a fact, or about what "you" suggested, ignores the tastes.
    expect(guardedScores(list, 'Where is the restaurant?', 1, { taste })).toEqual([1, 1, 1]);
    expect(guardedScores(list, 'Which restaurant did you suggest?', 1, { taste })).toEqual([1, 1, 1]);
  });
});
