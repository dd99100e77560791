import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { isJevMemError } from '../../src/errors.js';
import { createTransformersEncoder } from '../../src/encoder/transformers.js';

describe('createTransformersEncoder', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'jev-mem-transformers-'));
  const fetched: string[] = [];
  let originalFetch: unknown;

  beforeAll(async () => {
    // Record any network request transformers.js would make; none is allowed.
    const { env } = await import('@huggingface/transformers');
    originalFetch = env.fetch;
    env.fetch = async (input: string | URL) => {
      fetched.push(String(input));
      throw new Error('network is not allowed in tests');
    };
  });
  afterAll(async () => {
    const { env } = await import('@huggingface/transformers');
    env.fetch = originalFetch as typeof env.fetch;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('fails with MODEL_LOAD_FAILED, without network, for a local model folder that does not exist', async () => {
    const missing = join(scratch, 'no-such-model');
    await expect(createTransformersEncoder({ model: missing })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes(missing),
    );
    expect(fetched).toEqual([]);
  });

  it('fails with MODEL_LOAD_FAILED, without network, for a hub id absent from localModelPath', async () => {
    await expect(createTransformersEncoder({ model: 'Xenova/all-MiniLM-L6-v2', localModelPath: scratch })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes('not allowed'),
    );
    expect(fetched).toEqual([]);
  });

  it('rejects an unknown pooling with INVALID_OPTION', async () => {
    await expect(createTransformersEncoder({ model: 'x', pooling: 'max' as 'mean' })).rejects.toSatisfy(
      (e) => isJevMemError(e, 'INVALID_OPTION') && e.field === 'pooling',
    );
  });
});
