import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partHistories, partSeeds } from '../chats/chats.js';
import { PREF_DEV_COUNT, PREFERENCE_EPISODES, preferenceEpisodes } from '../chats/prefs.js';
import { TOPICS } from '../chats/topics.js';

describe('the preference parts of the chats bench (issue 24, prefs.ts)', () => {
  it('has 48 distinct questions, 32 dev and 16 held out, none worded as in the dev or novel generators', () => {
    expect(PREFERENCE_EPISODES).toHaveLength(48);
    expect(new Set(PREFERENCE_EPISODES.map((e) => e.question)).size).toBe(48);
    expect(preferenceEpisodes('prefdev')).toHaveLength(PREF_DEV_COUNT);
    expect(preferenceEpisodes('prefheld')).toHaveLength(48 - PREF_DEV_COUNT);
    const generators = ['episodes.ts', 'novel-episodes.ts', 'novel.ts', 'topics.ts'].map((f) => readFileSync(new URL(`../chats/${f}`, import.meta.url), 'utf8')).join('\n');
    for (const e of PREFERENCE_EPISODES) expect(generators.includes(e.question)).toBe(false);
    const topics = new Set(TOPICS.map((t) => t.name));
    for (const e of PREFERENCE_EPISODES) {
      expect(topics.has(e.topic) && topics.has(e.trap)).toBe(true);
      expect(e.evidence.split(/\s+/).length).toBeGreaterThanOrEqual(40); // a long user turn
    }
  });

  it('plants each question in a long history: its one evidence turn is a user turn holding the taste', () => {
    const hs = partHistories('prefdev').map((make) => make());
    expect(partSeeds('prefdev')).toEqual([301, 302, 303, 304]);
    expect(partSeeds('prefheld')).toEqual([351, 352]);
    const asked = hs.flatMap((h) => h.questions.map((q) => q.question));
    expect(asked).toEqual(preferenceEpisodes('prefdev').map((e) => e.question));
    for (const h of hs) {
      expect(h.observations.length).toBeGreaterThan(300);
      expect(new Set(h.observations.map((o) => o.speaker))).toEqual(new Set(['user', 'assistant']));
      for (const q of h.questions) {
        expect(q.category).toBe(3); // single-session-preference
        expect(q.evidence).toHaveLength(1);
        const turn = h.observations.find((o) => o.turnId === q.evidence[0]);
        const episode = PREFERENCE_EPISODES.find((e) => e.question === q.question);
        expect(turn?.speaker).toBe('user');
        expect(turn?.text.endsWith(episode?.evidence as string)).toBe(true);
      }
    }
    // Deterministic for a seed.
    expect(partHistories('prefdev')[0]?.().observations).toEqual(hs[0]?.observations);
  });
});
