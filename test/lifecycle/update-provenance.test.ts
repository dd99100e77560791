/**
 * `memory.update(id, { text })` (the README's call) writes a new version of the same memory: it
 * keeps who said it and where (speaker, sessionId, source) unless the update says otherwise, but
 * not the old turn's id nor its metadata; `observedAt` is as given, and the old version's
 * "as of" time (`supersededAt`) is the new version's observation time, else its ingestion time by
 * the memory's clock (`now` of createMemory), never the machine's.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { updateProvenance } from '../../src/memory/write.js';
import { lifecycleFixture } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('update-provenance', (e) => (encoder = e));

const OLD = {
  text: 'Maya: I live in Lisbon, near the river.',
  observedAt: '2023-01-10T09:00:00+09:00',
  speaker: 'Maya',
  sessionId: 's1',
  source: 'chat',
  turnId: 'A:1',
  metadata: { mood: 'calm' },
};
/** The memory's clock: far from the machine's, so a use of the machine clock shows. */
const CLOCK = '2023-06-02T12:00:00.000Z';

describe('update keeps the provenance of the memory it replaces', () => {
  it('copies speaker, sessionId and source, not turnId or metadata, when the update gives only text', async () => {
    const memory = await createMemory({ encoder, now: () => new Date(CLOCK) });
    const { id: oldId } = await memory.add(OLD);
    const { id: newId } = await memory.update(oldId, { text: 'Maya: I moved, I live in Porto now.' });
    const node = await memory.get(newId);
    await memory.close();
    expect(node?.provenance).toEqual({ speaker: 'Maya', sessionId: 's1', source: 'chat' });
    expect(node?.observedAt).toBeUndefined(); // absent as given: timed by ingestion, as for add
    expect(node?.ingestedAt).toBe(CLOCK);
  });

  it('lets the update override each field, and keeps the ones it does not name', async () => {
    const memory = await createMemory({ encoder, now: () => new Date(CLOCK) });
    const { id: oldId } = await memory.add(OLD);
    const { id: newId } = await memory.update(oldId, { text: 'Theo: Maya lives in Porto now.', speaker: 'Theo', turnId: 'B:7', metadata: { mood: 'happy' } });
    const node = await memory.get(newId);
    await memory.close();
    expect(node?.provenance).toEqual({ speaker: 'Theo', sessionId: 's1', source: 'chat', turnId: 'B:7', metadata: { mood: 'happy' } });
  });

  it('updateProvenance: given fields win, speaker/sessionId/source fall back to the old ones, turnId and metadata do not', () => {
    expect(updateProvenance({ speaker: 'A', sessionId: 's', source: 'x', turnId: 't', metadata: { k: 1 } }, {})).toEqual({ speaker: 'A', sessionId: 's', source: 'x' });
    expect(updateProvenance({ speaker: 'A' }, { source: 'y', turnId: 'u' })).toEqual({ speaker: 'A', source: 'y', turnId: 'u' });
    expect(updateProvenance({}, {})).toEqual({});
  });
});

describe('the supersededAt of the old version', () => {
  it('is the ingestion time by the memory clock when the update has no observedAt', async () => {
    const memory = await createMemory({ encoder, now: () => new Date(CLOCK) });
    const { id: oldId } = await memory.add(OLD);
    await memory.update(oldId, { text: 'Maya: I moved, I live in Porto now.' });
    const old = (await memory.recall('Where does Maya live?')).memories.find((m) => m.id === oldId);
    await memory.close();
    expect(old?.status).toBe('superseded');
    expect(old?.supersededAt).toBe(CLOCK);
  });

  it("is the new version's observedAt when the update gives one", async () => {
    const memory = await createMemory({ encoder, now: () => new Date(CLOCK) });
    const { id: oldId } = await memory.add(OLD);
    await memory.update(oldId, { text: 'Maya: I moved, I live in Porto now.', observedAt: '2023-05-01T08:00:00+01:00' });
    const old = (await memory.recall('Where does Maya live?')).memories.find((m) => m.id === oldId);
    await memory.close();
    expect(old?.supersededAt).toBe('2023-05-01T07:00:00.000Z');
  });
});
