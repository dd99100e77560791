import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { createNodeMemory } from '../../src/node.js';

const manifest = JSON.parse(readFileSync(new URL('../../models/system-one/manifest.json', import.meta.url), 'utf8')) as { version: string };
const trainedId = `jev-mem/system-one@${manifest.version}`;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('createNodeMemory defaults (README: file store + shipped encoder + trained System One)', () => {
  it('answers writes with the shipped trained model, not the heuristic stand-in, when no systemOne is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-node-defaults-'));
    dirs.push(dir);
    const memory = await createNodeMemory({ store: join(dir, 'store') });
    try {
      const first = await memory.add({ text: 'Ana: I moved to Porto last spring.', observedAt: '2024-05-01T10:00:00Z', speaker: 'Ana' });
      expect(first.systemOne).toMatchObject({ calls: 1, fallbacks: 0, model: trainedId });
      expect((await memory.stats()).systemOne).toBe(trainedId);
      // The calibrated read parameters of the shipped model apply (manifest: anchors 60).
      expect(memory.parameters.anchors).toBe(60);
    } finally {
      await memory.close();
    }
  });

  it('uses the backend it is given instead', async () => {
    const given = createHeuristicSystemOne();
    const memory = await createNodeMemory({ systemOne: given });
    try {
      const r = await memory.add({ text: 'Ana: I moved to Porto.', observedAt: '2024-05-01T10:00:00Z' });
      expect(r.systemOne.model).toBe(given.modelId);
    } finally {
      await memory.close();
    }
  });
});

describe('createNodeMemory options', () => {
  it('refuses an unknown option (listing store and create among the valid ones), a store that is not a path and a create that is not a boolean, before touching the disk', async () => {
    await expect(createNodeMemory({ stor: '/tmp/x' } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'stor', message: expect.stringMatching(/valid ones are .*store, create/) });
    await expect(createNodeMemory({ store: 42 } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'store', message: expect.stringMatching(/got 42/) });
    await expect(createNodeMemory({ store: '  ' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'store' });
    await expect(createNodeMemory({ create: 'no' } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'create' });
    await expect(createNodeMemory(null as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'options' });
  });
});
