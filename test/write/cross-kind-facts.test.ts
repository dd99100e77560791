/**
 * Unrelated facts of one person are no updates (h-retrain, issues 22 and 24): through the public
 * write path (two `add`s, the default MLP head), a fact of another kind — with a change word, and
 * naming no slot the slot gate knows — leaves the older fact active. A handful of pairs of
 * test/fixtures/state-fresh.ts (not all: the bench scores the rest), each superseded by the v4
 * head at P 0.95 to 0.998 (c275af2); on e4eb853 the object gate (h-endgate) keeps these five
 * active with v4, so this guards the gate, it does not fail there. Left out as known misses of the
 * shipped v4 + gate (h-retrain2; the v5 candidate gets both, models/state-update/README.md):
 * "Ole is running the new warehouse project now." → "Ole started investing in index funds." is
 * still superseded, and "I take the bus to the office." → "I cycle to the office now." (0.82) is
 * not. Not here either: "I quit smoking three months ago." as the newer side (h-retrain found
 * the head alone, v4 and v5, superseding most earlier facts of the speaker with it: an end naming
 * no value reads as the end of whatever state the older holds; `npm run bench -- changes` counts them).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('cross-kind-facts', (e) => (encoder = e));

const at = (day: number) => `2024-05-${String(day).padStart(2, '0')}T09:00:00Z`;

const PAIRS: ReadonlyArray<[older: string, newer: string]> = [
  ['I quit smoking three months ago.', 'I finally got my permanent residence permit.'],
  ['I started going to bed at ten every night.', 'I became a Norwegian citizen in October.'],
  ['We redid the bathroom with green tiles.', 'I finally got my permanent residence permit.'],
  ['I take the ferry to the office now.', 'I started collecting vinyl records.'],
  ['I passed my sailing licence exam.', 'I take the ferry to the office now.'],
];

describe('unrelated facts of one person (h-retrain)', () => {
  it('a later fact of another kind does not supersede the earlier one (write path and maintenance)', async () => {
    for (const [older, newer] of PAIRS) {
      const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 0 } });
      const { id: first } = await memory.add({ text: older, speaker: 'Ana', observedAt: at(1) });
      const { id: second } = await memory.add({ text: newer, speaker: 'Ana', observedAt: at(20) });
      expect(await memory.get(first), `${older} → ${newer}`).toMatchObject({ status: 'active', supersededBy: [] });
      expect((await memory.edges(first)).filter((e) => e.subtype === 'updates'), newer).toEqual([]);
      await memory.maintain();
      expect((await memory.get(first))?.status, `${older} → ${newer}, after maintain()`).toBe('active');
      expect((await memory.get(second))?.status).toBe('active');
      await memory.close();
    }
  });

  it('the same person, the same slot: a true update of the fresh set still supersedes', async () => {
    const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 0 } });
    const { id: first } = await memory.add({ text: 'I usually go to bed around midnight.', speaker: 'Ana', observedAt: at(1) });
    const { id: second } = await memory.add({ text: 'These days I go to bed at ten.', speaker: 'Ana', observedAt: at(20) });
    expect(await memory.get(first)).toMatchObject({ status: 'superseded', supersededBy: [second] });
    await memory.close();
  });
});
