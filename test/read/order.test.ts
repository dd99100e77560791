/**
 * Questions about what held before or after another fact (issue 24, review finding 5;
 * src/read/order.ts): the reading of the question, the lift around the anchor, and recall over
 * the hand-written history of test/fixtures/when-history.ts with the shipped encoder and System
 * One. On 19e3981 (no before/after step) "What instrument did I play before the cello?" ranked
 * guitar1 3rd, "Where did I work before Brookfield Academy?" work1 2nd and "What did I play after
 * the guitar?" cello1 2nd; recall has no `trace.order`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { createMemory } from '../../src/memory.js';
import type { Memory } from '../../src/memory/api.js';
import { ORDER_BOOST, orderLift, orderQuestion } from '../../src/read/order.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { WHEN_HISTORY } from '../fixtures/when-history.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

describe('orderQuestion', () => {
  it('reads the relation, the anchor phrase and the frame of what/which/where/who questions', () => {
    expect(orderQuestion('Where did I live before Berlin?')).toEqual({ relation: 'before', cue: 'before', anchor: 'Berlin', frame: 'Where did I live', firstPerson: true });
    expect(orderQuestion('Which car did we have before the Tesla?')).toMatchObject({ relation: 'before', anchor: 'the Tesla', frame: 'Which car did we have', firstPerson: true });
    expect(orderQuestion('What did I do before I joined Northloop?')).toMatchObject({ relation: 'before', anchor: 'I joined Northloop' });
    expect(orderQuestion('What happened after the wedding?')).toMatchObject({ relation: 'after', anchor: 'the wedding', frame: 'What happened', firstPerson: false });
    expect(orderQuestion('Where did Caroline go after the support group?')).toMatchObject({ relation: 'after', anchor: 'the support group', frame: 'Where did Caroline go', firstPerson: false });
    expect(orderQuestion('Where did James plan to visit after Toronto?')).toMatchObject({ relation: 'after', anchor: 'Toronto' });
    expect(orderQuestion('Where did I work prior to Brightwave?')).toMatchObject({ relation: 'before', cue: 'prior to', anchor: 'Brightwave' });
    expect(orderQuestion('What did she do right after the concert?')).toMatchObject({ relation: 'after', frame: 'What did she do' });
  });

  it('reads the Romance languages we claim (es, pt, fr, it)', () => {
    expect(orderQuestion('¿Dónde vivía antes de Berlín?')).toMatchObject({ relation: 'before', anchor: 'Berlín' });
    expect(orderQuestion('Onde eu morava depois de Lisboa?')).toMatchObject({ relation: 'after', anchor: 'Lisboa', firstPerson: true });
    expect(orderQuestion('Où habitais-je avant Berlin ?')).toMatchObject({ relation: 'before', anchor: 'Berlin' });
    expect(orderQuestion('Dove vivevo prima di Berlino?')).toMatchObject({ relation: 'before', anchor: 'Berlino' });
  });

  it('is not a before/after question: how, why, when, how long, yes/no, no anchor, a date as the anchor', () => {
    expect(orderQuestion('How did John feel after being able to jog without pain?')).toBeUndefined();
    expect(orderQuestion('Why did John join the military after the visit to the hospital?')).toBeUndefined();
    expect(orderQuestion('When did John meet with his teammates after returning from Chicago?')).toBeUndefined();
    expect(orderQuestion('How long did Evan and his partner date before getting married?')).toBeUndefined();
    expect(orderQuestion('Was James feeling lonely before meeting Samantha?')).toBeUndefined();
    expect(orderQuestion('Where did I live before?')).toBeUndefined();
    expect(orderQuestion('What is the name of the puppy she got two weeks before August 11, 2023?')).toBeUndefined();
    expect(orderQuestion('Where was Tim in the week before 16 November 2023?')).toBeUndefined();
    expect(orderQuestion('Where do I live?')).toBeUndefined();
    expect(orderQuestion('What did John do the week before August 3, 2023 involving his kids?')).toBeUndefined();
    expect(orderQuestion('What does Jolene enjoy doing with her partner after a long day?')).toBeUndefined();
    expect(orderQuestion('Which activity did Sam resume after a long time?')).toBeUndefined();
    expect(orderQuestion('What book left him hopeful about following dreams?')).toBeUndefined();
    expect(orderQuestion('What was Calvin excited to do after getting his car fixed on 7 July, 2023?')).toMatchObject({ relation: 'after', anchor: 'getting his car fixed on 7 July, 2023' });
    expect(orderQuestion('What happened following the wedding?')).toMatchObject({ relation: 'after', cue: 'following', anchor: 'the wedding' });
  });
});

describe('orderLift', () => {
  it('raises the first neighbour just above the best memory naming the anchor, the others just below the anchor evidence, never lowers', () => {
    const items = [
      { id: 'anchor', score: 0.8 },
      { id: 'talk', score: 0.9 }, // an assistant's reply naming the anchor: the first neighbour's reference
      { id: 'n1', score: 0.3 },
      { id: 'n2', score: 0.2 },
      { id: 'n3', score: 0.95 }, // already above: kept
      { id: 'other', score: 0.5 },
    ];
    const out = orderLift(items, { named: ['anchor', 'talk'], anchors: ['anchor'], neighbours: ['n1', 'n2', 'n3'] });
    expect(out[0]).toBe(0.8);
    expect(out[1]).toBe(0.9);
    expect(out[2]).toBeCloseTo(0.9 * (1 + ORDER_BOOST), 12);
    expect(out[3]).toBeCloseTo(0.8 * (1 - ORDER_BOOST), 12);
    expect(out[4]).toBe(0.95);
    expect(out[5]).toBe(0.5);
  });

  it('without a memory naming the anchor among the items, lifts around the best score of all', () => {
    expect(orderLift([{ id: 'a', score: 0.5 }, { id: 'n', score: 0.1 }], { named: ['gone'], anchors: ['gone'], neighbours: ['n'] })[1]).toBeCloseTo(0.5 * (1 + ORDER_BOOST), 12);
  });
});

let encoder: Encoder;
lifecycleFixture('order-recall', (e) => (encoder = e));

describe('recall of before/after questions over a user/assistant history', () => {
  let m: Memory;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
    close = async () => systemOne.close?.();
    m = await createMemory({ encoder, systemOne, now: () => new Date('2024-06-16T12:00:00Z') });
    await m.addMany(WHEN_HISTORY);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await close?.();
  });

  const cases: Array<[question: string, gold: string, anchor: string]> = [
    ['What instrument did I play before the cello?', 'guitar1', 'cello1'],
    ['Where did I work before Brookfield Academy?', 'work1', 'work2'],
    ['What did I play after the guitar?', 'cello1', 'guitar1'],
  ];
  for (const [question, gold, anchor] of cases) {
    it(`"${question}": ${gold} first, the anchor ${anchor} in the top 3`, async () => {
      const r = await m.recall(question, { k: 10 });
      const ids = r.memories.map((x) => x.provenance.turnId);
      expect(ids[0], ids.slice(0, 5).join(' ')).toBe(gold);
      expect(ids.slice(0, 3)).toContain(anchor);
      const o = r.trace.order;
      expect(o?.reason).toBe('ran');
      const turnOf = new Map(r.memories.map((x) => [x.id, x.provenance.turnId]));
      expect(turnOf.get(o?.neighbours[0]?.id ?? '')).toBe(gold);
      expect(o?.anchors.map((id) => turnOf.get(id))).toContain(anchor);
      expect(o?.temporal).toBe(r.trace.routing.p.temporal);
    });
  }

  it('the switch turns the step off (the no-order ablation): the trace says so and nothing is lifted', async () => {
    const r = await m.recall('What instrument did I play before the cello?', { k: 10, switches: { order: false } });
    expect(r.trace.order).toMatchObject({ reason: 'switched-off', anchors: [], neighbours: [] });
    expect(r.memories[0]?.provenance.turnId).not.toBe('guitar1');
  });

  it('a question that is not one leaves the ranking as it was', async () => {
    const on = await m.recall('How did I feel after the race?', { k: 10 });
    const off = await m.recall('How did I feel after the race?', { k: 10, switches: { order: false } });
    expect(on.trace.order?.reason).toBe('not-order');
    expect(on.memories.map((x) => x.id)).toEqual(off.memories.map((x) => x.id));
  });

  it('an anchor nothing names: no-anchor, and the ranking as without the step', async () => {
    const on = await m.recall('Where did I live before Atlantis?', { k: 10 });
    const off = await m.recall('Where did I live before Atlantis?', { k: 10, switches: { order: false } });
    expect(on.trace.order?.reason).toBe('no-anchor');
    expect(on.memories.map((x) => x.id)).toEqual(off.memories.map((x) => x.id));
  });
});
