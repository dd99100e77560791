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

  it('refuses a max that is not a positive integer', () => {
    for (const max of [0, -1, 1.5, Number.NaN]) expect(() => new GrowingLru({ max })).toThrow(RangeError);
  });
});
