import { describe, expect, it } from 'vitest';
import { isUserRole, statements, TASTE_MAX_STATEMENTS, tasteScores } from '../../src/read/taste.js';
import type { MemoryNode } from '../../src/types.js';

function node(id: string, text: string, speaker?: string): MemoryNode {
  return { id, text, seq: 0, provenance: speaker === undefined ? {} : { speaker }, status: 'active', timeRefs: [], entities: [], keywords: [], supersededBy: [], duplicates: [] } as unknown as MemoryNode;
}

describe('statements (taste.ts)', () => {
  it('keeps the sentences that are not questions and speak in the first person', () => {
    const text = "What should I cook tonight? I've been really into Thai food lately. The oven is broken. We are vegetarian, so no fish sauce! Do you know a shop?";
    expect(statements(text)).toEqual(["I've been really into Thai food lately.", 'We are vegetarian, so no fish sauce!']);
    expect(statements('Could you compare that with the other one?')).toEqual([]);
    expect(statements('Sounds good to me')).toEqual(['Sounds good to me']);
  });
});

describe('isUserRole', () => {
  it('is true for a role that is not an assistant role, false for assistants, names and no speaker', () => {
    expect(isUserRole(node('a', 'x', 'user'))).toBe(true);
    expect(isUserRole(node('a', 'x', 'Human'))).toBe(true);
    expect(isUserRole(node('a', 'x', 'assistant'))).toBe(false);
    expect(isUserRole(node('a', 'x', 'Maya'))).toBe(false);
    expect(isUserRole(node('a', 'x'))).toBe(false);
  });
});

describe('tasteScores', () => {
  // A toy encoder: 2-d vectors by the statement's first word.
  const VEC: Record<string, [number, number]> = { I: [1, 0], My: [0.6, 0.8], We: [0, 1] };
  const embed = async (texts: string[]): Promise<Float32Array[]> => texts.map((t) => Float32Array.from(VEC[t.split(' ')[0] as string] ?? [0, 0]));

  it('gives each node the best cosine of the query with one of its statements; a node without statements is absent', async () => {
    const q = Float32Array.from([3, 4]); // |q| = 5
    const a = node('a', 'I like tea. My cat is old. Any advice?');
    const b = node('b', 'We hike every week.');
    const c = node('c', 'What is a good hike?');
    const got = await tasteScores(q, [a, b, c], embed);
    expect(got.get('a')).toBeCloseTo(1, 6); // max(cos((3,4),(1,0)) = 0.6, cos((3,4),(0.6,0.8)) = 1)
    expect(got.get('b')).toBeCloseTo(0.8, 6); // cos((3,4),(0,1))
    expect(got.has('c')).toBe(false);
  });

  it(`embeds at most TASTE_MAX_STATEMENTS (${TASTE_MAX_STATEMENTS}) statements, whole nodes in the given order`, async () => {
    let embedded = 0;
    const counting = async (texts: string[]): Promise<Float32Array[]> => {
      embedded += texts.length;
      return embed(texts);
    };
    const many = 'I run. '.repeat(TASTE_MAX_STATEMENTS - 1).trim();
    const got = await tasteScores(Float32Array.from([1, 0]), [node('a', many), node('b', 'I swim. I cycle.'), node('c', 'I row.')], counting);
    expect(embedded).toBe(TASTE_MAX_STATEMENTS - 1); // b would pass the cap, so the loop stops there
    expect([...got.keys()]).toEqual(['a']);
  });
});
