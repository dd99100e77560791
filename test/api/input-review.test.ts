/**
 * Input defects a fresh review found (stop 34): `import()` holds every record to add's own rules
 * (one validator) and refuses the whole file, naming the record and field, before writing; an id
 * argument that is not a string is INVALID_INPUT on every id-addressed call; `options.signal`
 * must be an AbortSignal on every call; a speaker with a control character is refused.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-input-review', (e) => (encoder = e));

const codeField = async (p: Promise<unknown>): Promise<[string, string]> => {
  const e = (await errorOf(p)) as { code: string; field: string };
  return [e.code, e.field];
};

/** An export of two memories, the second with a speaker and metadata. */
async function twoMemoryExport(): Promise<MemoryExport> {
  const m = await createMemory({ encoder });
  await m.add({ text: 'user: I keep bees on the roof', observedAt: '2024-03-01T10:00:00Z' });
  await m.add({ text: 'Ana: the hive swarmed in May', speaker: 'Ana', sessionId: 's1', metadata: { topic: 'bees' } });
  const file = await m.export();
  await m.close();
  return file;
}

/** Imports `file` into a fresh memory; returns the error's [code, field, message] and the nodes written. */
async function importEdited(file: unknown): Promise<{ code: string; field: string; message: string; nodes: number }> {
  const m = await createMemory({ encoder });
  try {
    const e = (await errorOf(m.import(file))) as { code: string; field: string; message: string };
    return { code: e.code, field: e.field, message: e.message, nodes: (await m.stats()).nodes };
  } finally {
    await m.close();
  }
}

describe('import holds each record to the rules of add', () => {
  it('a text of zero-width characters only: INVALID_INPUT naming export.nodes[1].text, nothing written', async () => {
    const file = await twoMemoryExport();
    (file.nodes[1] as { text: string }).text = '\u200b\u200b';
    const r = await importEdited(file);
    expect([r.code, r.field, r.nodes]).toEqual(['INVALID_INPUT', 'export.nodes[1].text', 0]);
    expect(r.message).toMatch(/^export\.nodes\[1\]\.text: expected text with a visible character/);
  });

  it('40 KB of metadata: TOO_LARGE naming export.nodes[1].provenance.metadata, nothing written', async () => {
    const file = await twoMemoryExport();
    (file.nodes[1] as { provenance: { metadata?: Record<string, unknown> } }).provenance.metadata = { note: 'x'.repeat(40_000) };
    const r = await importEdited(file);
    expect([r.code, r.field, r.nodes]).toEqual(['TOO_LARGE', 'export.nodes[1].provenance.metadata', 0]);
    expect(r.message.startsWith('export.nodes[1].provenance.metadata: ')).toBe(true);
  });

  it('text: 42 names the type; a text over maxTextChars is TOO_LARGE; a speaker or userId with a NUL is refused', async () => {
    let file = await twoMemoryExport();
    (file.nodes[0] as unknown as { text: number }).text = 42;
    let r = await importEdited(file);
    expect([r.code, r.field, r.message]).toEqual(['INVALID_INPUT', 'export.nodes[0].text', 'export.nodes[0].text: expected a string, got 42']);
    file = await twoMemoryExport();
    (file.nodes[0] as { text: string }).text = 'a'.repeat(40_000);
    const small = await createMemory({ encoder, parameters: { maxTextChars: 10_000 } });
    const e = (await errorOf(small.import(file))) as { code: string; field: string };
    expect([e.code, e.field, (await small.stats()).nodes]).toEqual(['TOO_LARGE', 'export.nodes[0].text', 0]);
    await small.close();
    file = await twoMemoryExport();
    (file.nodes[1] as { provenance: { speaker?: string } }).provenance.speaker = 'Ana\u0000evil';
    r = await importEdited(file);
    expect([r.code, r.field, r.nodes]).toEqual(['INVALID_INPUT', 'export.nodes[1].provenance.speaker', 0]);
    file = await twoMemoryExport();
    (file.nodes[1] as { provenance: { metadata?: Record<string, unknown> } }).provenance.metadata = { userId: 'bob\u0007' };
    r = await importEdited(file);
    expect([r.code, r.field, r.nodes]).toEqual(['INVALID_INPUT', 'export.nodes[1].provenance.metadata.userId', 0]);
  });

  it('an unedited export still imports whole', async () => {
    const file = await twoMemoryExport();
    const m = await createMemory({ encoder });
    expect(await m.import(file)).toMatchObject({ nodes: 2 });
    await m.close();
  });
});

describe('the id argument', () => {
  it('delete(5), get(5), history(null), update(5, …), edges({}) are INVALID_INPUT naming id', async () => {
    const m: Memory = await createMemory({ encoder });
    await m.add({ text: 'user: the gate code is 5' });
    expect(await codeField(m.delete(5 as never))).toEqual(['INVALID_INPUT', 'id']);
    expect(await codeField(m.get(5 as never))).toEqual(['INVALID_INPUT', 'id']);
    expect(await codeField(m.history(null as never))).toEqual(['INVALID_INPUT', 'id']);
    expect(await codeField(m.update(5 as never, { text: 'user: the gate code is 6' }))).toEqual(['INVALID_INPUT', 'id']);
    expect(await codeField(m.edges({} as never))).toEqual(['INVALID_INPUT', 'id']);
    expect(await codeField(m.delete(''))).toEqual(['INVALID_INPUT', 'id']);
    expect(await m.delete('no-such-id')).toBe(false);
    expect((await m.stats()).nodes).toBe(1);
    await m.close();
  });
});

describe('options.signal', () => {
  it('a string, a plain object or null is INVALID_OPTION naming options.signal on every call; a real signal works', async () => {
    const m: Memory = await createMemory({ encoder });
    const { id } = await m.add({ text: 'user: the gate code is 5' });
    for (const bad of ['x', { aborted: false }, null]) {
      const o = { signal: bad } as never;
      for (const call of [
        () => m.recall('gate code', o),
        () => m.add({ text: 'user: more' }, o),
        () => m.addMany([{ text: 'user: more' }], o),
        () => m.get(id, o),
        () => m.delete(id, o),
        () => m.history(id, o),
        () => m.edges(id, o),
        () => m.update(id, { text: 'user: the gate code is 6' }, o),
        () => m.list(o),
        () => m.export(o),
        () => m.maintain(o),
        () => m.stats(o),
      ]) {
        expect(await codeField(call()), `${String(call)} with ${JSON.stringify(bad)}`).toEqual(['INVALID_OPTION', 'options.signal']);
      }
    }
    expect((await m.stats()).nodes).toBe(1);
    expect((await m.recall('gate code', { signal: new AbortController().signal })).memories).toHaveLength(1);
    await m.close();
  });
});

describe('speaker', () => {
  it('a NUL or another control character in speaker (or a chat message name) is INVALID_INPUT naming the field; nothing written', async () => {
    const m: Memory = await createMemory({ encoder });
    expect(await codeField(m.add({ text: 'hi', speaker: 'bob\u0000evil' }))).toEqual(['INVALID_INPUT', 'observation.speaker']);
    expect(await codeField(m.add({ text: 'hi', speaker: 'bob\nevil' }))).toEqual(['INVALID_INPUT', 'observation.speaker']);
    expect(await codeField(m.addMany([{ text: 'ok', speaker: 'Ana' }, { role: 'user', content: 'hi', name: 'x\u001b[31m' }]))).toEqual(['INVALID_INPUT', 'observations[1].speaker']);
    expect((await m.stats()).nodes).toBe(0);
    await m.add({ text: 'hi', speaker: 'Zoë O\u2019Brien' });
    expect((await m.stats()).nodes).toBe(1);
    await m.close();
  });
});
