/**
 * A namespace forgotten by another connection to the same SQLite store (the CLI's `forget` in
 * another process, or a second Memory in this one) reads as empty in a Memory that had it open:
 * recall returns [] (before: STORAGE_FAILED "no such table: jev_mem_rec_fts3_1", the lexical
 * index's table name cached from before the forget), and its next write works and is found. A
 * table number the forget freed and another namespace took is never read as this one's (this last
 * case passed before the fix too: a guard on the search's join to the namespace's own records).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { cli, lifecycleFixture } from './helpers.js';
import { quietLogger } from './stores.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('forget-elsewhere', (e) => (encoder = e));

async function open(dir: string, namespace: string): Promise<Memory> {
  return createMemory({ encoder, storage: await createSqliteFileStorage({ dir, logger: quietLogger }), systemOne: createHeuristicSystemOne(), namespace });
}

const texts = async (m: Memory, q: string): Promise<string[]> => (await m.recall(q)).memories.map((x) => x.text);

describe('forget by another connection to the same store', () => {
  it('a second Memory forgets "me": the first recalls [] twice, then writes and finds the new memory', async () => {
    const dir = join(tempDir(), 'store');
    const a = await open(dir, 'me');
    try {
      await a.add({ text: 'user: my dog is called Rex', speaker: 'user' });
      await a.add({ text: 'user: I live in Porto', speaker: 'user' });
      expect(await texts(a, 'dog')).toContain('user: my dog is called Rex');
      const b = await open(dir, 'me');
      await b.forget('me');
      await b.close();
      expect(await texts(a, 'dog')).toEqual([]);
      expect(await texts(a, 'dog')).toEqual([]);
      expect((await a.stats()).nodes).toBe(0);
      await a.add({ text: 'user: I have a cat named Tom', speaker: 'user' });
      expect(await texts(a, 'cat Tom')).toEqual(['user: I have a cat named Tom']);
    } finally {
      await a.close();
    }
  });

  it('the CLI forgets "me" while a Memory has it open: recall [] without an error', async () => {
    const dir = join(tempDir(), 'store');
    const a = await open(dir, 'me');
    try {
      await a.add({ text: 'user: my dog is called Rex', speaker: 'user' });
      expect(await texts(a, 'dog Rex')).toEqual(['user: my dog is called Rex']);
      const r = await cli(['forget', '--store', dir, '--namespace', 'me', '--system-one', 'heuristic']);
      expect(r.code).toBe(0);
      expect(await texts(a, 'dog Rex')).toEqual([]);
    } finally {
      await a.close();
    }
  });

  it('the freed table number goes to another namespace: "me" never reads its terms', async () => {
    const dir = join(tempDir(), 'store');
    const a = await open(dir, 'me');
    try {
      await a.add({ text: 'user: my dog is called Rex', speaker: 'user' });
      expect(await texts(a, 'dog Rex')).toEqual(['user: my dog is called Rex']);
      const b = await open(dir, 'me');
      await b.forget('me');
      await b.close();
      const c = await open(dir, 'you');
      await c.add({ text: 'user: my parrot is called Rex', speaker: 'user' });
      await c.close();
      expect(await texts(a, 'parrot Rex')).toEqual([]);
      await a.add({ text: 'user: Rex the dog is back', speaker: 'user' });
      expect(await texts(a, 'Rex')).toEqual(['user: Rex the dog is back']);
      const again = await open(dir, 'you');
      expect(await texts(again, 'parrot Rex')).toEqual(['user: my parrot is called Rex']);
      await again.close();
    } finally {
      await a.close();
    }
  });
});
