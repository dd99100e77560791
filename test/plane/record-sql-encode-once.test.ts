/**
 * The write path of the SQL record driver encodes a value once (issue 22, h-nodeperf): the seal
 * is written in front of the encoded bytes (`encodeSealed`) instead of copying them behind it,
 * and a key or namespace name is bound as its UTF-8 bytes without TextEncoder when it is ASCII.
 * Both must give the very bytes the two-step forms give, or stored records would read as damaged
 * (a seal over other bytes) or be looked up under another key.
 */
import { describe, expect, it } from 'vitest';
import { encodeRecordValue, sqlKey } from '../../src/plane/drivers/record-sql-codec.js';
import { SEALED, encodeSealed, readRecordValue, sealValue } from '../../src/plane/drivers/record-sql-seal.js';
import { makeNode } from './fixtures.js';

describe('encodeSealed', () => {
  const node = makeNode('alpha', '3e750364-a3d5-46ee-826d-7ec99128360f', 1);
  const values: Array<[string, unknown, string | number]> = [
    ['a node record', node, node.id],
    ['bytes', { format: 2, bytes: new Uint8Array([1, 2, 3, 250]) }, 'k'],
    ['a number key', ['x', 1.5, null, true], 7],
    ['text needing UTF-8 and UTF-16', { t: 'é \u{1F600} \ud800 x'.repeat(40) }, 'ключ'],
  ];
  it.each(values)('gives the bytes of sealValue(encodeRecordValue(…)) for %s', (_name, value, key) => {
    const once = encodeSealed(value, key);
    expect(once).toStrictEqual(sealValue(encodeRecordValue(value, key)));
    expect(once[0]).toBe(SEALED);
    expect(readRecordValue('meta', once, key)).toStrictEqual(readRecordValue('meta', sealValue(encodeRecordValue(value, key)), key));
  });
  it('a changed byte after the seal still fails it', () => {
    const once = encodeSealed({ a: 'text' }, 'k');
    once[once.length - 1] ^= 1;
    expect(readRecordValue('meta', once, 'k')).toMatchObject({ reason: 'checksum' });
  });
});

describe('sqlKey', () => {
  it.each(['', 'alpha', '3e750364-a3d5-46ee-826d-7ec99128360f', 'tenant:alice\u0000x', 'é', 'a\u{1F600}', 'lone \ud800 surrogate', 'x'.repeat(64), 'é'.repeat(65), 'y'.repeat(300)])('binds %j as its UTF-8 bytes (as TextEncoder)', (s) => {
    expect(sqlKey(s)).toStrictEqual(new TextEncoder().encode(s));
  });
  it('binds a number as itself', () => {
    expect(sqlKey(42)).toBe(42);
  });
});
