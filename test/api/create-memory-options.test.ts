/**
 * createMemory without the encoder it needs says what to pass, and where a ready-made one is
 * (a new user's first call, `createMemory()`, said "option options: expected an object").
 */
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory.js';

const refusal = async (p: Promise<unknown>): Promise<[string, string, string]> => {
  try {
    await p;
  } catch (e) {
    const x = e as { code: string; field: string; message: string };
    return [x.code, x.field, x.message];
  }
  return ['resolved', '', ''];
};

describe('createMemory options', () => {
  it('no options and no encoder name the encoder and createNodeMemory', async () => {
    const none = await refusal((createMemory as (o?: unknown) => Promise<unknown>)());
    expect(none.slice(0, 2)).toEqual(['INVALID_OPTION', 'options']);
    expect(none[2]).toContain('createNodeMemory() from jev-mem/node');
    const empty = await refusal(createMemory({} as never));
    expect(empty.slice(0, 2)).toEqual(['INVALID_OPTION', 'encoder']);
    expect(empty[2]).toContain('createNodeMemory() from jev-mem/node');
    expect((await refusal(createMemory(null as never))).slice(0, 3)).toEqual(['INVALID_OPTION', 'options', 'option options: expected an object']);
  });
});
