/**
 * Long texts (issue 22/25): the write path's System-One requests read a long observation as its
 * passage (write/passage.ts: its first ~3,000 and last ~800 characters, cut at sentence ends), so
 * their cost does not grow with the text; a text of at most PASSAGE_CHARS characters is read whole,
 * as before. The node keeps its whole text.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { StateMemory } from '../../src/system-one/catalogue.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import { PASSAGE_CHARS, PASSAGE_HEAD_CHARS, PASSAGE_TAIL_CHARS, passageOf } from '../../src/write/passage.js';
import { forcing, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('write-long-text', (e) => (encoder = e));

/** Sentence `i` of a long text: 40-odd characters, each different. */
const sentence = (i: number): string => `Maya wrote line ${i} of her travel diary today.`;
/** A text of `n` sentences joined by spaces. */
const textOf = (n: number): string => Array.from({ length: n }, (_, i) => sentence(i)).join(' ');

/** A backend answering as the heuristic that keeps every request it is asked. */
function recording(): SystemOneBackend & { requests: SystemOneRequest[] } {
  const base = forcing(() => undefined);
  const b = {
    kind: 'test',
    modelId: 'test/recording@1',
    requests: [] as SystemOneRequest[],
    decide: (r: SystemOneRequest) => b.decideMany([r]).then((x) => x[0] as never),
    async decideMany(rs: SystemOneRequest[], o?: { signal?: AbortSignal; deadlineMs?: number }) {
      b.requests.push(...rs);
      return base.decideMany(rs, o);
    },
    close: () => base.close(),
  };
  return b;
}

/** Every text a request's state shows System One (observation, node, candidates). */
function textsOf(r: SystemOneRequest): string[] {
  const s = r.state as { observation?: { text: string }; node?: StateMemory; candidates?: StateMemory[] };
  return [s.observation?.text, s.node?.text, ...(s.candidates ?? []).map((c) => c.text)].filter((t): t is string => t !== undefined);
}

describe('passageOf', () => {
  it('is the text itself up to PASSAGE_CHARS characters', () => {
    const text = textOf(200).slice(0, PASSAGE_CHARS);
    expect(passageOf(text)).toBe(text);
  });

  it('is the first and last whole sentences of a longer text', () => {
    const text = textOf(2500); // about 119k characters
    const p = passageOf(text);
    const [head, tail] = p.split(' … ') as [string, string];
    // Whole sentences from the first, up to PASSAGE_HEAD_CHARS characters and more than half of them.
    expect(text.startsWith(head)).toBe(true);
    expect(head.endsWith('today.')).toBe(true);
    expect(head.length).toBeLessThanOrEqual(PASSAGE_HEAD_CHARS);
    expect(head.length).toBeGreaterThan(PASSAGE_HEAD_CHARS - 60);
    // Whole sentences to the last, at most PASSAGE_TAIL_CHARS characters.
    expect(text.endsWith(tail)).toBe(true);
    expect(tail.startsWith('Maya wrote line ')).toBe(true);
    expect(tail.endsWith(sentence(2499))).toBe(true);
    expect(tail.length).toBeLessThanOrEqual(PASSAGE_TAIL_CHARS);
    expect(tail.length).toBeGreaterThan(PASSAGE_TAIL_CHARS - 60);
  });
});

describe('a long observation on the write path', () => {
  it('is shown to System One as its passage in the typing, relation and maintenance requests; the node keeps the whole text', async () => {
    const backend = recording();
    const memory = await createMemory({ encoder, systemOne: backend });
    await memory.addMany(TURNS.slice(0, 4));
    const long = textOf(2000); // about 93k characters
    const before = backend.requests.length;
    const res = await memory.add({ text: long, speaker: 'Maya', observedAt: '2023-03-02T10:00:00Z' });
    await memory.maintain();
    const asked = backend.requests.slice(before);
    const kinds = new Set(asked.map((r) => r.state.kind));
    expect(kinds).toEqual(new Set(['typing', 'relation', 'maintenance']));
    const shown = asked.flatMap(textsOf);
    // The long text is shown only as its passage, never whole.
    expect(shown.filter((t) => t.length > PASSAGE_CHARS)).toEqual([]);
    expect(shown.filter((t) => t === passageOf(long)).length).toBeGreaterThanOrEqual(3);
    expect((await memory.get(res.id))?.text).toBe(long);
    await memory.close();
  });
});
