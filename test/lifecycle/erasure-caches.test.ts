/**
 * Issue 22, "Erasure is exact", process caches: caches that memoise per text are keyed by
 * `textKey` (a hash, never the text), and a delete or forget makes the memory drop the erased
 * texts from the caches of its encoder and System One (every entry for a forget, whose texts are
 * not listed).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import { hash53, textKey } from '../../src/util/hash.js';
import { lifecycleFixture, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('erasure-caches', (e) => (encoder = e));

const SECRET = 'Zorblatt smuggled xylophones into Vladivostok aboard the Gribbleship.';

describe('textKey', () => {
  it('is the same for equal texts, differs for different ones, and does not hold the text', () => {
    expect(textKey(SECRET)).toBe(textKey(`${SECRET}`));
    expect(textKey(SECRET)).not.toBe(textKey(`${SECRET} `));
    expect(textKey('a')).not.toBe(textKey('b'));
    expect(textKey(SECRET)).not.toContain('Zorblatt');
    // Two 53-bit lanes and the length, base 36: 'abc' is 3 characters long.
    expect(textKey('abc')).toBe(`${hash53('abc').toString(36)}.${hash53('abc', 0x9e3779b9).toString(36)}.3`);
    expect(textKey('abc')).toMatch(/^[0-9a-z]+\.[0-9a-z]+\.3$/);
  });

  it('hash53 is a safe integer that the seed changes', () => {
    expect(Number.isSafeInteger(hash53(SECRET))).toBe(true);
    expect(hash53(SECRET, 1)).not.toBe(hash53(SECRET));
  });
});

/** The default encoder and the heuristic System One, with their `evict` calls recorded. */
function spies(): { enc: Encoder; s1: SystemOneBackend; encoderEvicts: Array<readonly string[] | undefined>; systemOneEvicts: Array<readonly string[] | undefined> } {
  const encoderEvicts: Array<readonly string[] | undefined> = [];
  const systemOneEvicts: Array<readonly string[] | undefined> = [];
  const enc: Encoder = {
    fingerprint: encoder.fingerprint,
    dimension: encoder.dimension,
    ...(encoder.languages !== undefined ? { languages: encoder.languages } : {}),
    embed: (texts, signal) => encoder.embed(texts, signal),
    ...(encoder.termVectors !== undefined ? { termVectors: (words: string[]) => (encoder.termVectors as (w: string[]) => Array<Float32Array | undefined>)(words) } : {}),
    evict: (texts) => {
      encoderEvicts.push(texts);
      encoder.evict?.(texts);
    },
  };
  const inner = createHeuristicSystemOne();
  const s1: SystemOneBackend = {
    kind: inner.kind,
    modelId: inner.modelId,
    decide: (r, o) => inner.decide(r, o),
    decideMany: (r, o) => inner.decideMany(r, o),
    close: () => inner.close(),
    evict: (texts) => {
      systemOneEvicts.push(texts);
      inner.evict?.(texts);
    },
  };
  return { enc, s1, encoderEvicts, systemOneEvicts };
}

describe('a delete or forget empties the caches of the erased texts', () => {
  it('delete evicts the deleted text from the encoder and System One caches', async () => {
    const { enc, s1, encoderEvicts, systemOneEvicts } = spies();
    const memory = await createMemory({ encoder: enc, systemOne: s1 });
    await memory.addMany(TURNS);
    const { id } = await memory.add({ text: SECRET, speaker: 'Quenbyrthia' });
    expect(encoderEvicts).toEqual([]);
    expect(await memory.delete(id)).toBe(true);
    expect(encoderEvicts).toEqual([[SECRET]]);
    expect(systemOneEvicts).toEqual([[SECRET]]);
    // An unknown id deletes nothing and evicts nothing.
    expect(await memory.delete(id)).toBe(false);
    expect(encoderEvicts).toHaveLength(1);
    await memory.close();
  });

  it('forget evicts everything (the texts of a dropped namespace are not listed)', async () => {
    const { enc, s1, encoderEvicts, systemOneEvicts } = spies();
    const memory = await createMemory({ encoder: enc, systemOne: s1 });
    await memory.add({ text: SECRET }, { namespace: 'victim' });
    await memory.forget('victim');
    expect(encoderEvicts).toEqual([undefined]);
    expect(systemOneEvicts).toEqual([undefined]);
    await memory.close();
  });
});
