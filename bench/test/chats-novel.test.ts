import { describe, expect, it } from 'vitest';
import { CHAT_KINDS } from '../chats/episodes.js';
import { categoryKind, CHATS_DEV_SEEDS, CHATS_DEV_SHORT_SEEDS, CHATS_HELDOUT_SEEDS, generateHistory } from '../chats/generate.js';
import { CHATS_NOVEL_SEEDS, generateNovelHistory, novelStyle } from '../chats/novel.js';
import { partHistories, partSeeds } from '../chats/chats.js';

const words = (t: string): number => t.split(/\s+/).length;

describe('chats novel part (issue 24)', () => {
  it('is deterministic for a seed, and its seeds are apart from dev and held-out', () => {
    expect(JSON.stringify(generateNovelHistory(201))).toBe(JSON.stringify(generateNovelHistory(201)));
    const others = new Set([...CHATS_DEV_SEEDS, ...CHATS_DEV_SHORT_SEEDS, ...CHATS_HELDOUT_SEEDS]);
    expect(CHATS_NOVEL_SEEDS.filter((s) => others.has(s))).toEqual([]);
    expect(CHATS_NOVEL_SEEDS.map(novelStyle)).toEqual(['long', 'short', 'long', 'short', 'long', 'short', 'long', 'short']);
  });

  it('long style: long assistant answers and some long user messages; short style: no turn over 60 words; role speakers only', () => {
    const long = generateNovelHistory(201);
    const asst = long.observations.filter((o) => o.speaker === 'assistant').map((o) => words(o.text));
    const user = long.observations.filter((o) => o.speaker === 'user').map((o) => words(o.text));
    expect(Math.min(...asst)).toBeGreaterThanOrEqual(100);
    expect(user.filter((n) => n > 100).length).toBeGreaterThan(10);
    const short = generateNovelHistory(202);
    expect(Math.max(...short.observations.map((o) => words(o.text)))).toBeLessThanOrEqual(60);
    for (const h of [long, short]) {
      expect(new Set(h.observations.map((o) => o.speaker))).toEqual(new Set(['user', 'assistant']));
      expect(h.observations.length).toBeGreaterThanOrEqual(300);
    }
  });

  it('asks three questions of every kind, none phrased as in the dev or held-out parts, with evidence of the right role', () => {
    const base = new Set([...CHATS_DEV_SEEDS, ...CHATS_HELDOUT_SEEDS].flatMap((s) => generateHistory(s).questions.map((q) => q.question)));
    for (const seed of CHATS_NOVEL_SEEDS.slice(0, 4)) {
      const h = generateNovelHistory(seed);
      const byId = new Map(h.observations.map((o) => [o.turnId, o]));
      for (const k of CHAT_KINDS) expect(h.questions.filter((q) => categoryKind(q.category) === k)).toHaveLength(3);
      for (const q of h.questions) {
        expect(base.has(q.question)).toBe(false);
        const kind = categoryKind(q.category);
        for (const e of q.evidence) expect(byId.get(e)?.speaker).toBe(kind === 'single-session-assistant' ? 'assistant' : 'user');
        if (kind === 'knowledge-update') expect(q.evidence).toHaveLength(1);
      }
    }
  });

  it('dev holds short-reply histories (no turn over 100 words); parts list their seeds in history order', () => {
    const h = generateHistory(CHATS_DEV_SHORT_SEEDS[0] as number, { short: true });
    expect(Math.max(...h.observations.map((o) => words(o.text)))).toBeLessThanOrEqual(100);
    expect(h.sampleId).toBe(`chats-${CHATS_DEV_SHORT_SEEDS[0]}-short`);
    expect(partSeeds('dev')).toEqual([...CHATS_DEV_SEEDS, ...CHATS_DEV_SHORT_SEEDS]);
    expect(partHistories('dev')).toHaveLength(partSeeds('dev').length);
    expect(partHistories('novel')).toHaveLength(CHATS_NOVEL_SEEDS.length);
  });
});
