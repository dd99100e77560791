import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { isJevMemError } from '../../src/errors.js';
import { createFetchAssetLoader } from '../../src/encoder/assets.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';

describe('createFetchAssetLoader', () => {
  it('resolves the path against the base URL, adding the missing trailing slash', async () => {
    const seen: string[] = [];
    const load = createFetchAssetLoader('https://example.test/app/models', async (url) => {
      seen.push(url.href);
      return new Response(new Uint8Array([1, 2, 3]));
    });
    const bytes = await load('glove-sif-100d/encoder.json');
    expect(seen).toEqual(['https://example.test/app/models/glove-sif-100d/encoder.json']);
    expect(Array.from(bytes)).toEqual([1, 2, 3]);
  });

  it('turns a non-2xx answer into MODEL_LOAD_FAILED with the status and URL', async () => {
    const load = createFetchAssetLoader(new URL('https://example.test/models/'), async () => new Response('gone', { status: 404 }));
    await expect(load('glove-sif-100d/vocab.txt')).rejects.toSatisfy(
      (e) =>
        isJevMemError(e, 'MODEL_LOAD_FAILED') &&
        e.status === 404 &&
        e.message.includes('https://example.test/models/glove-sif-100d/vocab.txt'),
    );
  });

  it('turns a network error into MODEL_LOAD_FAILED', async () => {
    const load = createFetchAssetLoader('https://example.test/models/', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(load('x.bin')).rejects.toSatisfy((e) => isJevMemError(e, 'MODEL_LOAD_FAILED') && e.message.includes('fetch failed'));
  });

  it('rejects a base URL that is not absolute with INVALID_OPTION', () => {
    expect(() => createFetchAssetLoader('models/')).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'baseURL' }));
  });
});

describe('createNodeAssetLoader', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'jev-mem-assets-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("reads from the package's models/ folder by default", async () => {
    const expected = readFileSync(fileURLToPath(new URL('../../models/glove-sif-100d/encoder.json', import.meta.url)));
    const bytes = await createNodeAssetLoader()('glove-sif-100d/encoder.json');
    expect(Buffer.from(bytes).equals(expected)).toBe(true);
  });

  it('names the file and where it looked when the file is missing', async () => {
    const load = createNodeAssetLoader(scratch);
    await expect(load('glove-sif-100d/encoder.json')).rejects.toSatisfy(
      (e) =>
        isJevMemError(e, 'MODEL_LOAD_FAILED') &&
        e.message.includes('glove-sif-100d/encoder.json') &&
        e.message.includes(join(scratch, 'glove-sif-100d', 'encoder.json')),
    );
  });

  it('refuses a path that leaves the folder with INVALID_INPUT', async () => {
    const load = createNodeAssetLoader(scratch);
    await expect(load('../etc/passwd')).rejects.toSatisfy((e) => isJevMemError(e, 'INVALID_INPUT') && e.field === 'relativePath');
  });
});
