/**
 * Issue 23: the metadata filter (read/filter.ts) over hand-built nodes: fields, operators,
 * combinators, ISO-date comparison, and refusals naming the path.
 */
import { describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { compileNodeFilter, fieldValue, MAX_FILTER_TERMS } from '../../src/read/filter.js';
import type { MemoryNode } from '../../src/types.js';

function node(id: string, provenance: MemoryNode['provenance'], observedAt?: string): MemoryNode {
  return {
    id,
    namespace: 'n',
    text: id,
    ingestedAt: '2024-01-01T00:00:00.000Z',
    provenance,
    entities: [],
    keywords: [],
    timeRefs: [],
    types: { episodic: 1, semantic: 0, procedural: 0, preference: 0 },
    embedding: { encoder: 'e', vector: [] },
    status: 'active',
    supersededBy: [],
    seq: 1,
    ...(observedAt ? { observedAt } : {}),
  };
}

const A = node('a', { speaker: 'Maya', metadata: { userId: 'u1', priority: 3, tags: ['pets', 'home'], due: '2024-03-01', nested: { level: 'x' } } }, '2023-05-01T10:00:00.000Z');
const B = node('b', { speaker: 'Theo', sessionId: 's2', metadata: { userId: 'u2', priority: 7, due: '2024-04-15T12:00:00+02:00' } }, '2023-06-01T10:00:00.000Z');
const C = node('c', { speaker: 'Maya' });
const ALL = [A, B, C];
const ids = (f: unknown): string[] => ALL.filter(compileNodeFilter(f, 'options.filter')).map((n) => n.id);

describe('filter fields', () => {
  it('reads node fields, metadata keys and dotted metadata paths', () => {
    expect(fieldValue(A, 'speaker')).toBe('Maya');
    expect(fieldValue(A, 'observedAt')).toBe('2023-05-01T10:00:00.000Z');
    expect(fieldValue(A, 'userId')).toBe('u1');
    expect(fieldValue(A, 'metadata.nested.level')).toBe('x');
    expect(fieldValue(C, 'userId')).toBeUndefined();
    expect(fieldValue(A, 'metadata.toString')).toBeUndefined();
  });

  it('observedAt of a memory written without one is its ingestedAt (the time the window reads)', () => {
    expect(fieldValue(C, 'observedAt')).toBe('2024-01-01T00:00:00.000Z');
    expect(ids({ observedAt: { $gte: '2023-12-31' } })).toEqual(['c']);
    expect(ids({ observedAt: { $lt: '2023-05-15' } })).toEqual(['a']);
  });
});

describe('conditions', () => {
  it('equality, arrays matching one element, $ne and $nin matching absent fields', () => {
    expect(ids({ speaker: 'Maya' })).toEqual(['a', 'c']);
    expect(ids({ tags: 'pets' })).toEqual(['a']);
    expect(ids({ userId: { $ne: 'u1' } })).toEqual(['b', 'c']);
    expect(ids({ userId: { $in: ['u1', 'u2'] } })).toEqual(['a', 'b']);
    expect(ids({ userId: { $nin: ['u1'] } })).toEqual(['b', 'c']);
    expect(ids({ sessionId: { $exists: false } })).toEqual(['a', 'c']);
    expect(ids({ userId: { $exists: true } })).toEqual(['a', 'b']);
  });

  it('numbers and ISO dates compare; a value of the other kind does not match', () => {
    expect(ids({ priority: { $gt: 3 } })).toEqual(['b']);
    expect(ids({ priority: { $gte: 3, $lt: 7 } })).toEqual(['a']);
    // 2024-04-15T12:00+02:00 is 10:00 UTC, so it is before 2024-04-15T11:00Z.
    expect(ids({ due: { $lt: '2024-04-15T11:00:00Z' } })).toEqual(['a', 'b']);
    expect(ids({ due: { $gt: '2024-03-01' } })).toEqual(['b']);
    // c has no observedAt: its time is its ingestedAt, 2024-01-01.
    expect(ids({ observedAt: { $gte: '2023-06-01' } })).toEqual(['b', 'c']);
    expect(ids({ speaker: { $gt: 1 } })).toEqual([]);
  });

  it('$and, $or, $not and implicit and', () => {
    expect(ids({ $or: [{ speaker: 'Theo' }, { priority: 3 }] })).toEqual(['a', 'b']);
    expect(ids({ speaker: 'Maya', $not: { userId: 'u1' } })).toEqual(['c']);
    expect(ids({ $and: [{ speaker: 'Maya' }, { userId: { $exists: true } }] })).toEqual(['a']);
  });
});

describe('refusals name the path', () => {
  const field = (f: unknown): string | undefined => {
    try {
      compileNodeFilter(f, 'options.filter');
    } catch (e) {
      return isJevMemError(e, 'INVALID_INPUT') ? e.details.field : 'other error';
    }
    return undefined;
  };
  it('unknown operators, bad bounds, bad literals, empty $or, too many terms', () => {
    expect(field({ a: { $regex: 'x' } })).toBe('options.filter.a.$regex');
    expect(field({ a: { $gt: 'tomorrow' } })).toBe('options.filter.a.$gt');
    expect(field({ a: { $in: 'x' } })).toBe('options.filter.a.$in');
    expect(field({ a: { $in: [{}] } })).toBe('options.filter.a.$in[0]');
    expect(field({ $or: [] })).toBe('options.filter.$or');
    expect(field({ $or: [{ b: { $exists: 1 } }] })).toBe('options.filter.$or[0].b.$exists');
    expect(field({ $where: 'x' })).toBe('options.filter.$where');
    expect(field([])).toBe('options.filter');
    // An unset variable never widens a filter to everything.
    expect(field({ userId: undefined })).toBe('options.filter.userId');
    expect(field({ $or: [{ speaker: 'Maya' }, { userId: undefined }] })).toBe('options.filter.$or[1].userId');
    const many = Object.fromEntries(Array.from({ length: MAX_FILTER_TERMS + 1 }, (_, i) => [`k${i}`, 1]));
    expect(field(many)).toBe(`options.filter.k${MAX_FILTER_TERMS}`);
  });
});
