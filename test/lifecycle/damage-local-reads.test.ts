/**
 * Damage stays local on the read path (issue 22; h-break9 finding 8): a run of 12 zeroed pages
 * in the middle of a store file of 400 memories (`dd if=/dev/zero … seek=60 count=12
 * conv=notrunc`; here the two pages of it that matter) made every `recall` fail with STORE_DAMAGED (CLI exit 3), since the look-up that
 * tells a damaged record from an absent one read a zeroed index page too and failed the whole
 * read. A recall now leaves the unreadable records out, answers from the rest, counts them in
 * `trace.damaged` and `stats().damaged`, and warns once (`RECORDS_DAMAGED`).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { LogEntry } from '../../src/util/logger.js';
import { cli, lifecycleFixture } from './helpers.js';
import { DAY_TURNS, openFixed, zeroedStore } from './zeroed-store.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-local-reads', (e) => (encoder = e));

describe('recall in a store file with a run of zeroed pages', () => {
  it('answers from the readable records, counts the others in trace.damaged and stats().damaged, and warns once', async () => {
    const dir = tempDir();
    const { before, id, lost } = await zeroedStore(encoder, dir, 200);
    const warnings: Array<{ message: string; entry: LogEntry }> = [];
    const m = await openFixed(encoder, dir, (_level, message, entry) => warnings.push({ message, entry }));
    try {
      // Turn 200 is the nearest memory to this question: its record is read first, and is unreadable.
      const r = await m.recall(DAY_TURNS[200]!.text, { k: 3 });
      const damaged = (await m.stats()).damaged;
      // Turn 200 is named, and only records on the zeroed pages are.
      expect(damaged.ids).toContain(id);
      const lostIds = new Set(lost.map((i) => before.nodes.find((n) => n.text === DAY_TURNS[i]!.text)!.id));
      expect(damaged.ids.filter((x) => !lostIds.has(x))).toEqual([]);
      expect(damaged.count).toBeGreaterThanOrEqual(damaged.ids.length);
      expect(r.trace.damaged).toBeGreaterThan(0);
      expect(r.trace.damaged).toBeLessThanOrEqual(damaged.ids.length);
      // Every memory returned is one of the store's, whole, and none is a damaged one.
      const byId = new Map(before.nodes.map((n) => [n.id, n.text]));
      expect(r.memories).toHaveLength(3);
      for (const x of r.memories) {
        expect(x.text).toBe(byId.get(x.id));
        expect(damaged.ids).not.toContain(x.id);
      }
      // The answer is made of the turns next to day 200, which are readable.
      expect(r.memories.map((x) => x.id)).not.toContain(id);
      expect(warnings.filter((w) => w.entry.code === 'RECORDS_DAMAGED')).toHaveLength(1);
      expect(warnings[0]!.message).toContain(`left out ${r.trace.damaged} memory record(s)`);
      const again = await m.recall(DAY_TURNS[120]!.text, { k: 3 });
      expect(again.trace.damaged).toBeGreaterThanOrEqual(r.trace.damaged!);
      expect(again.memories[0]!.text).toBe(DAY_TURNS[120]!.text);
      // A recall warns again only when it met records it had not met unreadable before.
      expect(warnings.filter((w) => w.entry.code === 'RECORDS_DAMAGED')).toHaveLength(again.trace.damaged! > r.trace.damaged! ? 2 : 1);
    } finally {
      await m.close();
    }
  }, 120_000);

  it('jev-mem recall exits 0 with the readable memories', async () => {
    const dir = tempDir();
    const { id } = await zeroedStore(encoder, dir, 200);
    const r = await cli(['recall', DAY_TURNS[200]!.text, '--store', dir, '--namespace', 'chat', '--k', '3', '--json']);
    expect(r.code, r.err.join('\n')).toBe(0);
    const out = JSON.parse(r.out[0]!) as { memories: Array<{ id: string }>; trace: { damaged?: number } };
    expect(out.memories).toHaveLength(3);
    expect(out.memories.map((x) => x.id)).not.toContain(id);
    expect(out.trace.damaged).toBeGreaterThan(0);
  });
});
