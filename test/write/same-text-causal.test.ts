/**
 * h-break10 finding 7: a sentence does not lead to itself. Two memories of the same text (after
 * `normalizeText`), said at different times, got causal `leads_to` edges from System One's
 * P(causes) (464 of 514 causal edges of the review's export joined identical repeated turns).
 * A System One forced to answer P(causes) = P(caused_by) = 0.9 for every pair shows it: the pairs
 * of different texts get their two causal edges, the pairs of one text get none, on the single
 * write path and the bulk one alike; the other views are still asked and kept.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { MemoryEdge } from '../../src/types.js';
import { forcing, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('same-text-causal', (e) => (encoder = e));

const causal = forcing((key) => (key.startsWith('rel.causes#') || key.startsWith('rel.caused_by#') ? 0.9 : undefined));

const TURNS = [
  { text: 'The storm knocked the power out.', observedAt: '2024-01-01T10:00:00Z' },
  { text: 'I feel great today.', observedAt: '2024-01-01T10:01:00Z' },
  // The same sentence later, with other white space: the same normalised text.
  { text: '  I feel great   today. ', observedAt: '2024-03-01T09:00:00Z' },
  { text: 'I feel great today.', observedAt: '2024-06-01T08:00:00Z' },
];

/** The causal edges as "from-text -> to-text" (texts normalised by hand), sorted. */
async function causalPairs(memory: Awaited<ReturnType<typeof createMemory>>, ids: string[]): Promise<string[]> {
  const textOf = new Map<string, string>();
  for (const id of ids) textOf.set(id, ((await memory.get(id))?.text ?? '?').trim().replace(/\s+/g, ' '));
  const edges = new Map<string, MemoryEdge>();
  for (const id of ids) for (const e of await memory.edges(id)) edges.set(e.id, e);
  return [...edges.values()].filter((e) => e.view === 'causal').map((e) => `${textOf.get(e.from)} -> ${textOf.get(e.to)}`).sort();
}

describe('no causal edge between memories of the same text', () => {
  it.each(['add', 'addMany'] as const)('%s: different texts are linked both ways, repeats of one text never', async (how) => {
    const memory = await createMemory({ encoder, systemOne: causal });
    try {
      const ids = how === 'add' ? [] as string[] : (await memory.addMany(TURNS)).map((r) => r.id);
      if (how === 'add') for (const t of TURNS) ids.push((await memory.add(t)).id);
      expect(new Set(ids).size).toBe(4); // other times: no repeat merged
      const pairs = await causalPairs(memory, ids);
      // Each "I feel great" node is a candidate of, or has as candidate, the storm: both
      // directions with P = 0.9 ≥ θ_rel. Among the three "I feel great" nodes: nothing.
      expect(pairs.filter((p) => p.startsWith('I feel great today. -> I feel great today.'))).toEqual([]);
      expect(pairs.filter((p) => p.includes('storm')).length).toBe(6);
      expect(pairs.length).toBe(6);
      // The semantic view still joins the repeats (related / redundant are what they are).
      const repeatIds = ids.slice(1);
      const semantic = (await memory.edges(repeatIds[2] as string)).filter((e) => e.view === 'semantic' && repeatIds.includes(e.to) && repeatIds.includes(e.from));
      expect(semantic.length).toBeGreaterThan(0);
    } finally {
      await memory.close();
    }
  });
});
