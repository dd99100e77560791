import { describe, expect, it } from 'vitest';
import { buildConversationIndex, hybridRanking, turnDocs } from '../locomo/baselines.js';
import { candidatePool, FLAT_FEATURES, questionInfo } from '../locomo/flat-features.js';
import { FlatLearnedTrainer, rankFlatLearned } from '../locomo/flat-learned.js';
import type { LogisticModel } from '../lib/logistic.js';
import { letterEncoder, question, tinyConversation } from './fixtures.js';

const col = (name: (typeof FLAT_FEATURES)[number]): number => FLAT_FEATURES.indexOf(name);

async function poolFor(q: string) {
  const encoder = letterEncoder();
  const index = await buildConversationIndex(tinyConversation(), encoder);
  const [vector] = await encoder.embed([q]);
  const pool = candidatePool(index, { text: q, vector: vector as Float32Array });
  const row = (id: string): number[] => pool.rows[pool.ids.indexOf(id)] as number[];
  return { index, pool, row, vector: vector as Float32Array };
}

describe('turnDocs', () => {
  it('numbers sessions and positions in conversation order', () => {
    const docs = turnDocs(tinyConversation());
    expect(docs.map((d) => [d.id, d.session, d.position])).toEqual([
      ['D1:1', 0, 0],
      ['D1:2', 0, 1],
      ['D2:1', 1, 2],
      ['D2:2', 1, 3],
    ]);
  });
});

describe('questionInfo', () => {
  it('finds named speakers, months and years', () => {
    const info = questionInfo('What puppy did Alice adopt in May 2023?', ['Alice', 'Bob']);
    expect([...info.named]).toEqual(['alice']);
    expect([...info.months]).toEqual([4]);
    expect([...info.years]).toEqual([2023]);
  });

  it('does not take the modal verb "may" for the month', () => {
    expect(questionInfo('Who may adopt a puppy?', ['Alice', 'Bob']).months.size).toBe(0);
  });
});

describe('candidatePool', () => {
  it('marks the BM25 best hit with its own speaker, month and year', async () => {
    const { row } = await poolFor('What puppy did Alice adopt in May 2023?');
    const r = row('D1:1');
    expect(r[col('bm25_norm')]).toBe(1);
    expect(r[col('bm25_inv_rank')]).toBe(1);
    expect(r[col('speaker_named')]).toBe(1);
    expect(r[col('other_speaker_only')]).toBe(0);
    expect(r[col('month_match')]).toBe(1);
    expect(r[col('year_match')]).toBe(1);
  });

  it('flags the reply after a hit as its neighbour, spoken by the other speaker', async () => {
    const { row } = await poolFor('What puppy did Alice adopt in May 2023?');
    const r = row('D1:2');
    expect(r[col('next_of_hit')]).toBe(1);
    expect(r[col('neighbour_bm25')]).toBe(1); // the hit it follows is the best hit (normalised 1)
    expect(r[col('other_speaker_only')]).toBe(1);
    expect(r[col('same_session_as_best')]).toBe(1);
    expect(r[col('session_distance')]).toBe(0);
  });

  it('measures session distance from the best hit and flags questions', async () => {
    const { row } = await poolFor('What puppy did Alice adopt in May 2023?');
    const r = row('D2:2');
    expect(r[col('session_distance')]).toBeCloseTo(Math.log1p(1), 12);
    expect(r[col('month_match')]).toBe(0);
    expect(r[col('doc_is_question')]).toBe(1);
  });

  it('gives every candidate one value per feature', async () => {
    const { pool } = await poolFor('When did Bob start guitar lessons?');
    expect(pool.ids.length).toBe(4);
    for (const r of pool.rows) expect(r.length).toBe(FLAT_FEATURES.length);
  });
});

describe('hybridRanking', () => {
  it('fuses BM25 and dense rankings with RRF', async () => {
    const { index, vector } = await poolFor('guitar lessons');
    // D2:2 is BM25 rank 1 (only turn with the terms); it must lead the fused list
    expect(hybridRanking(index, { text: 'guitar lessons', vector }, 4)[0]).toBe('D2:2');
  });
});

describe('rankFlatLearned', () => {
  it('orders the pool by the model probability', async () => {
    const { index, vector } = await poolFor('What puppy did Alice adopt in May 2023?');
    const weights = FLAT_FEATURES.map((f) => (f === 'speaker_named' ? 5 : 0));
    const model: LogisticModel = { features: [...FLAT_FEATURES], mean: weights.map(() => 0), scale: weights.map(() => 1), weights, bias: 0, iterations: 0, rows: 0, positives: 0 };
    const top2 = rankFlatLearned(model, index, { text: 'What puppy did Alice adopt in May 2023?', vector }, 2);
    expect(new Set(top2)).toEqual(new Set(['D1:1', 'D2:1']));
  });
});

describe('FlatLearnedTrainer', () => {
  const dev = (id: string) =>
    tinyConversation(id, [question(`${id}#0`, 'What puppy did Alice adopt?', 4, ['D1:1']), question(`${id}#1`, 'When did Bob start guitar?', 2, ['D2:2'])]);

  it('never scores a development conversation with a model trained on it', async () => {
    const t = await FlatLearnedTrainer.create([dev('conv-26'), dev('conv-30')], letterEncoder());
    expect(t.modelFor('conv-26').trainedOn).toEqual(['conv-30']);
    expect(t.modelFor('conv-30').trainedOn).toEqual(['conv-26']);
  });

  it('scores a test conversation with every development conversation', async () => {
    const t = await FlatLearnedTrainer.create([dev('conv-26'), dev('conv-30')], letterEncoder());
    expect(t.modelFor('conv-44').trainedOn).toEqual(['conv-26', 'conv-30']);
  });

  it('refuses to train on the test split', async () => {
    await expect(FlatLearnedTrainer.create([dev('conv-44')], letterEncoder())).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'dev' } });
  });
});
