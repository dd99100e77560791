import { describe, expect, it } from 'vitest';
import { asksDuration, isUserRole, ITEM_SENTENCE_WORDS, itemMatch, itemScores, statementMode, statements, TASTE_MAX_STATEMENTS, tasteScores } from '../../src/read/taste.js';
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

  it('gives each node the best cosine of the query with one of its statements, the common component removed; a node without statements is absent', async () => {
    const q = Float32Array.from([3, 4]); // unit (0.6, 0.8)
    const a = node('a', 'I like tea. My cat is old. Any advice?');
    const b = node('b', 'We hike every week.');
    const c = node('c', 'What is a good hike?');
    const got = await tasteScores(q, [a, b, c], embed);
    // c̄ = mean of (1,0), (0.6,0.8), (0,1) = (8/15, 3/5); q − c̄ = (1/15, 1/5) ∝ (1,3).
    // a: "My …" − c̄ = (1/15, 1/5), the same direction → 1 ("I …" − c̄ ∝ (7,−9): −0.55).
    // b: "We …" − c̄ = (−8/15, 2/5) ∝ (−4,3) → (−4 + 9)/(5·√10) = 1/√10.
    expect(got.get('a')).toBeCloseTo(1, 6);
    expect(got.get('b')).toBeCloseTo(1 / Math.sqrt(10), 6);
    expect(got.has('c')).toBe(false);
  });

  it('ranks a topical taste above generic first-person lines that are close to every question', async () => {
    // Axis 0: the component every sentence shares; axis 1: the question's topic (shows); axis 2: another topic.
    const V: Record<string, [number, number, number]> = { Generic: [1, 0, 0], Also: [1, 0, 0.1], Again: [1, 0.05, 0], Crime: [0.3, 0.95, 0] };
    const emb = async (texts: string[]): Promise<Float32Array[]> => texts.map((t) => Float32Array.from(V[t.split(' ')[0] as string] ?? [0, 0, 0]));
    const q = Float32Array.from([0.9, 0.436, 0]); // "Can you recommend a show?": mostly the shared component
    const nodes = [node('g1', 'Generic I have been meaning to ask you.'), node('g2', 'Also my partner and I keep arguing.'), node('g3', 'Again I tried a few things already.'), node('t', 'Crime dramas are the only thing I finish.')];
    const got = await tasteScores(q, nodes, emb);
    // Raw cosines would put every generic line (≈ 0.9) above the taste (≈ 0.69).
    for (const g of ['g1', 'g2', 'g3']) expect(got.get('t') as number).toBeGreaterThan((got.get(g) as number) + 0.5);
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

describe('statementMode and asksDuration (issue 24: which statements a question is matched against)', () => {
  it("reads a suggestion request as 'taste', a question for several things about the user as 'items', anything else as none", () => {
    expect(statementMode('Can you recommend a show for tonight?')).toBe('taste');
    expect(statementMode('What camera accessories would you suggest for me?')).toBe('taste'); // a suggestion first
    expect(statementMode('What sports have I picked up since the start of the year?')).toBe('items');
    expect(statementMode('How many books have I finished this month?')).toBe('items');
    expect(statementMode('How many times have I been to the gym?')).toBe('items');
    expect(statementMode('Where do I work now?')).toBeUndefined();
    expect(statementMode('Which books did you recommend to me?')).toBeUndefined(); // the assistant's turns
    expect(statementMode('How many days passed between my checkup and the interview?')).toBeUndefined(); // a duration
  });

  it('is true only for "how many" before a unit of time', () => {
    expect(asksDuration('How many days passed between getting the tyres on and renewing my passport?')).toBe(true);
    expect(asksDuration('how many weeks since I started?')).toBe(true);
    expect(asksDuration('How many books have I read?')).toBe(false);
    expect(asksDuration('How many times did I go running?')).toBe(false);
    expect(asksDuration('How long ago was it?')).toBe(false);
  });
});

describe('statements without the first-person filter', () => {
  it('keeps every sentence that is not a question', () => {
    expect(statements('Finally got through Middlemarch on the train. Is it weird that I cried?', false)).toEqual(['Finally got through Middlemarch on the train.']);
    expect(statements('Finally got through Middlemarch on the train. Is it weird that I cried?')).toEqual([]);
  });
});

describe('itemScores (the items mode: whole turns, centred cosine)', () => {
  it('gives each node the cosine of the query with its stored vector after removing the mean of the given vectors; a node without a vector is absent', () => {
    // Axis 0: the component every first-person turn shares; axis 1: the question's items.
    const V: Record<string, number[]> = { g1: [1, 0], g2: [1, 0], g3: [1, 0], item: [0.6, 0.8] };
    const nodes = ['g1', 'g2', 'g3', 'item', 'none'].map((id) => node(id, id, 'user'));
    const q = Float32Array.from([0.8, 0.6]); // raw cosines: generic 0.8, item 0.96
    const got = itemScores(q, nodes, (id) => (V[id] === undefined ? undefined : Float32Array.from(V[id] as number[])));
    // c̄ = ((3 + 0.6)/4, 0.8/4) = (0.9, 0.2); q − c̄ = (−0.1, 0.4); generic − c̄ = (0.1, −0.2); item − c̄ = (−0.3, 0.6).
    // cos(q − c̄, item − c̄) = (0.03 + 0.24)/(√0.17·√0.45) = 0.27/√0.0765; cos with generic = (−0.01 − 0.08)/(√0.17·√0.05).
    expect(got.get('item')).toBeCloseTo(0.27 / Math.sqrt(0.0765), 5);
    expect(got.get('g1')).toBeCloseTo(-0.09 / Math.sqrt(0.0085), 5);
    expect(got.has('none')).toBe(false);
    expect(itemScores(q, [], () => undefined).size).toBe(0);
  });
});

describe('itemMatch (the items mode: the better of the whole turn and, for a long turn, its best sentence)', () => {
  const words = (n: number, w: string): string => Array.from({ length: n }, () => w).join(' ');
  it(`keeps the larger of the two scores of a turn over ITEM_SENTENCE_WORDS (${ITEM_SENTENCE_WORDS}) words, the whole-turn score of a shorter one`, () => {
    const long = (id: string): MemoryNode => node(id, `${words(ITEM_SENTENCE_WORDS, 'chatter')}. Item.`, 'user'); // 41 words
    const short = (id: string): MemoryNode => node(id, `${words(ITEM_SENTENCE_WORDS - 1, 'chatter')} item.`, 'user'); // 40 words
    const nodes = [long('a'), long('b'), short('c'), long('d'), short('e')];
    const whole = new Map([['a', 0.2], ['b', 0.7], ['c', -0.4], ['e', 0.1]]);
    const sentences = new Map([['a', 0.9], ['b', 0.1], ['c', 0.8], ['d', 0.3], ['e', 0.5], ['x', 0.6]]);
    // a: long, 0.9 > 0.2; b: long, 0.7 > 0.1; c and e: 40 words, whole only; d: long, sentence only; x: not measured.
    expect([...itemMatch(nodes, whole, sentences)].sort()).toEqual([['a', 0.9], ['b', 0.7], ['c', -0.4], ['d', 0.3], ['e', 0.1]]);
    expect(itemMatch([], new Map(), new Map()).size).toBe(0);
  });

  it('lifts an item named in one sentence of a long turn above a generic turn that is nearer as a whole', async () => {
    // Axis 0: the common first-person component; axis 1: the question's items; axis 2: a topic.
    // The long turn is two chatter sentences on the topic and one item sentence; its stored
    // (whole-turn) vector is their sum, as a bag-of-words sentence encoder gives it.
    const S: Record<string, number[]> = { Chatter: [1, 0, 1], Item: [0, 1, 0], Generic: [1, 0, 0] };
    const W: Record<string, number[]> = { long: [2, 1, 2], g1: [1, 0, 0], g2: [1, 0.2, 0] };
    const text = `Chatter ${words(20, 'on')}. Item here. Chatter ${words(20, 'on')}.`; // 45 words
    const nodes = [node('long', text, 'user'), node('g1', 'Generic a.', 'user'), node('g2', 'Generic b.', 'user')];
    const q = Float32Array.from([1, 1, 0]);
    const vec = (id: string): Float32Array | undefined => (W[id] === undefined ? undefined : Float32Array.from(W[id] as number[]));
    const whole = itemScores(q, nodes, vec);
    const emb = async (texts: string[]): Promise<Float32Array[]> => texts.map((t) => Float32Array.from(S[t.split(' ')[0] as string] as number[]));
    const sentences = await tasteScores(q, nodes, emb, false);
    // Whole turns: c̄_W = mean of (2,1,2)/3, (1,0,0), (1,0.2,0)/√1.04 = (0.8824, 0.1765, 0.2222);
    // q/|q| − c̄_W = (−0.1753, 0.5306, −0.2222); long − c̄_W = (−0.2157, 0.1569, 0.4444),
    // cos = 0.02229/(0.6014·0.5183) = 0.0715; g2 − c̄_W = (0.0982, 0.0196, −0.2222),
    // cos = 0.04260/(0.6014·0.2437) = 0.2906: the topic chatter dilutes the long turn's item.
    expect(whole.get('long')).toBeCloseTo(0.0715, 3);
    expect(whole.get('g2')).toBeCloseTo(0.2906, 3);
    // Sentences: c̄_S = mean of two (1,0,1)/√2, one (0,1,0), two (1,0,0) = (0.6828, 0.2, 0.2828);
    // q/|q| − c̄_S = (0.0243, 0.5071, −0.2828); Item − c̄_S = (−0.6828, 0.8, −0.2828):
    // cos = (−0.0166 + 0.4057 + 0.0800)/(0.5812·1.0892) = 0.7411 (the chatter sentences: < 0).
    expect(sentences.get('long')).toBeCloseTo(0.7411, 3);
    const m = itemMatch(nodes, whole, sentences);
    expect(m.get('long')).toBeCloseTo(0.7411, 3);
    expect(m.get('g2')).toBeCloseTo(0.2906, 3); // short: its whole-turn match ("Generic b." alone: < 0)
    expect(m.get('long') as number).toBeGreaterThan(m.get('g2') as number);
  });
});
