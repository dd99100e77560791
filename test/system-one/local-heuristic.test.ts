import { describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { CATALOGUE, CATALOGUE_IDS, questionKey, type CatalogueId } from '../../src/system-one/catalogue.js';
import { HEAD_GROUPS, type HeadGroup } from '../../src/system-one/features.js';
import { GROUP_OUTPUTS, HEADS, decideBatch, planBatch, type GroupRunner } from '../../src/system-one/heads.js';
import { HEURISTIC_MODEL_ID, HEURISTIC_TABLES, createHeuristicSystemOne, heuristicGroupWeights, runHeuristicGroup } from '../../src/system-one/heuristic.js';
import { validateResponse } from '../../src/system-one/validate.js';
import type { SystemOneRequest } from '../../src/system-one/wire.js';
import { runConformanceSuite } from './conformance.js';

runConformanceSuite('heuristic', async () => createHeuristicSystemOne());

const pair = { cosine: 0.62, lexical: 0.4, sharedEntities: 1, sharedKeywords: 2, gapDays: 3, sameSession: 0, sameSpeaker: 1, seqGap: 14 };
const candSignals = {
  cosine: 0.5, vectorRank: 1, lexical: 1, lexicalRank: 1, rrf: 2 / 61, overlap: 0.75, speakerNamed: 1, otherSpeakerNamed: 0,
  hops: 0, edgeWeight: 1, neighbourLexical: 0, sessionDistance: 0, evidenceCosine: 0, hasDate: 1, words: 9, image: 0,
};

/** A state of the right kind for each group. */
const STATES: Record<HeadGroup, Record<string, unknown>> = {
  typing: { kind: 'typing', observation: { text: 'I love pottery.' } },
  relation: {
    kind: 'relation',
    observation: { ref: 'new', text: 'We went camping.', observedAt: '2023-07-10T00:00:00Z' },
    candidates: [{ ref: 'c1', text: 'We planned camping.', observedAt: '2023-07-01T00:00:00Z', signals: pair }],
  },
  routing: { kind: 'routing', query: 'When did Caroline go to the LGBTQ support group?', mentions: ['Caroline'] },
  candidates: { kind: 'candidates', query: 'When did Caroline go to the support group?', candidates: [{ ref: 'c1', text: 'Caroline: I went to the support group.', signals: candSignals }] },
  stop: {
    kind: 'stop', query: 'When?', evidence: [],
    signals: { round: 1, maxDepth: 8, beamScores: [0.5], bestRelevance: 0.5, lastRoundGain: 0.2, lastRoundNew: 2, frontier: 5, contradictions: 0, multiHop: 0.2 },
  },
  maintenance: { kind: 'maintenance', node: { ref: 'n', text: 'I like tea.' }, candidates: [{ ref: 'c1', text: 'I like tea.', signals: { ...pair, cosine: 1 } }] },
};

/** One request per group asking every catalogue id of that group (with `#c1` where a ref is used). */
function requestsForAllIds(): SystemOneRequest[] {
  return HEAD_GROUPS.map((group) => ({
    state: STATES[group],
    questions: Object.fromEntries(
      CATALOGUE_IDS.filter((id) => HEADS[id].group === group).map((id) => [questionKey(id, HEADS[id].usesRef ? 'c1' : undefined), CATALOGUE[id]]),
    ),
  }));
}

describe('heads', () => {
  it('give every catalogue id exactly one head of the catalogue question type', () => {
    for (const id of CATALOGUE_IDS) expect(HEADS[id].type, id).toBe(CATALOGUE[id].type);
  });

  it('cover each sigmoid output column with one catalogue id', () => {
    for (const group of HEAD_GROUPS) {
      for (const out of GROUP_OUTPUTS[group].filter((o) => o.activation === 'sigmoid')) {
        out.labels.forEach((id, i) => expect(HEADS[id as CatalogueId]).toMatchObject({ group, output: out.name, index: i }));
      }
    }
  });

  it('plan one row per (request, group, ref): the questions of one pair share it', () => {
    const relation = STATES.relation as { candidates: Array<{ ref: string }> };
    const state = { ...STATES.relation, candidates: [...relation.candidates, { ...relation.candidates[0], ref: 'c2' }] };
    const ids: CatalogueId[] = ['rel.semantic', 'rel.causes', 'rel.caused_by', 'rel.same_episode', 'rel.entity', 'rel.temporal'];
    const questions = Object.fromEntries(['c1', 'c2'].flatMap((ref) => ids.map((id) => [questionKey(id, ref), CATALOGUE[id]])));
    const plan = planBatch([{ state, questions }]);
    expect(plan.rows.relation).toHaveLength(2);
    expect(HEAD_GROUPS.filter((g) => g !== 'relation').every((g) => plan.rows[g].length === 0)).toBe(true);
  });

  it('run each group once per batch, with the rows of every request', async () => {
    const calls: Array<[HeadGroup, number]> = [];
    const counting: GroupRunner = (group, input, rows) => {
      calls.push([group, rows]);
      return runHeuristicGroup(group, input, rows);
    };
    const routing = { state: STATES.routing, questions: { 'route.temporal': CATALOGUE['route.temporal'], 'route.causal': CATALOGUE['route.causal'] } };
    const typing = { state: STATES.typing, questions: { 'type.episodic': CATALOGUE['type.episodic'] } };
    await decideBatch([routing, typing, routing, routing], counting, 'm');
    expect(calls).toEqual([['typing', 1], ['routing', 3]]);
  });
});

describe('heuristic stand-in', () => {
  const backend = createHeuristicSystemOne();

  it('is named heuristic with its model id', () => {
    expect([backend.kind, backend.modelId]).toEqual(['heuristic', 'jev-mem/heuristic-standin@0.1.0']);
    expect(HEURISTIC_MODEL_ID).toBe(backend.modelId);
  });

  it('answers every catalogue id with a valid answer of its type', async () => {
    const requests = requestsForAllIds();
    const responses = await backend.decideMany(requests);
    expect(requests.reduce((n, r) => n + Object.keys(r.questions).length, 0)).toBe(CATALOGUE_IDS.length);
    responses.forEach((res, i) => {
      expect(() => validateResponse(requests[i]!, res)).not.toThrow();
      expect(res.model).toBe(HEURISTIC_MODEL_ID);
    });
  });

  it('computes route.temporal of a "when" question as σ(−2.5 + 4) = 0.82', async () => {
    const res = await backend.decide({ state: STATES.routing, questions: { 'route.temporal': CATALOGUE['route.temporal'] } });
    expect(res.answers['route.temporal']).toEqual({ type: 'noul', noul: 0.82 });
  });

  it('computes type.preference of "I love pottery." as σ(−2.5 + 7·0.5 + 0.6/3) = 0.77', async () => {
    const res = await backend.decide({ state: STATES.typing, questions: { 'type.preference': CATALOGUE['type.preference'] } });
    expect(res.answers['type.preference']).toEqual({ type: 'noul', noul: 0.77 });
  });

  it('answers rel.temporal "after" when the new observation is later', async () => {
    const res = await backend.decide({ state: STATES.relation, questions: { 'rel.temporal#c1': CATALOGUE['rel.temporal'] } });
    expect(res.answers['rel.temporal#c1']).toMatchObject({ type: 'choice', choice: 'after' });
  });

  it('scores a strong lexical anchor above a weak candidate for cand.relevance', async () => {
    const state = {
      ...STATES.candidates,
      candidates: [
        { ref: 'strong', text: 'Caroline: I went to the support group.', signals: candSignals },
        { ref: 'weak', text: 'Melanie: nice weather.', signals: { ...candSignals, cosine: 0.1, vectorRank: 30, lexical: 0.05, lexicalRank: 40, rrf: 0, overlap: 0, speakerNamed: 0, otherSpeakerNamed: 1, hasDate: 0 } },
      ],
    };
    const res = await backend.decide({ state, questions: { 'cand.relevance#strong': CATALOGUE['cand.relevance'], 'cand.relevance#weak': CATALOGUE['cand.relevance'] } });
    const p = (k: string): number => (res.answers[k] as { noul: number }).noul;
    expect(p('cand.relevance#strong')).toBeGreaterThan(0.9);
    expect(p('cand.relevance#weak')).toBeLessThan(0.1);
  });

  it('answers ids outside the catalogue neutrally: noul 0.5, choice and score uniform', async () => {
    const res = await backend.decide({
      state: 'anything',
      questions: {
        'custom.yes': { type: 'noul', instructions: 'Is it?' },
        'custom.pick': { type: 'choice', instructions: 'Pick', criteria: { a: null, b: null, c: null, d: null } },
        'custom.rate': { type: 'score', instructions: 'Rate', criteria: ['0', '1', '2', '3'] },
      },
    });
    expect(res.answers['custom.yes']).toEqual({ type: 'noul', noul: 0.5 });
    expect(res.answers['custom.pick']).toEqual({ type: 'choice', choice: 'a', probabilities: { a: 0.25, b: 0.25, c: 0.25, d: 0.25 }, confidence: 0 });
    expect(res.answers['custom.rate']).toMatchObject({ type: 'score', score: 1.5, probabilities: { 0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25 }, confidence: 0 });
  });

  it('answers a catalogue id asked with other labels neutrally', async () => {
    const res = await backend.decide({
      state: STATES.relation,
      questions: { 'rel.temporal#c1': { type: 'choice', instructions: 'order?', criteria: { earlier: null, later: null } } },
    });
    expect(res.answers['rel.temporal#c1']).toEqual({ type: 'choice', choice: 'earlier', probabilities: { earlier: 0.5, later: 0.5 }, confidence: 0 });
  });

  it('maps a choice head onto the asked label order', async () => {
    const labels = ['unknown', 'same_time', 'overlaps', 'contains', 'during', 'after', 'before'];
    const reordered = { type: 'choice' as const, instructions: 'x', criteria: Object.fromEntries(labels.map((l) => [l, null])) };
    const [base, asked] = await backend.decideMany([
      { state: STATES.relation, questions: { 'rel.temporal#c1': CATALOGUE['rel.temporal'] } },
      { state: STATES.relation, questions: { 'rel.temporal#c1': reordered } },
    ]);
    const a = asked!.answers['rel.temporal#c1'] as { choice: string; probabilities: Record<string, number> };
    const b = base!.answers['rel.temporal#c1'] as { choice: string; probabilities: Record<string, number> };
    expect(Object.keys(a.probabilities)).toEqual(labels);
    expect(a.choice).toBe(b.choice);
    for (const l of labels) expect(a.probabilities[l], l).toBe(b.probabilities[l]);
  });

  it('rejects with ABORTED when the signal has fired', async () => {
    const error = await backend.decide(requestsForAllIds()[0]!, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(isJevMemError(error, 'ABORTED')).toBe(true);
  });

  it('rejects with CLOSED after close()', async () => {
    const b = createHeuristicSystemOne();
    await b.close();
    await b.close();
    const error = await b.decide(requestsForAllIds()[0]!).catch((e: unknown) => e);
    expect(isJevMemError(error, 'CLOSED')).toBe(true);
  });
});

describe('hand-set tables', () => {
  it('name only features and labels that exist', () => {
    for (const group of HEAD_GROUPS) {
      const weights = heuristicGroupWeights(group);
      for (const [output, logits] of Object.entries(HEURISTIC_TABLES[group] as Record<string, Record<string, { w: Record<string, number> }>>)) {
        const spec = GROUP_OUTPUTS[group].find((o) => o.name === output);
        expect(spec, `${group}.${output}`).toBeDefined();
        for (const [label, logit] of Object.entries(logits)) {
          expect(spec!.labels, `${group}.${output}`).toContain(label);
          for (const f of Object.keys(logit.w)) expect(weights.features, `${group}.${label}`).toContain(f);
        }
      }
    }
  });

  it('give every output label a logit', () => {
    for (const group of HEAD_GROUPS) {
      for (const spec of GROUP_OUTPUTS[group]) {
        const table = (HEURISTIC_TABLES[group] as Record<string, Record<string, unknown>>)[spec.name] ?? {};
        expect(Object.keys(table).sort(), `${group}.${spec.name}`).toEqual([...spec.labels].sort());
      }
    }
  });
});
