import { describe, expect, it } from 'vitest';
import { CHAT_KINDS } from '../chats/episodes.js';
import { categoryKind, CHATS_DEV_SEEDS, CHATS_HELDOUT_SEEDS, generateHistory, kindCategory } from '../chats/generate.js';
import { chatsTables, parseChatSystems, type ChatsResults } from '../chats/chats.js';

describe('chats generator (issue 24)', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateHistory(101);
    const b = generateHistory(101);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(generateHistory(102).observations)).not.toBe(JSON.stringify(a.observations));
  });

  it('keeps dev and held-out seeds apart', () => {
    expect(CHATS_DEV_SEEDS.filter((s) => CHATS_HELDOUT_SEEDS.includes(s))).toEqual([]);
  });

  it('makes histories of the style asked for: 300-500 turns, role speakers, long assistant answers, dated sessions', () => {
    for (const seed of [11, 101]) {
      const h = generateHistory(seed);
      expect(h.observations.length).toBeGreaterThanOrEqual(300);
      expect(h.observations.length).toBeLessThanOrEqual(500);
      expect(new Set(h.observations.map((o) => o.speaker))).toEqual(new Set(['user', 'assistant']));
      const words = (t: string): number => t.split(/\s+/).length;
      const assistant = h.observations.filter((o) => o.speaker === 'assistant').map((o) => words(o.text));
      const user = h.observations.filter((o) => o.speaker === 'user').map((o) => words(o.text));
      expect(Math.min(...assistant)).toBeGreaterThanOrEqual(120);
      expect(Math.max(...assistant)).toBeLessThanOrEqual(450);
      expect(Math.max(...user)).toBeLessThan(80);
      const sessions = new Set(h.observations.map((o) => o.sessionId));
      expect(sessions.size).toBeGreaterThan(40);
      const times = h.observations.map((o) => Date.parse(o.observedAt as string));
      expect(times.every((t, i) => i === 0 || t > (times[i - 1] as number))).toBe(true);
    }
  });

  it('asks three questions of every kind whose evidence resolves to turns of the right role', () => {
    const h = generateHistory(103);
    const byId = new Map(h.observations.map((o) => [o.turnId, o]));
    for (const k of CHAT_KINDS) expect(h.questions.filter((q) => categoryKind(q.category) === k)).toHaveLength(3);
    for (const q of h.questions) {
      const kind = categoryKind(q.category);
      expect(q.evidence.length).toBeGreaterThan(0);
      for (const e of q.evidence) {
        const o = byId.get(e);
        expect(o).toBeDefined();
        expect(o?.speaker).toBe(kind === 'single-session-assistant' ? 'assistant' : 'user');
      }
      if (kind === 'multi-session' || kind === 'temporal-reasoning') expect(new Set(q.evidence.map((e) => e.split(':')[0])).size).toBeGreaterThanOrEqual(2);
      if (kind === 'knowledge-update') expect(q.evidence).toHaveLength(1);
    }
  });

  it('gives each knowledge-update question its outdated turn: a user turn said before the evidence, in the same words as the old value', () => {
    for (const seed of [11, 17]) {
      const h = generateHistory(seed, { short: seed === 17 });
      const at = (id: string): number => h.observations.findIndex((o) => o.turnId === id);
      const ku = h.questions.filter((q) => categoryKind(q.category) === 'knowledge-update');
      expect(ku).toHaveLength(3);
      for (const q of ku) {
        expect(q.outdated).toHaveLength(1);
        const old = h.observations[at(q.outdated?.[0] as string)];
        expect(old?.speaker).toBe('user');
        expect(at(q.outdated?.[0] as string)).toBeLessThan(at(q.evidence[0] as string));
        // the outdated plants of episodes.ts state the old value in one of these frames
        expect(old?.text).toMatch(/We have lived in|I work as a|My 5k personal best is|I go to the gym|I'm still using my old/);
      }
      expect(h.questions.filter((q) => categoryKind(q.category) !== 'knowledge-update' && q.outdated !== undefined)).toEqual([]);
    }
  });

  it('maps kinds to category numbers and back', () => {
    CHAT_KINDS.forEach((k, i) => {
      expect(kindCategory(k)).toBe(i + 1);
      expect(categoryKind(i + 1)).toBe(k);
    });
  });
});

describe('chats report', () => {
  it('parses --systems and refuses an unknown one', () => {
    expect(parseChatSystems(undefined)).toEqual(['jev-mem', 'bm25', 'hybrid']);
    expect(parseChatSystems('bm25, jev-mem')).toEqual(['bm25', 'jev-mem']);
    expect(() => parseChatSystems('bm25,orama')).toThrow(/unknown chats system "orama"/);
  });

  it('prints one row per kind with R@5 and R@10 of each system', () => {
    const g = (r5: number, r10: number, n: number) => ({ n, recall: { 5: r5, 10: r10, 20: 1 }, hit: { 5: 0, 10: 0, 20: 0 } });
    const r: ChatsResults = {
      format: 'jev-mem/bench-chats',
      seeds: { dev: [1], heldout: [2] },
      histories: { dev: { turns: 0, questions: 0 }, heldout: { turns: 400, questions: 2 } },
      systems: { 'jev-mem': { heldout: { byKind: { 'single-session-user': g(0.5, 1, 2) }, overall: g(0.5, 1, 2) } }, bm25: { heldout: { byKind: { 'single-session-user': g(0, 0.5, 2) }, overall: g(0, 0.5, 2) } } },
    };
    const lines = chatsTables(r);
    expect(lines).toContain('| single-session-user | 2 | 50.0 | 100.0 | 0.0 | 50.0 |');
    expect(lines).toContain('| overall | 2 | 50.0 | 100.0 | 0.0 | 50.0 |');
    expect(lines.some((l) => l.startsWith('### Dev'))).toBe(false);
  });
});
