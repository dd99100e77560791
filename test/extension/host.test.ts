import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildObservation } from '../../demo/extension/src/observation.js';
import { createMemoryHost, type HostedMemory } from '../../demo/extension/src/host.js';
import type { RecallValue, SaveValue, StatusValue } from '../../demo/extension/src/messages.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { JevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';

let encoder: Encoder;
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
});
afterAll(async () => {
  await encoder.close?.();
});

async function hosted(): Promise<HostedMemory> {
  const memory = await createMemory({ encoder, storage: createMemoryStorage(), vectorIndex: 'flat' });
  return { memory, systemOne: { modelId: memory.systemOne.modelId, engine: 'ts', executionProviders: [] } };
}

const savedAt = new Date('2026-03-02T10:15:00.000Z');

describe('extension memory host', () => {
  it('answers status at once while the memory is still loading', async () => {
    let finish: (h: HostedMemory) => void = () => {};
    const host = createMemoryHost(() => new Promise((resolve) => (finish = resolve)));
    const status = (await host.handle({ type: 'status' })) as StatusValue;
    expect(status.state).toBe('loading');
    expect(status.nodes).toBeUndefined();
    finish(await hosted());
    const ready = (await host.handle({ type: 'status', wait: true })) as StatusValue;
    expect(ready.state).toBe('ready');
    expect(ready.nodes).toBe(0);
    expect(ready.encoder).toBe(encoder.fingerprint);
  });

  it('records the load milestones the opener writes, and when it was ready', async () => {
    let t = 0;
    const host = createMemoryHost(async (timings) => {
      timings.encoderMs = 5;
      return hosted();
    }, () => (t += 10));
    const status = (await host.handle({ type: 'status', wait: true })) as StatusValue;
    expect(status.timings).toEqual({ encoderMs: 5, readyMs: 10 });
  });

  it('recalls a saved selection with its page provenance', async () => {
    const host = createMemoryHost(hosted);
    const notes = ['I parked the car on level 3, spot B12 at the airport.', 'Dentist appointment moved to Thursday 4pm.'];
    for (const text of notes) await host.handle({ type: 'save', observation: buildObservation({ kind: 'note', text, savedAt, via: 'popup' }) });
    const selection = buildObservation({ kind: 'selection', text: 'Glazes need a second firing at 1220 °C.', page: { title: 'Pottery 101', url: 'https://example.org/pottery' }, savedAt, via: 'context-menu' });
    const saved = (await host.handle({ type: 'save', observation: selection })) as SaveValue;
    expect(saved.nodes).toBe(3);
    const { memories } = (await host.handle({ type: 'recall', query: 'At what temperature is the second glaze firing?' })) as RecallValue;
    expect(memories[0]?.id).toBe(saved.id);
    expect(memories[0]?.provenance.metadata).toEqual({ kind: 'selection', via: 'context-menu', pageTitle: 'Pottery 101', pageUrl: 'https://example.org/pottery' });
    expect(memories[0]?.observedAt).toBe('2026-03-02T10:15:00.000Z');
  });

  it('forgets a memory by id', async () => {
    const host = createMemoryHost(hosted);
    const saved = (await host.handle({ type: 'save', observation: buildObservation({ kind: 'note', text: 'Spare key is under the blue pot.', savedAt, via: 'popup' }) })) as SaveValue;
    expect(await host.handle({ type: 'forget', id: saved.id })).toEqual({ deleted: true, nodes: 0 });
    const { memories } = (await host.handle({ type: 'recall', query: 'Where is the spare key?' })) as RecallValue;
    expect(memories).toEqual([]);
  });

  it('fails every request with the load error once loading failed, and says so in status', async () => {
    const host = createMemoryHost(() => Promise.reject(new JevMemError('MODEL_LOAD_FAILED', 'vectors.i8 fails its checksum')));
    await expect(host.handle({ type: 'recall', query: 'anything' })).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    const status = (await host.handle({ type: 'status', wait: true })) as StatusValue;
    expect(status.state).toBe('failed');
    expect(status.error).toEqual({ code: 'MODEL_LOAD_FAILED', message: 'vectors.i8 fails its checksum' });
  });

  it('passes the memory’s input errors through', async () => {
    const host = createMemoryHost(hosted);
    await expect(host.handle({ type: 'recall', query: '   ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
