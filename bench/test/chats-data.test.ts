/**
 * The chats bench's `data` part (bench/chats/data.ts): a generated history written in the
 * LongMemEval layout and read back gives the same turns (text, role, session order), the same
 * evidence texts and a session clock to the minute; the question date is kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { questionDate } from '../chats/chats.js';
import { layoutDate, longMemEvalRecordOf, readDataPart } from '../chats/data.js';
import { generateHistory } from '../chats/generate.js';

describe('chats --data (LongMemEval layout)', () => {
  it('writes session dates as the layout does', () => {
    expect(layoutDate('2023-05-20T02:21:59.000Z')).toBe('2023/05/20 (Sat) 02:21');
  });

  it('round-trips a generated history: turns, roles, evidence texts, question date', async () => {
    const h = generateHistory(11);
    const asked = questionDate(h);
    const records = h.questions.slice(0, 3).map((_, i) => longMemEvalRecordOf(h, i, asked));
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-chats-data-'));
    try {
      writeFileSync(join(dir, 'lme.json'), JSON.stringify(records));
      const part = await readDataPart(join(dir, 'lme.json'), 2);
      expect(part.histories).toHaveLength(2);
      const back = part.histories[1]?.();
      expect(back?.observations.map((o) => [o.speaker, o.text])).toEqual(h.observations.map((o) => [o.speaker, o.text]));
      expect(back?.askedAt).toBe(`${asked.slice(0, 16)}:00.000Z`);
      const text = new Map(back?.observations.map((o) => [o.turnId, o.text]));
      const orig = new Map(h.observations.map((o) => [o.turnId, o.text]));
      expect(back?.questions[0]?.evidence.map((e) => text.get(e))).toEqual(h.questions[1]?.evidence.map((e) => orig.get(e)));
      // every turn is dated at its session's first turn, to the minute
      const first = new Map<string, string>();
      for (const o of h.observations) if (!first.has(String(o.sessionId))) first.set(String(o.sessionId), String(o.observedAt));
      expect(back?.observations.every((o) => o.observedAt === `${first.get(String(o.sessionId))?.slice(0, 16)}:00.000Z`)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
