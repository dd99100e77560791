/**
 * h-break10 finding 1 (issues 22 and 24), through the public API: an end or change of a state
 * supersedes only a memory about the same thing, and `Memory.update` replaces only the memory it
 * names. On c275af2 "I stopped taking melatonin" superseded five facts of seven, "Order 1042 was
 * cancelled" orders 1041 and 1042, and `update(note 1, 'note 4 changed')` all seven notes.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { forcing, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('state-same-thing', (e) => (encoder = e));

const at = (day: number) => `2024-01-${String(day).padStart(2, '0')}T00:00:00Z`;
type Mem = Awaited<ReturnType<typeof createMemory>>;
const superseded = async (m: Mem) => (await m.list({ limit: 100 })).memories.filter((x) => x.status === 'superseded').map((x) => x.text).sort();
const FACTS = ['I take ibuprofen for my back', 'I take vitamin D every morning', 'I take melatonin to sleep', 'I walk my dog every morning', 'Order 1041 shipped to Lisbon', 'Order 1042 shipped to Madrid', 'My favourite band is Muse'];

describe('an end or change supersedes only the same thing', () => {
  it('"I stopped taking melatonin" supersedes the melatonin fact only, after the write and after maintain()', async () => {
    for (const speaker of ['user', 'Caroline']) {
      const m = await createMemory({ encoder });
      for (const [i, text] of FACTS.entries()) await m.add({ text, speaker, observedAt: at(i + 1) });
      const { id } = await m.add({ text: 'I stopped taking melatonin', speaker, observedAt: at(20) });
      expect(await superseded(m), speaker).toEqual(['I take melatonin to sleep']);
      await m.maintain();
      expect(await superseded(m), `${speaker} after maintain()`).toEqual(['I take melatonin to sleep']);
      const melatonin = (await m.list({ limit: 100 })).memories.find((x) => x.text === 'I take melatonin to sleep');
      expect(melatonin?.supersededBy).toEqual([id]);
      await m.close();
    }
  });

  it('"Order 1042 was cancelled" supersedes order 1042, not order 1041; the older unrelated memory stays current', async () => {
    const m = await createMemory({ encoder });
    const { id: o1041 } = await m.add({ text: 'Order 1041 shipped to Lisbon', speaker: 'user', observedAt: at(1) });
    const { id: o1042 } = await m.add({ text: 'Order 1042 shipped to Madrid', speaker: 'user', observedAt: at(2) });
    await m.add({ text: 'Order 1042 was cancelled', speaker: 'user', observedAt: at(20) });
    await m.maintain();
    expect((await m.get(o1041))?.status).toBe('active');
    expect((await m.get(o1042))?.status).toBe('superseded');
    await m.close();
  });

  it('two adds of unrelated facts: the older stays current', async () => {
    const m = await createMemory({ encoder });
    const { id: older } = await m.add({ text: 'I walk my dog every morning', speaker: 'user', observedAt: at(1) });
    await m.add({ text: 'I take melatonin only on weekends now', speaker: 'user', observedAt: at(20) });
    await m.maintain();
    expect(await m.get(older)).toMatchObject({ status: 'active', supersededBy: [] });
    await m.close();
  });
});

describe('Memory.update replaces only the memory it names', () => {
  const NOTES = Array.from({ length: 7 }, (_, i) => `note ${i} about kiwi${i}`);

  it('update(note 1, "note 4 changed") supersedes note 1 only, after the write and after maintain()', async () => {
    const m = await createMemory({ encoder });
    const ids: string[] = [];
    for (const [i, text] of NOTES.entries()) ids.push((await m.add({ text, speaker: 'user', observedAt: at(i + 1) })).id);
    await m.maintain();
    const { id } = await m.update(ids[1] as string, { text: 'note 4 changed', observedAt: at(20) });
    expect(await superseded(m)).toEqual(['note 1 about kiwi1']);
    await m.maintain();
    expect(await superseded(m)).toEqual(['note 1 about kiwi1']);
    expect((await m.get(ids[1] as string))?.supersededBy).toEqual([id]);
    await m.close();
  });

  it("maintenance's configured System One does not infer another replacement for an update's version", async () => {
    const obsoleteAll = forcing((key) => (key.startsWith('maint.obsolete#') ? 0.99 : key.startsWith('maint.') ? 0.01 : undefined));
    const m = await createMemory({ encoder, systemOne: obsoleteAll, parameters: { maintenanceInterval: 0 } });
    const ids: string[] = [];
    for (const [i, text] of ['I take vitamin D every morning', 'I take melatonin to sleep'].entries()) ids.push((await m.add({ text, speaker: 'user', observedAt: at(i + 1) })).id);
    await m.maintain(); // the two facts' own pass: the forced head may link them to each other
    const before = await superseded(m);
    await m.update(ids[0] as string, { text: 'I stopped taking vitamin D', observedAt: at(20) });
    await m.maintain();
    expect(await superseded(m)).toEqual([...new Set([...before, 'I take vitamin D every morning'])].sort());
    await m.close();
  });
});
