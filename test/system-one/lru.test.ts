import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LruMap } from '../../src/system-one/lru.js';

describe('LruMap', () => {
  it('evicts the least recently set entry on overflow', () => {
    const m = new LruMap<string, number>(2).set('a', 1).set('b', 2).set('c', 3);
    expect([...m.keys()]).toEqual(['b', 'c']);
    expect(m.get('a')).toBeUndefined();
  });

  it('counts a get as a use', () => {
    const m = new LruMap<string, number>(2).set('a', 1).set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect([...m.keys()]).toEqual(['a', 'c']);
  });

  it('replaces an existing key without growing', () => {
    const m = new LruMap<string, number>(2).set('a', 1).set('a', 5);
    expect(m.size).toBe(1);
    expect(m.get('a')).toBe(5);
  });

  it('stores nothing with maxSize 0', () => {
    const m = new LruMap<string, number>(0).set('a', 1);
    expect(m.size).toBe(0);
    expect(m.get('a')).toBeUndefined();
  });

  it('clear removes every entry', () => {
    const m = new LruMap<string, number>(3).set('a', 1).set('b', 2);
    m.clear();
    expect(m.size).toBe(0);
  });

  it('refuses a negative maxSize', () => {
    expect(() => new LruMap(-1)).toThrow(RangeError);
  });

  it('behaves like a reference model for any sequence of gets and sets', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 6 }), value: fc.integer() }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
        const lru = new LruMap<number, number>(max);
        let model: Array<[number, number]> = []; // least recent first
        for (const o of ops) {
          const found = model.find(([k]) => k === o.key);
          if (o.kind === 'get') {
            expect(lru.get(o.key)).toBe(found?.[1]);
            if (found) model = [...model.filter(([k]) => k !== o.key), found];
          } else {
            lru.set(o.key, o.value);
            model = [...model.filter(([k]) => k !== o.key), [o.key, o.value]];
            if (model.length > max) model = model.slice(model.length - max);
          }
          expect([...lru.keys()]).toEqual(model.map(([k]) => k));
        }
      }),
    );
  });
});
