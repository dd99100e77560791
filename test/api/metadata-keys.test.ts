/**
 * Metadata keys a filter could not reach (issue 22, hostile review): a key that begins with `$`
 * is filtered by its path (`metadata.$x`), and the refusal of a bare `$x` says so; keys that
 * differ only by Unicode normalisation (NFC "é" U+00E9, NFD "e" + U+0301) are one key, stored NFC
 * and filtered either way.
 */
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory.js';
import { compileNodeFilter } from '../../src/read/filter.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { checkMetadata } from '../../src/util/metadata.js';
import { errorOf } from '../lifecycle/helpers.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('metadata-keys', (e) => (encoder = e));

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

describe('a metadata key that begins with $', () => {
  it('is stored, and filtered by its path metadata.$x; a bare $x is refused naming that path', async () => {
    const m = await createMemory({ encoder, systemOne: createHeuristicSystemOne() });
    await m.add({ text: 'I keep the spare key under the blue pot.', metadata: { $x: 1 } });
    await m.add({ text: 'The train leaves at nine.', metadata: { $x: 2 } });
    expect((await m.list({ filter: { 'metadata.$x': 1 } })).memories.map((n) => n.text)).toEqual(['I keep the spare key under the blue pot.']);
    const e = (await errorOf(m.list({ filter: { $x: 1 } }))) as { code: string; field: string; message: string };
    expect([e.code, e.field]).toEqual(['INVALID_INPUT', 'options.filter.$x']);
    expect(e.message).toContain('unknown operator "$x"');
    expect(e.message).toContain('"metadata.$x"');
    await m.close();
  });
});

describe('metadata keys and Unicode normalisation', () => {
  it('a key given in NFD is stored in NFC; its value is kept as given', () => {
    expect(NFD).not.toBe(NFC);
    const out = checkMetadata({ [NFD]: NFD, nested: { [NFD]: [{ [NFD]: 1 }] } }, 'observation.metadata');
    expect(Object.keys(out)).toEqual([NFC, 'nested']);
    expect(out[NFC]).toBe(NFD);
    expect(out['nested']).toEqual({ [NFC]: [{ [NFC]: 1 }] });
  });

  it('two keys of one object that differ only by normalisation are refused, naming the path', () => {
    const e = (() => {
      try {
        checkMetadata({ a: { [NFC]: 1, [NFD]: 2 } }, 'observation.metadata');
      } catch (err) {
        return err as { code: string; details: { field: string }; message: string };
      }
      return undefined;
    })();
    expect(e?.code).toBe('INVALID_INPUT');
    expect(e?.details.field).toBe('observation.metadata');
    expect(e?.message).toContain(`at observation.metadata.a`);
  });

  it('a memory written with either spelling is found by a filter in either spelling', async () => {
    const m = await createMemory({ encoder, systemOne: createHeuristicSystemOne() });
    await m.add({ text: 'We met at the corner cafe on Monday.', metadata: { [NFD]: 'yes' } });
    await m.add({ text: 'The bakery opens at seven.', metadata: { [NFC]: 'no' } });
    for (const key of [NFC, NFD, `metadata.${NFD}`]) {
      expect((await m.list({ filter: { [key]: 'yes' } })).memories.map((n) => n.text)).toEqual(['We met at the corner cafe on Monday.']);
      expect((await m.list({ filter: { [key]: { $exists: true } } })).memories).toHaveLength(2);
    }
    const [stored] = (await m.list({ filter: { [NFC]: 'yes' } })).memories;
    expect(Object.keys(stored?.provenance.metadata ?? {})).toEqual([NFC]);
    // The filter compiles NFD keys to the stored NFC key.
    expect(compileNodeFilter({ [NFD]: 'no' }, 'f')({ provenance: { metadata: { [NFC]: 'no' } } } as never)).toBe(true);
    await m.close();
  });
});
