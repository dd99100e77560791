/**
 * `fromNodeRecord` (record-codec.ts) gives back the node a record stores as object rest and
 * spread did before it copied in one pass (issue 25, h-readperf): the same own keys in the same
 * order, `namespace` in the place a stored `namespace` key held or after the other keys, the
 * embedding last with its vector last, `sum` and the vector bytes left out, and `__proto__` a
 * plain property, never the prototype.
 */
import { describe, expect, it } from 'vitest';
import { fromNodeRecord, type NodeRecord } from '../../src/plane/store/record-codec.js';
import { encodeVector } from '../../src/plane/indexes/vector-codec.js';

/** Keys of an object and of every object under it, in order, with the prototype's kind. */
function shape(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(shape);
  if (x === null || typeof x !== 'object' || ArrayBuffer.isView(x)) return x;
  return { plain: Object.getPrototypeOf(x) === Object.prototype, entries: Reflect.ownKeys(x).map((k) => [String(k), shape((x as Record<string, unknown>)[k as string])]) };
}

describe('fromNodeRecord', () => {
  it('copies every key but embedding and sum in order, then namespace, then the embedding with its vector last', () => {
    const record = {
      id: 'n1',
      text: 'hello',
      seq: 4,
      status: 'active',
      embedding: { encoder: 'glove', bytes: encodeVector([0.5, -0.25]), dim: 2 },
      sum: 123,
      observedAt: '2024-01-01T00:00:00.000Z',
      provenance: { speaker: 'Ana' },
    } as unknown as NodeRecord;
    const node = fromNodeRecord('ns', record);
    expect(Object.keys(node)).toEqual(['id', 'text', 'seq', 'status', 'observedAt', 'provenance', 'namespace', 'embedding']);
    expect(Object.keys(node.embedding)).toEqual(['encoder', 'dim', 'vector']);
    expect(node.embedding.vector).toEqual([0.5, -0.25]);
    expect(node.provenance).toBe(record.provenance); // values are shared, not cloned, as a spread shares them
    expect('sum' in node).toBe(false);
  });

  it('keeps a stored namespace key in its place (with the new value), integer-like keys first, and __proto__ as data', () => {
    const record = JSON.parse('{"b":1,"namespace":"old","__proto__":{"polluted":true},"7":"seven","embedding":{"bytes":null,"vector":[9],"encoder":"e"},"sum":1}') as Record<string, unknown>;
    (record.embedding as Record<string, unknown>).bytes = encodeVector([1]);
    const node = fromNodeRecord('ns', record as unknown as NodeRecord) as unknown as Record<string, unknown>;
    expect(shape(node)).toEqual({
      plain: true,
      entries: [
        ['7', 'seven'],
        ['b', 1],
        ['namespace', 'ns'],
        ['__proto__', { plain: true, entries: [['polluted', true]] }],
        ['embedding', { plain: true, entries: [['encoder', 'e'], ['vector', [1]]] }],
      ],
    });
    expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
    expect(node.polluted).toBeUndefined();
  });
});
