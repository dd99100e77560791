/**
 * Hostile review h-break13: a repeat is one only by the same speaker. An assistant turn with the
 * words of the user's turn before it (same time) was merged into the user's memory
 * (`deduplicated: true`, stored as speaker `user`): it is another observation. Stores whose
 * checkpoint holds the repeat keys of before (no speaker) still find their same-speaker repeats;
 * recalled memories carry their merged repeats (`duplicates`), as `get` does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { BOOK_DEDUP_PART, CHECKPOINT_FORMAT, CHECKPOINT_FORMAT_3 } from '../../src/plane/resident/checkpoint-format.js';
import { dedupKey, dedupScopeOf, nodeDedupKey } from '../../src/plane/resident/keys.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { MemoryNode, Observation } from '../../src/types.js';
import { hash53 } from '../../src/util/hash.js';
import { cli, keepOpen, lifecycleFixture } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('dedup-speaker', (e) => (encoder = e));

const AT = '2024-03-01T10:00:00Z';
const USER: Observation = { text: 'Sounds good, see you at the station at noon.', speaker: 'user', observedAt: AT, sessionId: 's1', turnId: 's1:0' };

describe('a repeat by another speaker', () => {
  it("is the other speaker's memory, not merged into the first speaker's (add and addMany)", async () => {
    const memory = await createMemory({ encoder });
    const user = await memory.add(USER);
    const assistant = await memory.add({ ...USER, speaker: 'assistant', turnId: 's1:1' });
    expect(assistant.deduplicated).toBe(false);
    expect(assistant.id).not.toBe(user.id);
    expect((await memory.get(assistant.id))?.provenance.speaker).toBe('assistant');
    expect((await memory.get(user.id))?.duplicates).toBeUndefined();
    // In one batch as well; the same speaker's repeat still merges, its name's case aside.
    const batch = await memory.addMany([
      { ...USER, text: 'Okay, noted.', turnId: 's1:2' },
      { ...USER, text: 'Okay, noted.', speaker: 'assistant', turnId: 's1:3' },
      { ...USER, text: 'Okay, noted.', speaker: 'User', turnId: 's1:4' },
    ]);
    expect(batch.map((r) => r.deduplicated)).toEqual([false, false, true]);
    expect(batch[2]?.id).toBe(batch[0]?.id);
    expect(batch[1]?.id).not.toBe(batch[0]?.id);
    expect((await memory.stats()).nodes).toBe(4);
    await memory.close();
  });

  it('a write without a speaker is not a repeat of one with a speaker', async () => {
    const memory = await createMemory({ encoder });
    const { speaker: _s, ...anonymous } = USER;
    const a = await memory.add(USER);
    const b = await memory.add(anonymous);
    expect(b.deduplicated).toBe(false);
    expect(b.id).not.toBe(a.id);
    await memory.close();
  });
});

/**
 * Rewrites the checkpoint of `default` in `storage` as a store written before the speaker was
 * part of the repeat key holds it (f3d5c55, format @3: the same parts): each repeat key of
 * `book.dedup` is replaced by the key of its node without the speaker, and the tag is @3.
 */
async function checkpointWithoutSpeakerKeys(storage: ReturnType<typeof keepOpen>, nodes: MemoryNode[]): Promise<number> {
  const cp = (await storage.readCheckpoint!('default'))!;
  const part = cp.parts[BOOK_DEDUP_PART]!.slice();
  const n = part.length / 12;
  const keys = new Float64Array(part.buffer, 0, n);
  let replaced = 0;
  for (let i = 0; i < n; i++) {
    const node = nodes.find((x) => hash53(nodeDedupKey(x)) === keys[i]);
    if (node === undefined) continue;
    const p = node.provenance;
    keys[i] = hash53(dedupKey(node.text, node.observedAt, p.source, dedupScopeOf(p.metadata), p.metadata));
    replaced++;
  }
  expect(cp.format).toBe(CHECKPOINT_FORMAT);
  await storage.writeCheckpoint!('default', { ...cp, format: CHECKPOINT_FORMAT_3, parts: { ...cp.parts, [BOOK_DEDUP_PART]: part } });
  return replaced;
}

describe('a store whose checkpoint holds the repeat keys without the speaker', () => {
  it('still merges a repeat by the same speaker, and keeps one by another speaker apart', async () => {
    const storage = keepOpen(createMemoryStorage());
    const first = await createMemory({ encoder, storage });
    const user = await first.add(USER);
    const other = await first.add({ ...USER, text: 'The train leaves at noon.', metadata: { channel: 'sms' }, turnId: 's1:5' });
    const nodes = [(await first.get(user.id))!, (await first.get(other.id))!];
    await first.close();
    expect(await checkpointWithoutSpeakerKeys(storage, nodes)).toBe(2);
    const second = await createMemory({ encoder, storage });
    expect((await second.stats()).opened.from).toBe('checkpoint');
    expect(await second.add({ ...USER, turnId: 'again' })).toMatchObject({ id: user.id, deduplicated: true });
    expect(await second.add({ ...USER, text: 'The train leaves at noon.', metadata: { channel: 'sms' }, turnId: 'again-2' })).toMatchObject({ id: other.id, deduplicated: true });
    const assistant = await second.add({ ...USER, speaker: 'assistant', turnId: 's1:1' });
    expect(assistant.deduplicated).toBe(false);
    expect((await second.get(user.id))?.duplicates?.map((d) => d.turnId)).toEqual(['again']);
    // Once the memory is erased, the same words (found under the older key) are a new memory.
    expect(await second.delete(user.id)).toBe(true);
    const after = await second.add({ ...USER, turnId: 'after' });
    expect(after.deduplicated).toBe(false);
    expect(after.id).not.toBe(user.id);
    await second.close();
    // Replaced at close by a checkpoint of this build (@4), which opens as current.
    expect((await storage.readCheckpoint!('default'))?.format).toBe(CHECKPOINT_FORMAT);
    const third = await createMemory({ encoder, storage });
    expect((await third.stats()).opened.from).toBe('checkpoint');
    expect(await third.add({ ...USER, turnId: 'third' })).toMatchObject({ id: after.id, deduplicated: true });
    await third.close();
    await storage.reallyClose();
  });
});

describe('recalled memories carry their merged repeats', () => {
  it('recall gives `duplicates` as get does (their turn ids), and none on a memory without repeats', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add(USER);
    await memory.add({ ...USER, sessionId: 's9', turnId: 's9:4' });
    const b = await memory.add({ text: 'I bought a new umbrella for the rainy season.', speaker: 'user', observedAt: AT, turnId: 's1:7' });
    const { memories } = await memory.recall('When do we meet at the station?', { k: 5 });
    const hit = memories.find((m) => m.id === a.id);
    expect(hit?.duplicates?.map((d) => [d.sessionId, d.turnId, d.speaker])).toEqual([['s9', 's9:4', 'user']]);
    expect(hit?.duplicates).toEqual((await memory.get(a.id))?.duplicates);
    expect(memories.find((m) => m.id === b.id)).toBeDefined();
    expect(memories.find((m) => m.id === b.id)?.duplicates).toBeUndefined();
    await memory.close();
  });

  it('recall --json prints them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-dedup-speaker-'));
    try {
      const file = join(dir, 'turns.jsonl');
      writeFileSync(file, [USER, { ...USER, turnId: 's1:9' }, { ...USER, speaker: 'assistant', turnId: 's1:1' }].map((o) => JSON.stringify(o)).join('\n'));
      const store = join(dir, 'store');
      expect((await cli(['ingest', file, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
      const r = await cli(['recall', 'station at noon', '--json', '--store', store]);
      const got = (JSON.parse(r.out[0]!) as { memories: Array<{ provenance: { speaker: string; turnId: string }; duplicates?: Array<{ turnId: string }> }> }).memories;
      const bySpeaker = Object.fromEntries(got.map((m) => [m.provenance.speaker, { turn: m.provenance.turnId, repeats: m.duplicates?.map((d) => d.turnId) }]));
      expect(bySpeaker).toEqual({ user: { turn: 's1:0', repeats: ['s1:9'] }, assistant: { turn: 's1:1', repeats: undefined } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
