/**
 * `createBrowserMemory` (src/browser.ts) outside a page, in Node: how it resolves the asset URLs,
 * what it reports, what it closes, its option errors, and the heuristic fallback when the worker's
 * model cannot be fetched. The page itself is covered by the Chromium tests of this folder.
 */
import { expect, test } from 'vitest';
import { createBrowserMemory } from 'jev-mem/browser';
import { createMemoryStorage, isJevMemError, type Encoder } from 'jev-mem';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';

/** Runs `fn` and returns what it threw. */
async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

test('models/ and ort/ are resolved under assetBaseURL, with the trailing slash added', async () => {
  const encoder = await createDefaultNodeEncoder();
  const m = await createBrowserMemory({ assetBaseURL: 'https://app.example/sub', encoder, storage: createMemoryStorage(), systemOne: 'heuristic' });
  expect(m.platform.modelBaseURL).toBe('https://app.example/sub/models/');
  expect(m.platform.wasmPaths).toBe('https://app.example/sub/ort/');
  await m.close();
  const n = await createBrowserMemory({ assetBaseURL: 'https://app.example/', modelBaseURL: '/static/models', wasmPaths: 'https://cdn.app.example/ort', encoder, storage: createMemoryStorage(), systemOne: 'heuristic' });
  expect(n.platform.modelBaseURL).toBe('https://app.example/static/models/');
  expect(n.platform.wasmPaths).toBe('https://cdn.app.example/ort/');
  await n.close();
  await encoder.close?.();
});

test('the heuristic choice reports itself with no accelerator, and close() leaves a given encoder open', async () => {
  let closed = 0;
  const base = await createDefaultNodeEncoder();
  const encoder: Encoder = { fingerprint: base.fingerprint, dimension: base.dimension, embed: (t, s) => base.embed(t, s), close: async () => void closed++ };
  const m = await createBrowserMemory({ assetBaseURL: 'https://app.example/', encoder, storage: createMemoryStorage(), systemOne: 'heuristic', persist: false });
  expect(m.platform.persisted).toBeUndefined();
  expect(m.platform.systemOne).toEqual({ kind: 'heuristic', modelId: m.systemOne.modelId, executionProviders: [], accelerator: 'js' });
  await m.add({ text: 'The boat is moored at pier 4.' });
  expect((await m.recall('Where is the boat?')).memories[0]?.text).toBe('The boat is moored at pier 4.');
  await m.close();
  expect(closed).toBe(0);
  await base.close?.();
});

test('bad options are refused naming the option', async () => {
  // No URL is needed any more (the bundled model files are the default): in Node what is missing is IndexedDB.
  const noPage = await thrown(() => createBrowserMemory({ systemOne: 'heuristic' }));
  expect(isJevMemError(noPage, 'INVALID_OPTION')).toBe(true);
  expect((noPage as { details: { field?: string } }).details.field).toBe('indexedDB');
  const relative = await thrown(() => createBrowserMemory({ assetBaseURL: 'sub/', systemOne: 'heuristic' }));
  expect((relative as { details: { field?: string } }).details.field).toBe('assetBaseURL');
  const badChoice = await thrown(() => createBrowserMemory({ assetBaseURL: 'https://app.example/', systemOne: 'gpu' as 'worker' }));
  expect(isJevMemError(badChoice, 'INVALID_OPTION')).toBe(true);
  expect((badChoice as { details: { field?: string } }).details.field).toBe('systemOne');
  expect((badChoice as Error).message).toContain("'worker', 'heuristic' or a SystemOneBackend");
});

test('a worker whose model cannot be fetched fails the call, or falls back to the heuristic when allowed', async () => {
  const encoder = await createDefaultNodeEncoder();
  // Port 9 on 127.0.0.1 refuses connections at once: the model fetch fails without leaving the machine.
  const options = { assetBaseURL: 'http://127.0.0.1:9/', encoder, storage: createMemoryStorage(), persist: false } as const;
  const failure = await thrown(() => createBrowserMemory({ ...options }));
  expect(isJevMemError(failure, 'MODEL_LOAD_FAILED')).toBe(true);
  const m = await createBrowserMemory({ ...options, systemOneFallback: true });
  expect(m.platform.systemOne.kind).toBe('heuristic');
  expect(isJevMemError(m.platform.systemOneError, 'MODEL_LOAD_FAILED')).toBe(true);
  await m.close();
  await encoder.close?.();
});
