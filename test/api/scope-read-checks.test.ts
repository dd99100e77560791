/**
 * A read's scope values (`options.scope.userId` / `agentId` of list, recall (and answer), get,
 * delete, history, update, export, reset) get the write path's check (`checkScopeValue`): a
 * control character (NUL included) or more than 256 characters is `INVALID_INPUT` naming the
 * field, not a silent miss that looks like "no such memory". A sessionId keeps the write path's
 * rule for sessionIds (any non-empty string).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory, type MemoryScope } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { MemoryNode } from '../../src/types.js';
import { errorOf, keepOpen, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-scope-read-checks', (e) => (encoder = e));

/** Every call that takes `options.scope`, with that scope. */
function scopedCalls(memory: Memory, id: string, scope: MemoryScope): Array<[string, () => Promise<unknown>]> {
  return [
    ['list', () => memory.list({ scope })],
    ['recall', () => memory.recall('passport', { scope })],
    ['get', () => memory.get(id, { scope })],
    ['delete', () => memory.delete(id, { scope })],
    ['history', () => memory.history(id, { scope })],
    ['update', () => memory.update(id, { text: 'My passport number is Z1.' }, { scope })],
    ['export', () => memory.export({ scope })],
    ['reset', () => memory.reset({ scope })],
  ];
}

describe('scope values of the read side', () => {
  it('refuses a NUL, a newline or an over-long userId / agentId on every call, naming the field, and changes nothing', async () => {
    const memory = await createMemory({ encoder });
    const { id } = await memory.add({ text: 'My passport number is X1234567.', userId: 'alice', agentId: 'helper' });
    for (const [scope, field, why] of [
      [{ userId: 'alice\0' }, 'options.scope.userId', 'contains a control character (U+0000)'],
      [{ userId: 'alice', agentId: 'help\ner' }, 'options.scope.agentId', 'contains a control character (U+000A)'],
      [{ userId: 'a'.repeat(257) }, 'options.scope.userId', 'expected a non-empty string of at most 256 characters'],
    ] as const) {
      for (const [name, call] of scopedCalls(memory, id, scope)) {
        const e = (await errorOf(call())) as { code: string; field: string; message: string };
        expect([name, e.code, e.field], name).toEqual([name, 'INVALID_INPUT', field]);
        expect(e.message, name).toContain(why);
      }
    }
    expect((await memory.list()).memories.map((m) => m.text)).toEqual(['My passport number is X1234567.']);
    await memory.close();
  });

  it('accepts 256 characters, and a sessionId a store holds from before the write rule (a tab in it)', async () => {
    const memory = await createMemory({ encoder });
    const long = 'u'.repeat(256);
    const { id } = await memory.add({ text: 'My passport number is X1234567.', userId: long, sessionId: 's1' });
    expect((await memory.get(id, { scope: { userId: long } }))?.id).toBe(id);
    await memory.close();
    // The write path (and import, which holds each record to add's rules) refuses a control
    // character in a sessionId (write/validate.ts checkSessionId); a store written before holds
    // such ones: here the record is rewritten in the store itself.
    const storage = createMemoryStorage();
    const before = await createMemory({ encoder, storage: keepOpen(storage) });
    const { id: oldId } = await before.add({ text: 'My passport number is X1234567.', sessionId: 's1' });
    await before.close();
    const node = (await storage.getNodes('default', [oldId]))[0] as MemoryNode;
    await storage.commit('default', { putNodes: [{ ...node, provenance: { ...node.provenance, sessionId: 's\t1' } }] });
    const older = await createMemory({ encoder, storage });
    expect((await older.list({ scope: { sessionId: 's\t1' } })).memories.map((m) => m.id)).toEqual([oldId]);
    await older.close();
  });
});
