/**
 * An observation dated before a stored near-duplicate, written after the store was closed and
 * reopened (issue 22, h-break5): the state-update decision finds the stored turn the newer side,
 * and checking whether its `updates` edge is already stored read the stored turn's edges, which a
 * new process had not loaded (STORAGE_FAILED "read before it was loaded", nothing written, a whole
 * `addMany` chunk lost). The new observation is written, superseded by the newer stored turn.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { MemoryParameters } from '../../src/config.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { lifecycleFixture } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('reopen-older-state', (e) => (encoder = e));

// The state-update head (logistic, default) decides this pair at p = 0.95 (threshold 0.85).
const NEWER = { text: 'Maya: big news, I moved to Porto last month!', observedAt: '2024-03-02T10:00:00Z', speaker: 'Maya' };
const OLDER = { text: 'Maya: I live in Lisbon, in a flat near the river.', observedAt: '2023-03-01T10:00:00Z', speaker: 'Maya' };
// The reviewer's pair: a near-duplicate dated a day before the stored turn (p = 0.853).
const JOB = { text: 'Big change: I left Brightwave. I accepted an offer as an analytics engineer at Northloop, a fintech startup. I start on the 20th.', observedAt: '2024-05-04T09:00:00Z', speaker: 'user' };
const JOB_AGAIN = { ...JOB, text: `${JOB.text} (round 0 item 24)`, observedAt: '2024-05-03T09:00:00Z' };
const FILLERS = ['I had pasta for dinner tonight.', 'The weather was rainy all week.', 'My brother called me about his new car.', 'I finished reading a mystery novel.'];

async function open(dir: string, parameters: Partial<MemoryParameters> = {}): Promise<Memory> {
  const storage = await createSqliteFileStorage({ dir });
  return createMemory({ encoder, storage, namespace: 'me', parameters: { maintenanceInterval: 0, ...parameters } });
}

/** A store holding the newer turn among fillers, written by a memory that is then closed. */
async function storeWithNewer(newer = NEWER): Promise<{ dir: string; newerId: string }> {
  const dir = tempDir();
  const first = await open(dir);
  for (const [i, text] of FILLERS.entries()) await first.add({ text, speaker: newer.speaker, observedAt: `2022-04-0${i + 1}T10:00:00Z` });
  const { id: newerId } = await first.add(newer);
  await first.maintain();
  await first.close();
  return { dir, newerId };
}

async function expectSupersededBy(memory: Memory, olderId: string, newerId: string): Promise<void> {
  expect(await memory.get(olderId)).toMatchObject({ status: 'superseded', supersededBy: [newerId] });
  expect((await memory.get(newerId))?.status).toBe('active');
  const e = (await memory.edges(olderId)).find((x) => x.subtype === 'updates');
  expect(e).toMatchObject({ from: newerId, to: olderId });
}

describe('an older-dated near-duplicate written after a reopen', () => {
  it('add writes it, superseded by the stored newer turn', async () => {
    const { dir, newerId } = await storeWithNewer();
    const memory = await open(dir);
    const { id } = await memory.add(OLDER);
    await expectSupersededBy(memory, id, newerId);
    await memory.close();
    const again = await open(dir); // and it was committed
    await expectSupersededBy(again, id, newerId);
    expect((await again.stats()).nodes).toBe(FILLERS.length + 2);
    await again.close();
  });

  it("writes the reviewer's near-duplicate dated a day before the stored turn", async () => {
    const { dir, newerId } = await storeWithNewer(JOB);
    const memory = await open(dir);
    const { id } = await memory.add(JOB_AGAIN);
    await expectSupersededBy(memory, id, newerId);
    await memory.close();
  });

  it('addMany writes the whole batch', async () => {
    const { dir, newerId } = await storeWithNewer();
    const memory = await open(dir);
    const out = await memory.addMany([OLDER, { text: 'Maya: I bought a green bike.', speaker: 'Maya', observedAt: '2023-05-03T10:00:00Z' }]);
    expect(out).toHaveLength(2);
    await expectSupersededBy(memory, (out[0] as { id: string }).id, newerId);
    expect((await memory.stats()).nodes).toBe(FILLERS.length + 3);
    await memory.close();
  });

  it('maintain() in a new process decides a pending older turn against a stored newer neighbour', async () => {
    // Written under a threshold the logistic head's pair does not reach, the older turn is left
    // active and pending; the pass in a new process (the default MLP head, threshold 0.85) decides
    // it against its nearest, the newer among them.
    const { dir, newerId } = await storeWithNewer();
    const writer = await open(dir, { maintenanceThreshold: 0.999, stateUpdateHead: 'logistic' });
    const { id } = await writer.add(OLDER);
    expect((await writer.get(id))?.status).toBe('active'); // not decided when written
    await writer.close();
    const memory = await open(dir);
    await memory.maintain();
    await expectSupersededBy(memory, id, newerId);
    await memory.close();
  });
});
