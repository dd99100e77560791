import { describe, expect, it } from 'vitest';
import {
  FEATURE_NAMES,
  FEATURE_VERSION,
  HEAD_GROUPS,
  candidateFeatures,
  featuresFor,
  maintenanceFeatures,
  relationFeatures,
  routingFeatures,
  stopFeatures,
  answerCues,
  textCues,
  typingFeatures,
} from '../../src/system-one/features.js';
import type { CandidateState, MaintenanceState, RelationState, StopState } from '../../src/system-one/catalogue.js';
import { readGroupState } from '../../src/system-one/validate.js';

/** Reads a row as name → value for readable expectations. */
function named(group: keyof typeof FEATURE_NAMES, row: Float32Array): Record<string, number> {
  return Object.fromEntries(FEATURE_NAMES[group].map((n, i) => [n, row[i] as number]));
}

/** Expects every listed feature to match (float32 precision) and every unlisted one to be 0. */
function expectRow(group: keyof typeof FEATURE_NAMES, row: Float32Array, expected: Record<string, number>): void {
  const got = named(group, row);
  for (const name of Object.keys(expected)) expect(FEATURE_NAMES[group], `unknown feature ${name}`).toContain(name);
  for (const name of FEATURE_NAMES[group]) {
    expect(got[name], name).toBeCloseTo(expected[name] ?? 0, 5);
  }
}

describe('feature lists', () => {
  it('have the documented lengths per group', () => {
    expect(Object.fromEntries(HEAD_GROUPS.map((g) => [g, FEATURE_NAMES[g].length]))).toEqual({
      typing: 19, relation: 24, routing: 29, candidates: 46, stop: 17, maintenance: 22,
    });
  });

  it('have unique names within each group', () => {
    for (const g of HEAD_GROUPS) expect(new Set(FEATURE_NAMES[g]).size).toBe(FEATURE_NAMES[g].length);
  });

  it('carry a version string', () => {
    expect(FEATURE_VERSION).toBe('jev-mem/system-one-features@5');
  });
});

describe('typingFeatures', () => {
  it('computes the hand-checked row of a LoCoMo-style turn', () => {
    // tokens: caroline i went to the lgbtq support group yesterday and it was so powerful (14)
    const row = typingFeatures({
      kind: 'typing',
      observation: { text: 'Caroline: I went to the LGBTQ support group yesterday and it was so powerful.', observedAt: '2023-05-08T13:56:00Z' },
    });
    expectRow('typing', row, {
      log_words: Math.log(15),
      first_person: 1 / 3, // "i"
      past_tense: 2 / 3, // "went", "was"
      temporal_words: 1 / 3, // "yesterday"
      has_observed_at: 1,
      capitalised: 1 / 3, // "LGBTQ" ("Caroline" starts the text, "I" is excluded)
    });
  });

  it('reads preference and procedural cues', () => {
    const pref = named('typing', typingFeatures({ kind: 'typing', observation: { text: 'I love pottery and I prefer tea!' } }));
    expect(pref.preference).toBe(1); // love, prefer: cap(2, 2)
    expect(pref.exclamation).toBe(1);
    const proc = named('typing', typingFeatures({ kind: 'typing', observation: { text: 'Here is how to bake it, step one.' } }));
    expect(proc.procedural).toBe(1); // "how to", "step"
    expect(proc.semantic).toBe(0.5); // "is"
  });

  it('ignores an unparseable timestamp', () => {
    const row = named('typing', typingFeatures({ kind: 'typing', observation: { text: 'hello', observedAt: 'not a date' } }));
    expect(row.has_observed_at).toBe(0);
  });
});

describe('routingFeatures', () => {
  it('computes the hand-checked row of a temporal question', () => {
    const row = routingFeatures({ kind: 'routing', query: 'When did Caroline go to the LGBTQ support group?', mentions: ['Caroline'] });
    expectRow('routing', row, {
      q_when: 1, // first question word ("did" comes later)
      log_words: Math.log(10), // 9 tokens
      mentions: 0.5,
      capitalised: 1, // Caroline, LGBTQ: cap(2, 2)
    });
  });

  it('reads "how long", a month next to a number, a year and order words', () => {
    const row = routingFeatures({ kind: 'routing', query: 'How long has Melanie been painting since May 2023?', mentions: [] });
    expectRow('routing', row, {
      q_how: 1,
      log_words: Math.log(10), // how long has melanie been painting since may 2023
      how_long: 1,
      has_month: 1,
      has_year: 1,
      order_words: 0.5, // since
      capitalised: 1, // Melanie, May
    });
  });

  it('does not read "may" as a month without a number next to it', () => {
    expect(named('routing', routingFeatures({ kind: 'routing', query: 'What may she like?', mentions: [] })).has_month).toBe(0);
  });

  it('reads multi-hop cues: "what <plural>", "and", set words', () => {
    const row = named('routing', routingFeatures({ kind: 'routing', query: 'What activities do Caroline and Melanie both enjoy?', mentions: ['Caroline', 'Melanie'] }));
    expect(row.what_plural).toBe(1);
    expect(row.multi_and).toBe(0.5);
    expect(row.multi_set).toBe(1); // activities, both
    expect(row.mentions).toBe(1);
    expect(row.preference).toBe(0.5); // enjoy
  });
});

const candidateState: CandidateState = {
  kind: 'candidates',
  query: 'When did Caroline go to the LGBTQ support group?',
  candidates: [
    {
      ref: 'c1',
      text: 'Caroline: I went to the LGBTQ support group yesterday',
      via: { view: 'temporal', subtype: 'precedes', weight: 0.8 },
      signals: {
        cosine: 0.5, vectorRank: 4, lexical: 0.8, lexicalRank: 2, rrf: 1 / 61 + 1 / 64, overlap: 0.75, speakerNamed: 1, otherSpeakerNamed: 0,
        hops: 1, edgeWeight: 0.8, neighbourLexical: 0.3, sessionDistance: 2, evidenceCosine: 0.1, hasDate: 1, words: 9, image: 0,
      },
    },
  ],
};

describe('candidateFeatures', () => {
  it('computes the hand-checked row of a candidate', () => {
    expectRow('candidates', candidateFeatures(candidateState, 'c1'), {
      has_candidate: 1,
      cosine: 0.5,
      inv_vector_rank: 0.25,
      lexical: 0.8,
      inv_lexical_rank: 0.5,
      rrf: 30 * (1 / 61 + 1 / 64),
      overlap: 0.75,
      speaker_named: 1,
      hops: 0.25,
      edge_weight: 0.8,
      neighbour_lexical: 0.3,
      session_distance: Math.log(3),
      evidence_cosine: 0.1,
      has_date: 1,
      log_words: Math.log(10),
      via_temporal: 1,
      query_temporal: 1, // "when"
      temporal_x_date: 1,
      cosine_minus_neighbour: 0.5, // cosine 0.5 − neighbourCosine absent (0)
      answer_when: 1, // "When …?" and the candidate says "yesterday"
    });
  });

  it('finds each candidate of a long list by its ref, the first of a repeated ref, none for an unknown one (issue 25: indexed lists)', () => {
    const c = candidateState.candidates[0] as CandidateState['candidates'][number];
    const many: CandidateState = {
      ...candidateState,
      candidates: Array.from({ length: 30 }, (_, i) => ({ ...c, ref: `c${i % 25}`, signals: { ...c.signals, cosine: i / 100 } })),
    };
    for (const i of [0, 7, 24]) expect(named('candidates', candidateFeatures(many, `c${i}`)).cosine).toBeCloseTo(i / 100, 6);
    expect(named('candidates', candidateFeatures(many, 'c3')).cosine).toBeCloseTo(0.03, 6); // c3 is at 3 and 28: the first
    expect(named('candidates', candidateFeatures(many, 'c99')).has_candidate).toBe(0);
    many.candidates.push({ ...c, ref: 'late', signals: { ...c.signals, cosine: 0.9 } }); // a list grown in place
    expect(named('candidates', candidateFeatures(many, 'late')).cosine).toBeCloseTo(0.9, 6);
  });

  it('gives a query-only row for a ref that names no candidate', () => {
    expectRow('candidates', candidateFeatures(candidateState, 'missing'), { query_temporal: 1 });
  });

  it('reads the features@4 signals: neighbour cosine, window and session lexical, entity match', () => {
    const c = candidateState.candidates[0] as CandidateState['candidates'][number];
    const state: CandidateState = {
      ...candidateState,
      candidates: [{ ...c, signals: { ...c.signals, neighbourCosine: 0.7, windowLexical: 1.4, sessionLexical: 0.9, entityMatch: 0.5 } }],
    };
    const row = named('candidates', candidateFeatures(state, 'c1'));
    expect(row.neighbour_cosine).toBeCloseTo(0.7, 6);
    expect(row.cosine_minus_neighbour).toBeCloseTo(0.5 - 0.7, 6);
    expect(row.window_lexical).toBeCloseTo(1.4, 6);
    expect(row.session_lexical).toBeCloseTo(0.9, 6);
    expect(row.entity_match).toBeCloseTo(0.5, 6);
  });

  it('reads softWindowOverlap (features@5), clamped to [0,1], and gives 0 without it', () => {
    const c = candidateState.candidates[0] as CandidateState['candidates'][number];
    const withSoft = (v: number | undefined): number =>
      named('candidates', candidateFeatures({ ...candidateState, candidates: [{ ...c, signals: { ...c.signals, softWindowOverlap: v } }] }, 'c1')).soft_window_overlap as number;
    expect(withSoft(0.42)).toBeCloseTo(0.42, 6);
    expect(withSoft(1.3)).toBe(1);
    expect(withSoft(undefined)).toBe(0);
  });

  it('sets answer_when for a "when" query whose candidate holds a date word ("yesterday")', () => {
    // the candidate of candidateState: "… support group yesterday"
    expect(named('candidates', candidateFeatures(candidateState, 'c1')).answer_when).toBe(1);
  });

  it('sets answer_who only for a "who" query whose candidate names someone', () => {
    const c = candidateState.candidates[0] as CandidateState['candidates'][number];
    const who = (text: string) =>
      named('candidates', candidateFeatures({ kind: 'candidates', query: 'Who supported Caroline?', candidates: [{ ...c, text }] }, 'c1')).answer_who;
    expect(who('Caroline: My friend Jolene came with me.')).toBe(1);
    expect(who('Caroline: my friends came with me.')).toBe(0);
  });

  it('sets answer_count for a "how many" query whose candidate holds a number', () => {
    const c = candidateState.candidates[0] as CandidateState['candidates'][number];
    const count = (query: string, text: string) =>
      named('candidates', candidateFeatures({ kind: 'candidates', query, candidates: [{ ...c, text }] }, 'c1')).answer_count;
    expect(count('How many kids does Melanie have?', 'Melanie: I have 3 kids.')).toBe(1);
    expect(count('How many kids does Melanie have?', 'Melanie: I have kids.')).toBe(0);
    expect(count('What did Melanie paint?', 'Melanie: I painted 3 lakes.')).toBe(0);
  });

  it('sets answer_where for a "where" query whose candidate holds a capitalised name', () => {
    const c = candidateState.candidates[0] as CandidateState['candidates'][number];
    const where = (text: string) =>
      named('candidates', candidateFeatures({ kind: 'candidates', query: 'Where did Caroline move from?', candidates: [{ ...c, text }] }, 'c1')).answer_where;
    expect(where('Caroline: I moved from Sweden.')).toBe(1);
    expect(where('Caroline: I moved from abroad.')).toBe(0);
  });
});

describe('relationFeatures', () => {
  const state: RelationState = {
    kind: 'relation',
    observation: { ref: 'new', text: 'Camping trip because of the kids.', observedAt: '2023-07-10T10:00:00Z' },
    candidates: [
      {
        ref: 'c1',
        text: 'Camping plans?',
        observedAt: '2023-06-27T09:00:00Z',
        signals: { cosine: 0.62, lexical: 0.4, sharedEntities: 1, sharedKeywords: 2, gapDays: 13, sameSession: 0, sameSpeaker: 1, seqGap: -1 },
      },
    ],
  };

  it('computes the hand-checked row of a pair', () => {
    expectRow('relation', relationFeatures(state, 'c1'), {
      has_candidate: 1,
      cosine: 0.62,
      lexical: 0.4,
      shared_entities: Math.log(2),
      shared_keywords: Math.log(3),
      gap_known: 1,
      log_gap_days: Math.log(14),
      same_speaker: 1,
      log_seq_gap: Math.log(2),
      adjacent: 1,
      new_later: 1, // 2023-07-10 after 2023-06-27
      term_jaccard: 1 / 4, // {camp, trip, kid} vs {camp, plan}
      obs_causal: 0.5, // because
      cand_question: 1,
    });
  });

  it('marks an unknown gap (-1) as unknown, not as a gap of 0 days', () => {
    const s: RelationState = { ...state, candidates: [{ ...state.candidates[0]!, signals: { ...state.candidates[0]!.signals, gapDays: -1 } }] };
    const row = named('relation', relationFeatures(s, 'c1'));
    expect([row.gap_known, row.log_gap_days, row.same_day]).toEqual([0, 0, 0]);
  });
});

describe('stopFeatures', () => {
  it('computes the hand-checked row of a stop decision', () => {
    const state: StopState = {
      kind: 'stop',
      query: 'What books has Melanie read and which ones did she like?',
      evidence: [{ ref: 'a', text: 'x' }, { ref: 'b', text: 'y' }, { ref: 'c', text: 'z' }],
      signals: { round: 2, maxDepth: 8, beamScores: [0.9, 0.5, 0.4], bestRelevance: 0.8, lastRoundGain: 0.3, lastRoundNew: 4, frontier: 0, contradictions: 1, multiHop: 0.25 },
    };
    expectRow('stop', stopFeatures(state), {
      round_frac: 0.25,
      rounds_left_frac: 0.75,
      beam_top: 0.9,
      beam_mean: 0.6,
      beam_size: Math.log(4),
      best_relevance: 0.8,
      last_round_gain: 0.3,
      last_round_new: Math.log(5),
      frontier_empty: 1,
      contradictions: 0.5,
      multi_hop: 0.25,
      evidence_count: Math.log(4),
      query_multi_hop: 1, // "what books", "and"
      log_query_words: Math.log(12), // 11 tokens
    });
  });
});

describe('maintenanceFeatures', () => {
  const state: MaintenanceState = {
    kind: 'maintenance',
    node: { ref: 'n', text: 'I do not like coffee anymore.', observedAt: '2023-08-01T00:00:00Z' },
    candidates: [
      { ref: 'c1', text: 'I like coffee.', observedAt: '2023-01-01T00:00:00Z', signals: { cosine: 0.95, lexical: 1, sharedEntities: 0, sharedKeywords: 1, gapDays: 212, sameSession: 0, sameSpeaker: 1, seqGap: 40 } },
      { ref: 'c2', text: 'We went hiking.', signals: { cosine: 0.3, lexical: 0, sharedEntities: 0, sharedKeywords: 0, gapDays: -1, sameSession: 0, sameSpeaker: 0, seqGap: 3 } },
    ],
  };

  it('computes the hand-checked pair and neighbourhood blocks', () => {
    expectRow('maintenance', maintenanceFeatures(state, 'c1'), {
      has_candidate: 1,
      cosine: 0.95,
      lexical: 1,
      shared_keywords: Math.log(2),
      gap_known: 1,
      log_gap_days: Math.log(213),
      same_speaker: 1,
      term_jaccard: 1 / 3, // {not, coffe, anymor} vs {coffe}
      node_newer: 1,
      negation_mismatch: 1, // "not" on one side only
      node_change_cue: 0.5, // anymore
      both_preference: 1, // like / like
      neighbours: Math.log(3),
      max_cosine: 0.95,
      mean_cosine: 0.625,
      near_duplicates: 1 / 3,
      node_log_words: Math.log(7), // i do not like coffee anymore
    });
  });

  it('fills only the neighbourhood block without a ref (representation choice)', () => {
    expectRow('maintenance', maintenanceFeatures(state, undefined), {
      node_change_cue: 0.5,
      neighbours: Math.log(3),
      max_cosine: 0.95,
      mean_cosine: 0.625,
      near_duplicates: 1 / 3,
      node_log_words: Math.log(7),
    });
  });

  it('flags equal texts and different numbers', () => {
    const s: MaintenanceState = {
      kind: 'maintenance',
      node: { ref: 'n', text: 'I have 2 cats.' },
      candidates: [
        { ref: 'same', text: 'i have 2 cats', signals: { cosine: 1, lexical: 1, sharedEntities: 0, sharedKeywords: 2, gapDays: -1, sameSession: 1, sameSpeaker: 1, seqGap: 1 } },
        { ref: 'diff', text: 'I have 3 cats.', signals: { cosine: 0.99, lexical: 1, sharedEntities: 0, sharedKeywords: 2, gapDays: -1, sameSession: 1, sameSpeaker: 1, seqGap: 1 } },
      ],
    };
    const same = named('maintenance', maintenanceFeatures(s, 'same'));
    const diff = named('maintenance', maintenanceFeatures(s, 'diff'));
    expect([same.text_equal, same.number_mismatch]).toEqual([1, 0]);
    expect([diff.text_equal, diff.number_mismatch]).toEqual([0, 1]);
    expect(same.node_newer).toBe(1); // no timestamps: seqGap > 0
  });
});

describe('textCues', () => {
  it('counts "n\'t" as a negation', () => {
    expect(textCues("I don't know").negation).toBe(1);
    expect(textCues('I know').negation).toBe(0);
  });

  it('takes the first question word', () => {
    expect(textCues('Would Caroline still want to move?').qword).toBe(7); // "would"
    expect(textCues('nothing to ask').qword).toBe(-1);
  });
});

describe('featurizers are total over states read at the boundary (readGroupState)', () => {
  const odd: unknown[] = ['a plain string state', [], {}, { kind: 'typing' }, { candidates: 'nope', signals: null, query: 42 }];

  it('return a finite row of the documented length for any state, without throwing', () => {
    for (const group of HEAD_GROUPS) {
      for (const state of odd) {
        const row = featuresFor(group, readGroupState(group, state), 'r1');
        expect(row).toHaveLength(FEATURE_NAMES[group].length);
        expect([...row].every(Number.isFinite)).toBe(true);
      }
    }
  });

  it('are deterministic', () => {
    const a = candidateFeatures(candidateState, 'c1');
    const b = candidateFeatures(structuredClone(candidateState), 'c1');
    expect([...a]).toEqual([...b]);
  });
});

describe('readGroupState (the boundary where untyped states become typed)', () => {
  it('reads ill-typed fields as the documented defaults', () => {
    const s = readGroupState('relation', {
      observation: { text: 7, observedAt: 5 },
      candidates: [null, { ref: 3 }, { ref: 'c1', text: 'x', signals: { cosine: 'high', gapDays: 'soon', seqGap: Infinity, sameSession: 1 } }],
    });
    expect(s).toEqual({
      kind: 'relation',
      observation: { ref: '', text: '' },
      // entries without a string ref name no candidate and are dropped
      candidates: [{ ref: 'c1', text: 'x', signals: { cosine: 0, lexical: 0, sharedEntities: 0, sharedKeywords: 0, gapDays: -1, sameSession: 1, sameSpeaker: 0, seqGap: 0 } }],
    });
  });

  it('gives the same row as the typed state it reads', () => {
    const row = candidateFeatures(candidateState, 'c1');
    expect([...featuresFor('candidates', readGroupState('candidates', JSON.parse(JSON.stringify(candidateState))), 'c1')]).toEqual([...row]);
  });
});

describe('answerCues: number characters (issue 25: ASCII read by char codes, other text by \\p{N})', () => {
  it('counts ASCII and non-ASCII number characters alike, and a month name only next to a number token', () => {
    // "٣" (Arabic-Indic three), "²" and "½" are \p{N}; "v2" holds a digit; "2023" is a year
    const c = answerCues('on may ٣ I had v2 of x² and ½ cup, in march 2023 not in march');
    expect(c.numbers).toBe(5); // ٣, v2, x², ½, 2023
    expect(c.years).toBe(1);
    expect(c.months).toBe(2); // "may ٣" and "march 2023"; the last "march" stands alone
    expect(answerCues('no digits here').numbers).toBe(0);
    expect(answerCues('١٢٣ may').months).toBe(1); // a non-ASCII number token before "may"
  });
});
