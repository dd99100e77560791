/**
 * The growing LRU map of the namespace caches (issue 22): bounded like `lru-cache`, but memory
 * is taken per entry, not for `max` slots up front.
 */
import { describe, expect, it } from 'vitest';
import { GrowingLru } from '../../src/util/lru.js';

describe('GrowingLru', () => {
  it('drops the least recently used entry past max; get refreshes, peek and has do not', () => {
    const lru = new GrowingLru<string, number>({ max: 3 });
    lru.set('a', 1).set('b', 2).set('c', 3);
    expect(lru.get('a')).toBe(1); // a is now the most recent: b is the least
    expect(lru.peek('b')).toBe(2); // no refresh
    expect(lru.has('b')).toBe(true);
    lru.set('d', 4);
    expect([...lru.keys()]).toEqual(['c', 'a', 'd']);
    lru.set('c', 30); // a set refreshes too
    lru.set('e', 5);
    expect([...lru.keys()]).toEqual(['d', 'c', 'e']);
    expect([...lru.values()]).toEqual([4, 30, 5]);
    expect(lru.size).toBe(3);
    expect(lru.delete('c')).toBe(true);
    expect(lru.delete('c')).toBe(false);
    expect(lru.get('c')).toBeUndefined();
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it('keeps the order a reference model keeps through 5,000 mixed operations (get, set, peek, delete, clear)', () => {
    // Reference: an array of keys, least recently used first, with the values beside it.
    const lru = new GrowingLru<number, number>({ max: 7 });
    const order: number[] = [];
    const values = new Map<number, number>();
    let x = 12345; // a fixed linear congruential sequence: the same operations on every run
    const next = (n: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 8) % n;
    };
    for (let i = 0; i < 5000; i++) {
      const key = next(12);
      const op = next(100);
      if (op < 40) {
        lru.set(key, i);
        if (values.has(key)) order.splice(order.indexOf(key), 1);
        order.push(key);
        values.set(key, i);
        if (order.length > 7) values.delete(order.shift() as number);
      } else if (op < 75) {
        expect(lru.get(key)).toBe(values.get(key));
        if (values.has(key)) order.push(...order.splice(order.indexOf(key), 1));
      } else if (op < 85) {
        expect(lru.peek(key)).toBe(values.get(key));
      } else if (op < 99) {
        expect(lru.delete(key)).toBe(values.delete(key));
        if (order.includes(key)) order.splice(order.indexOf(key), 1);
      } else {
        lru.clear();
        order.length = 0;
        values.clear();
      }
      expect([...lru.keys()]).toEqual(order);
      expect([...lru.values()]).toEqual(order.map((k) => values.get(k)));
      expect(lru.size).toBe(order.length);
    }
  });

  it('refuses a max that is not a positive integer', () => {
    for (const max of [0, -1, 1.5, Number.NaN]) expect(() => new GrowingLru({ max })).toThrow(RangeError);
  });
});
