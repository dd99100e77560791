import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partHistories, partSeeds } from '../chats/chats.js';
import { TOPICS } from '../chats/topics.js';
import { WILD_EPISODES, wildEpisodes } from '../chats/wild.js';

describe('the wild parts of the chats bench (issue 24, wild.ts)', () => {
  it('has 24 dev and 18 held-out questions, disjoint, none worded as in the other generators', () => {
    expect(WILD_EPISODES.dev).toHaveLength(24);
    expect(WILD_EPISODES.held).toHaveLength(18);
    const all = [...WILD_EPISODES.dev, ...WILD_EPISODES.held];
    expect(new Set(all.map((e) => e.question)).size).toBe(42);
    const others = ['episodes.ts', 'novel-episodes.ts', 'novel.ts', 'topics.ts', 'prefs.ts'].map((f) => readFileSync(new URL(`../chats/${f}`, import.meta.url), 'utf8')).join('\n');
    const topics = new Set(TOPICS.map((t) => t.name));
    for (const e of all) {
      expect(others.includes(e.question)).toBe(false);
      for (const x of e.evidence) expect(others.includes(x)).toBe(false);
      expect(topics.has(e.topic)).toBe(true);
      if (e.kind === 'single-session-preference') expect(e.evidence).toHaveLength(1);
      else expect(e.evidence.length >= 2 && e.evidence.length <= 3).toBe(true);
    }
  });

  it('plants every evidence turn as a user turn, a multi-session question in different sessions, among long first-person user turns', () => {
    expect(partSeeds('wilddev')).toEqual([401, 402, 403, 404]);
    expect(partSeeds('wildheld')).toEqual([451, 452, 453]);
    const hs = partHistories('wilddev').map((make) => make());
    expect(hs.flatMap((h) => h.questions.map((q) => q.question)).sort()).toEqual(wildEpisodes('wilddev').map((e) => e.question).sort());
    for (const h of hs) {
      expect(h.observations.length).toBeGreaterThan(400);
      const users = h.observations.filter((o) => o.speaker === 'user');
      // Most user turns are long first-person requests, not one-line questions.
      const long = users.filter((o) => o.text.split(/\s+/).length >= 25 && /\b(I|I'm|I've|my|My|We|we)\b/.test(o.text));
      expect(long.length / users.length).toBeGreaterThan(0.8);
      for (const q of h.questions) {
        const e = WILD_EPISODES.dev.find((x) => x.question === q.question);
        expect(q.category).toBe(e?.kind === 'multi-session' ? 4 : 3);
        const turns = q.evidence.map((id) => h.observations.find((o) => o.turnId === id));
        expect(turns.map((t) => t?.text)).toEqual(e?.evidence);
        for (const t of turns) expect(t?.speaker).toBe('user');
        expect(new Set(turns.map((t) => t?.sessionId)).size).toBe(turns.length);
      }
    }
    expect(partHistories('wilddev')[1]?.().observations).toEqual(hs[1]?.observations); // deterministic
  });

  it('wildlong: wilddev\'s questions on seeds 421-424, each evidence turn the planted text inside 40-140 words of first-person chatter', () => {
    expect(partSeeds('wildlong')).toEqual([421, 422, 423, 424]);
    const hs = partHistories('wildlong').map((make) => make());
    expect(hs.flatMap((h) => h.questions.map((q) => q.question)).sort()).toEqual(wildEpisodes('wilddev').map((e) => e.question).sort());
    for (const h of hs) {
      for (const q of h.questions) {
        const e = WILD_EPISODES.dev.find((x) => x.question === q.question);
        q.evidence.forEach((id, i) => {
          const t = h.observations.find((o) => o.turnId === id);
          const planted = e?.evidence[i] as string;
          expect(t?.speaker).toBe('user');
          expect(t?.text.includes(planted)).toBe(true);
          expect(t?.text.startsWith(planted)).toBe(false); // a context line comes first
          const words = (t?.text ?? '').split(/\s+/).length;
          expect([words >= 40, words <= 140]).toEqual([true, true]);
        });
      }
    }
  });
});
