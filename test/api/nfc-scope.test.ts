/**
 * Issue 22 ("data you can trust"): `userId`, `agentId`, `sessionId` and `speaker` are one value
 * whether typed composed (NFC, "José" with U+00E9) or decomposed (NFD, "Jose" + U+0301, as macOS
 * input gives it). They are stored in NFC, and every read (scope of list / export / reset /
 * recall, the speaker filter) compares in NFC, so values an older store holds in NFD are found.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { bindScope, filterScopeConflict } from '../../src/integrations/tool-scope.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-nfc', (e) => (encoder = e));

const NFC = 'Jos\u00e9';
const NFD = 'Jose\u0301';

describe('scope ids and speakers in Unicode form NFC', () => {
  it('sanity: the two spellings differ as strings', () => {
    expect(NFC).not.toBe(NFD);
    expect(NFD.normalize('NFC')).toBe(NFC);
  });

  for (const [written, asked] of [[NFD, NFC], [NFC, NFD]] as const) {
    it(`a memory written with ${written === NFD ? 'NFD' : 'NFC'} ids is found, exported and erased by ${asked === NFD ? 'NFD' : 'NFC'} ones`, async () => {
      const memory = await createMemory({ encoder });
      await memory.add({ text: 'I live in Lisbon now.', userId: written, agentId: written, sessionId: written, speaker: written });
      await memory.add({ text: 'Someone else likes tea.', userId: 'other', speaker: 'Ana' });
      const [stored] = (await memory.list({ filter: { userId: 'Jos\u00e9'.normalize(written === NFD ? 'NFD' : 'NFC') } })).memories;
      // stored in NFC whichever way it was given
      expect(stored?.provenance.metadata?.['userId']).toBe(NFC);
      expect(stored?.provenance.speaker).toBe(NFC);
      expect(stored?.provenance.sessionId).toBe(NFC);
      const scope = { userId: asked, agentId: asked, sessionId: asked };
      expect((await memory.list({ scope })).memories.map((m) => m.text)).toEqual(['I live in Lisbon now.']);
      expect((await memory.list({ filter: { speaker: asked } })).memories.map((m) => m.text)).toEqual(['I live in Lisbon now.']);
      expect((await memory.list({ filter: { speaker: { $in: [asked] } } })).memories.length).toBe(1);
      expect((await memory.recall('Where do I live?', { scope })).memories.map((m) => m.text)).toEqual(['I live in Lisbon now.']);
      expect((await memory.export({ scope: { userId: asked } })).nodes.map((n) => n.text)).toEqual(['I live in Lisbon now.']);
      // update under the scope given the other way is inside it (not "moved out of its scope")
      await memory.update(stored!.id, { text: 'I live in Porto now.', userId: asked }, { scope: { userId: asked } });
      await memory.reset({ scope: { userId: asked } });
      expect((await memory.list()).memories.map((m) => m.text)).toEqual(['Someone else likes tea.']);
      await memory.close();
    });
  }

  it('a store holding NFD values (written before the rule) is still found by NFC reads', async () => {
    const memory = await createMemory({ encoder });
    await memory.add({ text: 'I live in Lisbon now.', userId: NFC, speaker: NFC });
    const file = await memory.export();
    await memory.close();
    // an older version stored ids as given: the same file with the NFD spelling
    const old = JSON.parse(JSON.stringify(file).replaceAll(NFC, NFD)) as typeof file;
    expect(old.nodes[0]?.provenance.speaker).toBe(NFD);
    const other = await createMemory({ encoder });
    await other.import(old);
    expect((await other.list({ scope: { userId: NFC } })).memories.length).toBe(1);
    expect((await other.list({ filter: { speaker: NFC } })).memories.length).toBe(1);
    await other.reset({ scope: { userId: NFC } });
    expect((await other.list()).memories).toEqual([]);
    await other.close();
  });

  it('tools (MCP, AI SDK) and tokens bound to a scope take the other spelling as the same user', () => {
    expect(bindScope({ userId: NFD, query: 'q' }, { userId: NFC })).toEqual({ userId: NFC, query: 'q' });
    expect(filterScopeConflict({ userId: NFD }, { userId: NFC }, 'filter')).toBeUndefined();
    expect(filterScopeConflict({ userId: 'bob' }, { userId: NFC }, 'filter')).toEqual({ field: 'filter.userId', key: 'userId' });
  });
});
