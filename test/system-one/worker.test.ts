import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { CATALOGUE } from '../../src/system-one/catalogue.js';
import { createLocalSystemOne, urlAssetLoader } from '../../src/system-one/local.js';
import { createWorkerSystemOne, type WorkerSystemOne } from '../../src/system-one/worker-backend.js';
import type { SystemOneRequest } from '../../src/system-one/wire.js';
import { TYPING_REQUEST, runConformanceSuite } from './conformance.js';

/** Id of the model in models/system-one (read from its manifest, so retraining does not break the test). */
const SHIPPED_MODEL_ID = `jev-mem/system-one@${(JSON.parse(readFileSync(new URL('../../models/system-one/manifest.json', import.meta.url), 'utf8')) as { version: string }).version}`;

runConformanceSuite('local worker', async () => createWorkerSystemOne({ engine: 'ts' }));

const ROUTING: SystemOneRequest = {
  state: { kind: 'routing', query: 'When did Caroline go to the LGBTQ support group?', mentions: ['Caroline'] },
  questions: { 'route.temporal': CATALOGUE['route.temporal'], 'route.multi_hop': CATALOGUE['route.multi_hop'] },
};

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(() => undefined, (e: unknown) => e);
}

describe('worker backend', () => {
  const posted: unknown[] = [];
  let backend: WorkerSystemOne;

  beforeAll(async () => {
    backend = await createWorkerSystemOne({ engine: 'onnx', onPost: (m) => posted.push(m) });
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('starts the onnx engine in a worker and names itself local-worker', () => {
    expect([backend.kind, backend.modelId]).toEqual(['local-worker', SHIPPED_MODEL_ID]);
    expect(backend.info).toMatchObject({ modelId: SHIPPED_MODEL_ID, engine: 'onnx', executionProviders: ['wasm'] });
  });

  it('answers like the in-process local backend', async () => {
    const local = await createLocalSystemOne({ load: urlAssetLoader(new URL('../../models/', import.meta.url)), engine: 'onnx' });
    try {
      expect(await backend.decide(TYPING_REQUEST)).toEqual(await local.decide(TYPING_REQUEST));
    } finally {
      await local.close();
    }
  });

  it('posts exactly one message per decideMany', async () => {
    posted.length = 0;
    const out = await backend.decideMany([ROUTING, TYPING_REQUEST, ROUTING]);
    expect(out).toHaveLength(3);
    expect(posted).toHaveLength(1);
  });

  it('keeps JevMemError codes and fields across the worker boundary', async () => {
    const error = await errorOf(backend.decide({ state: 42, questions: { 'type.episodic': CATALOGUE['type.episodic'] } } as never));
    expect(isJevMemError(error, 'SYSTEM_ONE_INVALID_REQUEST')).toBe(true);
    expect((error as { field?: string }).field).toBe('state');
  });

  it('rejects with ABORTED when the signal fires', async () => {
    const error = await errorOf(backend.decide(ROUTING, { signal: AbortSignal.abort() }));
    expect(isJevMemError(error, 'ABORTED')).toBe(true);
  });
});

describe('worker crashes', () => {
  it('reject pending calls with SYSTEM_ONE_FAILED, then the next call restarts the worker', async () => {
    const backend = await createWorkerSystemOne({ engine: 'ts' });
    try {
      const crash = backend.crashForTest();
      const pending = backend.decide(ROUTING);
      await crash;
      const error = await errorOf(pending);
      expect(isJevMemError(error, 'SYSTEM_ONE_FAILED')).toBe(true);
      expect(String((error as Error).message)).toContain('exited');
      const res = await backend.decide(ROUTING);
      expect(Object.keys(res.answers)).toEqual(['route.temporal', 'route.multi_hop']);
      expect(backend.starts).toBe(2);
    } finally {
      await backend.close();
    }
  });

  it('stop restarting once maxRestarts is spent', async () => {
    const backend = await createWorkerSystemOne({ engine: 'ts', maxRestarts: 0 });
    try {
      const crash = backend.crashForTest();
      const pending = backend.decide(ROUTING);
      await crash;
      expect(isJevMemError(await errorOf(pending), 'SYSTEM_ONE_FAILED')).toBe(true);
      expect(isJevMemError(await errorOf(backend.decide(ROUTING)), 'SYSTEM_ONE_FAILED')).toBe(true);
      expect(backend.starts).toBe(1);
    } finally {
      await backend.close();
    }
  });
});

describe('worker start and close', () => {
  it('fails with MODEL_LOAD_FAILED when the model directory has no model', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'jev-mem-no-model-'));
    try {
      const error = await errorOf(createWorkerSystemOne({ engine: 'ts', modelBaseURL: pathToFileURL(`${empty}/`) }));
      expect(isJevMemError(error, 'MODEL_LOAD_FAILED')).toBe(true);
      expect(String((error as Error).message)).toContain('manifest.json');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('fails with MODEL_LOAD_FAILED when the worker script does not exist', async () => {
    const error = await errorOf(createWorkerSystemOne({ engine: 'ts', workerURL: new URL('./no-such-worker.js', import.meta.url) }));
    expect(isJevMemError(error, 'MODEL_LOAD_FAILED')).toBe(true);
  });

  it('rejects calls after close() with CLOSED, and close() is idempotent', async () => {
    const backend = await createWorkerSystemOne({ engine: 'ts' });
    await backend.close();
    await backend.close();
    expect(isJevMemError(await errorOf(backend.decide(ROUTING)), 'CLOSED')).toBe(true);
  });

  it('rejects a call pending at close() with CLOSED', async () => {
    const backend = await createWorkerSystemOne({ engine: 'ts' });
    const pending = backend.decide(ROUTING);
    await backend.close();
    expect(isJevMemError(await errorOf(pending), 'CLOSED')).toBe(true);
  });
});
