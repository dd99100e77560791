/**
 * The order bench's generator (bench/order/generate.ts): deterministic, and every question's
 * evidence is the holder's statement of the state right before (after) the anchor's, in time.
 */
import { describe, expect, it } from 'vitest';
import { generateOrderHistory, ORDER_DEV_SEEDS, ORDER_HELDOUT_SEEDS } from '../order/generate.js';
import { orderQuestion } from '../../src/read/order.js';

describe('generateOrderHistory', () => {
  it('is deterministic per seed and style, and the parts do not share seeds', () => {
    expect(generateOrderHistory(1, 'first')).toEqual(generateOrderHistory(1, 'first'));
    expect(generateOrderHistory(1, 'third').observations).not.toEqual(generateOrderHistory(2, 'third').observations);
    expect(ORDER_DEV_SEEDS.filter((s) => ORDER_HELDOUT_SEEDS.includes(s))).toEqual([]);
  });

  for (const style of ['first', 'third'] as const) {
    it(`${style} person: each evidence turn is the holder's, states the answer, and lies on the asked side of the anchor's turn, next to it among the holder's states of that kind`, () => {
      const h = generateOrderHistory(2, style);
      expect(h.questions.length).toBe(style === 'first' ? 12 : 24);
      const byTurn = new Map(h.observations.map((o) => [o.turnId as string, o]));
      for (const q of h.questions) {
        const oq = orderQuestion(q.question);
        expect(oq, q.question).toBeDefined();
        expect(oq?.relation).toBe(q.category === 1 ? 'before' : 'after');
        const gold = byTurn.get(q.evidence[0] as string);
        expect(gold?.text).toContain(q.answer);
        const holder = style === 'first' ? 'user' : h.speakers.find((s) => q.question.includes(s));
        expect(gold?.speaker).toBe(holder);
        const value = (oq?.anchor as string).replace(/^(?:the |\w+ joined )/, '');
        const anchor = h.observations.find((o) => o.speaker === holder && o.text.includes(value));
        expect(anchor, value).toBeDefined();
        const [tg, ta] = [Date.parse(gold?.observedAt as string), Date.parse(anchor?.observedAt as string)];
        expect(oq?.relation === 'before' ? tg < ta : tg > ta).toBe(true);
      }
    });
  }
});
