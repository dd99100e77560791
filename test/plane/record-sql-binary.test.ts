/**
 * The compact record value of the SQL record driver (stop 33, `record-sql-binary.ts`): every
 * value reads back as the JSON format (format 1) read it, node records keep their checksum, the
 * dictionary is append-only, and format 1 BLOBs are still read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BINARY_FORMAT, DICTIONARY } from '../../src/plane/drivers/record-sql-binary.js';
import { decodeRecordValue, encodeRecordValue, encodeRecordValueV1 } from '../../src/plane/drivers/record-sql-codec.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { nodeRecordSound, toNodeRecord } from '../../src/plane/store/record-codec.js';
import { makeNode } from './fixtures.js';

const ID = '000093f0-7d32-4966-8e73-ccd93b85b686';

describe('the SQL record value, format 2', () => {
  it('reads every JSON value back as format 1 did (members, order, numbers, strings with lone surrogates or U+0000)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, key) => {
        const v1 = decodeRecordValue(encodeRecordValueV1(value));
        const v2 = decodeRecordValue(encodeRecordValue(value, key), key);
        expect(v2).toStrictEqual(v1);
        expect(JSON.stringify(v2)).toBe(JSON.stringify(v1));
      }),
      { numRuns: 400 },
    );
    const odd = { n: -0, big: 2 ** 60, neg: -12.5, tiny: 1.2345678901234567e-300, third: 0.1 + 0.2, inf: Infinity, nan: NaN, u: undefined, list: [undefined, 1], lone: '\ud800x', k: '\udc00', nul: '\u0000b0', t: '2026-12-03T08:09:22.162Z', t2: '2026-12-03T08:09:22Z', far: '+020000-01-01T00:00:00.000Z', old: '1969-12-31T23:59:59.999Z', words: ['active', 'precedes'] };
    const v1 = decodeRecordValue(encodeRecordValueV1(odd));
    expect(decodeRecordValue(encodeRecordValue(odd, 'k'), 'k')).toStrictEqual(v1);
    expect(JSON.stringify(v1)).toBe(JSON.stringify(odd));
  });

  it('keeps a node record whole and sound at about half the bytes of format 1, its id stored as one byte', () => {
    const node = makeNode('ns', ID, 43748, "John Garcia: No problem! It's great to use our own experiences to inspire others.");
    node.embedding = { encoder: 'glove-sif-100d@570e285e1bf3', vector: quantizeVector(Array.from({ length: 100 }, (_, i) => Math.sin(i))) };
    const record = toNodeRecord(node);
    const blob = encodeRecordValue(record, ID);
    expect(blob[0]).toBe(BINARY_FORMAT);
    const back = decodeRecordValue(blob, ID) as typeof record;
    expect(back).toStrictEqual(decodeRecordValue(encodeRecordValueV1(record)));
    expect(nodeRecordSound(back)).toBe(true);
    const v1 = encodeRecordValueV1(record).length;
    expect(blob.length).toBeLessThan(v1 * 0.62);
    // the id as the key: 36 bytes less than with another key
    expect(encodeRecordValue(record, 'other').length - blob.length).toBe(1 + 1 + 36 - 1); // tag, length, bytes less the one-byte reference
    // without the key a reference to it is a damaged record
    expect(() => decodeRecordValue(blob)).toThrow(/its key/);
  });

  it('fails on damage it can see: a cut value, an unknown tag, bytes after the structure', () => {
    const blob = encodeRecordValue({ a: 'text', b: [1, 2] });
    expect(() => decodeRecordValue(blob.subarray(0, blob.length - 1))).toThrow(/shorter than its structure/);
    const bad = blob.slice();
    bad[bad.length - 1] = 0xee;
    expect(() => decodeRecordValue(bad)).toThrow();
  });

  it('reads a format 1 BLOB (a store written before stop 33) as before', () => {
    const value = { s: ['temporal', 'é'], b: new Uint8Array([1, 2]), f: new Float32Array([0.5]), t: '\u0000x' };
    const back = decodeRecordValue(encodeRecordValueV1(value), 'key') as typeof value;
    expect(back.s).toEqual(['temporal', 'é']);
    expect([...back.b]).toEqual([1, 2]);
    expect([...back.f]).toEqual([0.5]);
    expect(back.t).toBe('\u0000x');
  });

  it('keeps its dictionary append-only (stored records name words by position)', () => {
    expect(DICTIONARY.slice(0, 32)).toEqual([
      'id', 'text', 'observedAt', 'ingestedAt', 'provenance', 'source', 'speaker', 'sessionId',
      'turnId', 'metadata', 'entities', 'keywords', 'timeRefs', 'types', 'episodic', 'semantic',
      'procedural', 'preference', 'embedding', 'encoder', 'bytes', 'status', 'supersededBy', 'seq',
      'sum', 'start', 'end', 'certain', 'certainty', 's', 'b', 'duplicates',
    ]);
    expect(DICTIONARY.length).toBe(79);
    expect(DICTIONARY.slice(32).join(',')).toBe(
      'utcOffsetMinutes,timeZone,vector,nodes,checkpointBytes,edges,byView,explicit,floor,change,format,parts,sums,supersededAt,namespace,' +
        'active,superseded,deleted,year,month,day,hour,temporal,causal,entity,rule,system-one,precedes,same_session,close_in_time,before,after,' +
        'during,contains,overlaps,same_time,leads_to,related,redundant,contradicts,updates,same_entity,session-start,shared-entity,consecutive-turns,' +
        'jev-mem/system-one@1.2.0,glove-sif-100d@570e285e1bf3',
    );
    expect(new Set(DICTIONARY).size).toBe(DICTIONARY.length); // 'semantic' is a key and a view, once
  });
});
