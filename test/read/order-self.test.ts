/**
 * The before/after step when the anchor's own message answers (issue 24, hostile review of
 * cbb897b, src/read/order-self.ts) and the range of the lifted scores. On cbb897b an unrelated
 * memory of relevance 0.003-0.008 was lifted above "Our dog Biscuit passed away … We adopted …
 * Pepper" for "Which dog did Priya have before Pepper?" (and the car and course questions), and
 * "What was I training for before I hurt my ankle?" returned a score of 1.010.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { createMemory } from '../../src/memory.js';
import type { Memory } from '../../src/memory/api.js';
import { ORDER_BOOST, orderLift, orderQuestion } from '../../src/read/order.js';
import { answersItself } from '../../src/read/order-self.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

const names = new Set(['priya', 'sam', 'marco', 'julia']);
const self = (text: string, question: string, term: string): boolean => answersItself({ text }, orderQuestion(question)!, term, { language: 'en', names });

describe('answersItself', () => {
  it('holds when the other state is told in the anchor message, on the asked side', () => {
    expect(self('Priya: Our dog Biscuit passed away in June, it was so sad. We adopted a rescue greyhound called Pepper last week.', 'Which dog did Priya have before Pepper?', 'pepper')).toBe(true);
    expect(self('Priya: No, I sold the Fiesta in August and bought a second-hand electric Nissan Leaf.', 'What car did Priya have before the Nissan Leaf?', 'nissan')).toBe(true);
    expect(self('Yes! I finished the pottery course in early May. Next I signed up for a Spanish evening class.', 'What did Priya sign up for after the pottery course?', 'potteri')).toBe(true);
    expect(self('Marco: The week after the wedding I started a cooking class on Thursday evenings.', 'What did Marco start after the wedding?', 'wed')).toBe(true);
  });

  it('does not hold for a message that only tells the anchor, its place or time, or its own name', () => {
    expect(self('We finally settled into a flat in Berlin.', 'Where did I live before Berlin?', 'berlin')).toBe(false);
    expect(self('I moved to Lisbon last week, still surrounded by boxes.', 'Which city did I move to after Lisbon?', 'lisbon')).toBe(false);
    expect(self('The movers dropped everything off, we relocated to Oslo on Saturday.', 'Where did I live after Oslo?', 'oslo')).toBe(false);
    expect(self("Marco: Went to my cousin's wedding in Naples, the food was incredible.", 'What did Marco start after the wedding?', 'wed')).toBe(false);
    // the frame's word after the anchor, but nothing came next (order bench dev, seed 1)
    expect(self('Finally got the keys to the Civic, it drives like a dream.', 'What car did Theo drive after the Civic?', 'civic')).toBe(false);
    expect(self('Marco: I bought a used Alfa Romeo Giulietta last weekend, the Panda went back to my uncle.', 'What car did Marco drive before the Giulietta?', 'giulietta')).toBe(false);
    expect(self('In June I started taking cello lessons.', 'What instrument did I play before the cello?', 'cello')).toBe(false);
    // before the anchor, the frame's kind word is no other state (test/fixtures/when-history.ts work2)
    expect(self('Big news: I left the hospital and took a job as a school nurse at Brookfield Academy, day hours at last.', 'Where did I work before Brookfield Academy?', 'brookfield')).toBe(false);
  });
});

describe('orderLift with anchor evidence that answers', () => {
  it('raises the answering message above the best naming memory and every neighbour below it', () => {
    const items = [
      { id: 'anchor', score: 0.8 },
      { id: 'talk', score: 0.9 },
      { id: 'n1', score: 0.05 },
      { id: 'n2', score: 0.04 },
    ];
    const out = orderLift(items, { named: ['anchor', 'talk'], anchors: ['anchor'], answers: ['anchor'], neighbours: ['n1', 'n2'] });
    const top = 0.9 * (1 + ORDER_BOOST);
    expect(out[0]).toBeCloseTo(top, 12);
    expect(out[1]).toBe(0.9);
    expect(out[2]).toBeCloseTo(top * (1 - ORDER_BOOST), 12);
    expect(out[3]).toBeCloseTo(top * (1 - 2 * ORDER_BOOST), 12);
  });

  it('keeps scores in [0, 1]: a lift past 1 divides every score by the largest, order kept', () => {
    const out = orderLift([{ id: 'a', score: 1 }, { id: 'n', score: 0.1 }, { id: 'o', score: 0.5 }], { named: ['a'], anchors: ['a'], neighbours: ['n'] });
    expect(Math.max(...out)).toBe(1);
    expect(out[1]).toBeGreaterThan(out[0] as number);
    expect(out[0]).toBeCloseTo(1 / (1 + ORDER_BOOST), 12);
    expect(out[2]).toBeCloseTo(0.5 / (1 + ORDER_BOOST), 12);
  });
});

let encoder: Encoder;
lifecycleFixture('order-self', (e) => (encoder = e));

const T = (d: string): string => `2024-${d}T10:00:00Z`;
/** The reviewer's history (order.mjs), abridged to the turns the questions read and their distractors. */
const PRIYA: Array<[string, string, string]> = [
  ['01-05', 'Priya', "Happy new year! Honestly the holidays were chaotic, but the big news is that I finally settled into my flat in Leeds, it's tiny but the neighbourhood has this great little bakery on the corner and I walk to the office."],
  ['01-21', 'Priya', "Ugh, the bank job is fine I guess, I'm still doing compliance reports at Northbridge Bank, lots of spreadsheets, my manager Colin is nice though."],
  ['04-15', 'Priya', "Big life update: I moved out of Leeds to Manchester to be closer to the Verdant office, the new place has a balcony and I'm growing tomatoes on it."],
  ['05-10', 'Sam', 'Did you ever finish that pottery course you mentioned?'],
  ['05-11', 'Priya', 'Yes! I finished the pottery course in early May and made a wonky blue bowl, my mum loves it. Next I signed up for a Spanish evening class.'],
  ['07-01', 'Priya', 'Our dog Biscuit passed away in June, it was so sad. We adopted a rescue greyhound called Pepper last week, she is very shy but sweet.'],
  ['09-12', 'Priya', "Another move, can you believe it: Verdant opened a Bristol office and I relocated to Bristol this month, I'm sharing a house with two other people near the harbour."],
  ['11-20', 'Sam', 'Wow, what a year. Do you still drive that old red Fiesta?'],
  ['11-21', 'Priya', "No, I sold the Fiesta in August and bought a second-hand electric Nissan Leaf, charging is a pain but it's so quiet."],
];
/** The reviewer's chat (chat.mjs, messages by role), where the lift returned a score of 1.010. */
const long = (t: string): string => `${t} ${'There are many other factors to consider, such as your budget, your schedule, the season, and personal preferences, and I am happy to help you plan any of these in more detail if you want. '.repeat(3)}`;
const CHAT: Array<[string, 'user' | 'assistant', string]> = [
  ['02-01', 'user', "hey, quick one — I'm vegetarian since last year, can you suggest a dinner for 6 people this Saturday?"],
  ['02-01', 'assistant', long('Sure! For six people, a mushroom and chestnut wellington is a crowd-pleaser, served with roasted root vegetables and a red wine gravy made with vegetable stock.')],
  ['02-10', 'user', 'my sister Ines is moving to Lisbon in March for a job at a design agency, any tips for her?'],
  ['02-10', 'assistant', long('Lisbon is wonderful. She should look at Arroios or Campo de Ourique for flats, get a Navegante card for the metro, and learn a few phrases of Portuguese.')],
  ['03-15', 'user', "ok update: I'm not vegetarian anymore, I started eating fish again on doctor's advice, mostly salmon"],
  ['03-15', 'assistant', long('That makes sense. Salmon is rich in omega-3; try baking it with lemon and dill, or a miso glaze.')],
  ['04-02', 'user', "I'm training for a 10k in June, I run Tuesdays and Thursdays before work"],
  ['04-02', 'assistant', long('Great goal! Add one long slow run on the weekend and a rest day after it, and increase your weekly distance by no more than ten percent.')],
  ['05-20', 'user', 'bad news, I twisted my ankle so the 10k is off, switching to swimming for now'],
  ['05-20', 'assistant', long('Sorry to hear that. Swimming is great low-impact cardio; try front crawl intervals and see a physio before running again.')],
];

describe('recall when the anchor message answers', () => {
  const mems: Memory[] = [];
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
    close = async () => systemOne.close?.();
    const priya = await createMemory({ encoder, systemOne, now: () => new Date('2024-12-01T12:00:00Z') });
    await priya.addMany(PRIYA.map(([d, speaker, text]) => ({ text: `${speaker}: ${text}`, speaker, observedAt: T(d), sessionId: `s${d.slice(0, 2)}` })));
    const chat = await createMemory({ encoder, systemOne, now: () => new Date('2024-06-01T12:00:00Z') });
    for (const [d, role, content] of CHAT) await chat.add({ role, content, observedAt: `2024-${d}T09:00:00Z`, sessionId: d });
    mems.push(priya, chat);
  }, 60_000);
  afterAll(async () => {
    for (const m of mems) await m.close();
    await close?.();
  });

  for (const [question, gold] of [
    ['Which dog did Priya have before Pepper?', 'Biscuit passed away'],
    ['What car did Priya have before the Nissan Leaf?', 'sold the Fiesta'],
    ['What did Priya sign up for after the pottery course?', 'signed up for a Spanish'],
  ] as const) {
    it(`"${question}": the anchor's own message first, as without the step`, async () => {
      const r = await mems[0]!.recall(question, { k: 5 });
      expect(r.memories[0]?.text, r.memories.map((x) => `${x.score.toFixed(3)} ${x.text.slice(0, 40)}`).join(' | ')).toContain(gold);
      expect(r.trace.order?.reason).toBe('ran');
      expect(r.trace.order?.answers).toContain(r.memories[0]?.id);
    });
  }

  it('every recalled score lies in [0, 1], with the step and without', async () => {
    const questions = ['What was I training for before I hurt my ankle?', 'What did I eat before I started eating fish?', 'When do I run?', 'Which dog did Priya have before Pepper?', 'Where did Priya live before Manchester?', 'Where does Priya live now?'];
    for (const m of mems) {
      for (const q of questions) {
        for (const order of [true, false]) {
          const r = await m.recall(q, { k: 10, switches: { order } });
          for (const x of r.memories) {
            expect(x.score, `${q} order=${order}`).toBeGreaterThanOrEqual(0);
            expect(x.score, `${q} order=${order}`).toBeLessThanOrEqual(1);
          }
        }
      }
    }
  });
});
