import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { isJevMemError } from '../../src/errors.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { AssetLoader, Encoder } from '../../src/encoder/encoder.js';
import { createGloveSifEncoder } from '../../src/encoder/glove-sif.js';

const MODEL_DIR = fileURLToPath(new URL('../../models/glove-sif-100d/', import.meta.url));
const file = (name: string): Buffer => readFileSync(MODEL_DIR + name);

/** The model as stored on disk, decoded independently of the encoder. */
const vocab = file('vocab.txt').toString('utf8').split('\n').slice(0, -1);
const manifest = JSON.parse(file('encoder.json').toString('utf8')) as { sifA: number; words: number };
const q = new Int8Array(file('vectors.i8'));
const scalesBytes = file('scales.f32');
const pcBytes = file('pc.f32');
const scale = (r: number): number => scalesBytes.readFloatLE(r * 4);
const pc = Array.from({ length: 100 }, (_, i) => pcBytes.readFloatLE(i * 4));

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += a[i]! * b[i]!;
  return s;
}

function norm(a: ArrayLike<number>): number {
  return Math.sqrt(dot(a, a));
}

/** SIF vector built straight from the files: Σ a/(a + 1/(r·H_N)) · scale_r · q_r, minus its u-projection, normalised. */
function expectedVector(words: string[]): number[] {
  let harmonic = 0;
  for (let k = 1; k <= manifest.words; k += 1) harmonic += 1 / k;
  const v = new Array<number>(100).fill(0);
  for (const w of words) {
    const r = vocab.indexOf(w);
    const weight = manifest.sifA / (manifest.sifA + 1 / ((r + 1) * harmonic));
    for (let i = 0; i < 100; i += 1) v[i]! += weight * scale(r) * q[r * 100 + i]!;
  }
  const u = pc.map((x) => x / norm(pc));
  const projection = dot(v, u);
  const out = v.map((x, i) => x - projection * u[i]!);
  const n = norm(out);
  return out.map((x) => x / n);
}

/** A loader that serves the shipped files but changes `vectors.i8`. */
function tamperingLoader(change: (bytes: Uint8Array) => void): AssetLoader {
  const load = createNodeAssetLoader();
  return async (path) => {
    const bytes = await load(path);
    if (!path.endsWith('vectors.i8')) return bytes;
    const copy = new Uint8Array(bytes);
    change(copy);
    return copy;
  };
}

describe('GloVe-SIF encoder', () => {
  let encoder: Encoder;
  beforeAll(async () => {
    encoder = await createDefaultNodeEncoder();
  });

  it('has dimension 100', () => {
    expect(encoder.dimension).toBe(100);
  });

  it('fingerprint is glove-sif-100d@ and the first 12 hex digits of sha256(vectors.i8)', () => {
    const sha = createHash('sha256').update(file('vectors.i8')).digest('hex');
    expect(encoder.fingerprint).toMatch(/^glove-sif-100d@[0-9a-f]{12}$/);
    expect(encoder.fingerprint).toBe(`glove-sif-100d@${sha.slice(0, 12)}`);
  });

  it('returns unit-length vectors', async () => {
    const vectors = await encoder.embed(['I adopted a puppy', 'Caroline: I went to a LGBTQ support group yesterday', 'dog']);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5);
  });

  it('returns the zero vector for a text whose words are all unknown', async () => {
    const [unknown, empty] = await encoder.embed(['zqxvbw qqjzzx', '']);
    expect(Array.from(unknown!)).toEqual(new Array(100).fill(0));
    expect(Array.from(empty!)).toEqual(new Array(100).fill(0));
  });

  it('gives the same text the identical vector across calls', async () => {
    const [a] = await encoder.embed(['We went hiking near the lake last weekend']);
    const [b, c] = await encoder.embed(['something else first', 'We went hiking near the lake last weekend']);
    expect(Array.from(c!)).toEqual(Array.from(a!));
    expect(b).not.toEqual(a);
  });

  it('matches the SIF sentence vector computed from the model files', async () => {
    const [v] = await encoder.embed(['The dog']);
    const expected = expectedVector(['the', 'dog']);
    for (let i = 0; i < 100; i += 1) expect(v![i]).toBeCloseTo(expected[i]!, 5);
  });

  it('removes the common component (vectors are orthogonal to pc.f32)', async () => {
    const [v] = await encoder.embed(['my sister loves painting sunsets']);
    expect(Math.abs(dot(v!, pc))).toBeLessThan(1e-5);
  });

  it('skips unknown words', async () => {
    const [withUnknown, without] = await encoder.embed(['dog zqxvbw', 'dog']);
    expect(Array.from(withUnknown!)).toEqual(Array.from(without!));
  });

  it('places "I adopted a puppy" closer to "we got a new dog" than to "the stock market fell"', async () => {
    const [puppy, dog, stocks] = await encoder.embed(['I adopted a puppy', 'we got a new dog', 'the stock market fell']);
    expect(dot(puppy!, dog!)).toBeGreaterThan(dot(puppy!, stocks!));
  });

  it('throws ABORTED when the signal has fired', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(encoder.embed(['dog'], controller.signal)).rejects.toSatisfy((e) => isJevMemError(e, 'ABORTED'));
  });

  it('throws INVALID_INPUT for a non-string text', async () => {
    await expect(encoder.embed([42 as unknown as string])).rejects.toSatisfy(
      (e) => isJevMemError(e, 'INVALID_INPUT') && e.field === 'texts[0]',
    );
  });
});

describe('GloVe-SIF loading', () => {
  it('rejects a vectors.i8 whose bytes fail the checksum with MODEL_LOAD_FAILED', async () => {
    const load = tamperingLoader((bytes) => {
      bytes[12345] = (bytes[12345]! + 1) & 0xff;
    });
    await expect(createGloveSifEncoder({ load })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes('vectors.i8') && e.message.includes('checksum'),
    );
  });

  it('skips the checksum with verify: false and keeps the manifest hash in the fingerprint', async () => {
    const load = tamperingLoader((bytes) => {
      bytes[12345] = (bytes[12345]! + 1) & 0xff;
    });
    const encoder = await createGloveSifEncoder({ load, verify: false });
    const sha = createHash('sha256').update(file('vectors.i8')).digest('hex');
    expect(encoder.fingerprint).toBe(`glove-sif-100d@${sha.slice(0, 12)}`);
  });

  it('rejects a truncated vectors.i8 with MODEL_LOAD_FAILED even without verification', async () => {
    const full = createNodeAssetLoader();
    const load: AssetLoader = async (path) => {
      const bytes = await full(path);
      return path.endsWith('vectors.i8') ? bytes.subarray(0, bytes.length - 100) : bytes;
    };
    await expect(createGloveSifEncoder({ load, verify: false })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes('vectors.i8'),
    );
  });

  it('names the missing file when the loader cannot find it', async () => {
    const load: AssetLoader = async (path) => {
      throw new Error(`nothing at ${path}`);
    };
    await expect(createGloveSifEncoder({ load })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes('glove-sif-100d/encoder.json'),
    );
  });

  it('refuses an encoder.json with another formatVersion', async () => {
    const full = createNodeAssetLoader();
    const load: AssetLoader = async (path) => {
      const bytes = await full(path);
      if (!path.endsWith('encoder.json')) return bytes;
      const json = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
      return new TextEncoder().encode(JSON.stringify({ ...json, formatVersion: 99 }));
    };
    await expect(createGloveSifEncoder({ load })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes('formatVersion'),
    );
  });

  it('throws CLOSED when used after close()', async () => {
    const encoder = await createGloveSifEncoder({ load: createNodeAssetLoader(), verify: false });
    await encoder.close?.();
    await encoder.close?.();
    await expect(encoder.embed(['dog'])).rejects.toSatisfy((e) => isJevMemError(e, 'CLOSED'));
  });
});

describe('GloVe-SIF termVectors', () => {
  let encoder: Encoder;
  beforeAll(async () => {
    encoder = await createDefaultNodeEncoder({ verify: false });
  });

  it('gives a known word its stored row scaled to unit length', () => {
    const [v] = encoder.termVectors!(['dog']);
    const r = vocab.indexOf('dog');
    const row = Array.from(q.subarray(r * 100, r * 100 + 100));
    const expected = row.map((x) => x / norm(row));
    expect(v).toBeInstanceOf(Float32Array);
    for (let i = 0; i < 100; i += 1) expect(v![i]).toBeCloseTo(expected[i]!, 6);
  });

  it('has cosine 1 between a word and itself, whatever its case', () => {
    const [a, b] = encoder.termVectors!(['painting', 'Painting']);
    expect(dot(a!, b!)).toBeCloseTo(1, 6);
  });

  it('gives undefined for a word outside the vocabulary', () => {
    expect(vocab.includes('qzxvbnmwk')).toBe(false);
    expect(encoder.termVectors!(['qzxvbnmwk', 'dog']).map((v) => v === undefined)).toEqual([true, false]);
  });

  it('refuses use after close() with CLOSED', async () => {
    const closing = await createDefaultNodeEncoder({ verify: false });
    await closing.close?.();
    expect(() => closing.termVectors!(['dog'])).toThrow(expect.objectContaining({ code: 'CLOSED' }));
  });
});
