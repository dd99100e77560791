/**
 * The System-One conformance suite (SPEC 5): registers vitest tests that any
 * {@link SystemOneBackend} must pass (remote, local model, heuristic). Call it at the top level of
 * a test file:
 *
 * ```ts
 * runConformanceSuite('remote', async () => createRemoteSystemOne({ baseURL }));
 * ```
 *
 * Requests use catalogue ids and catalogue-shaped states, so a backend with trained heads can
 * answer them. The score-question tests use an id outside the catalogue (the catalogue has no
 * score question); a backend that answers catalogue ids only passes `{ catalogueOnly: true }`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, REPRESENTATION_LABELS, TEMPORAL_LABELS, questionKey } from '../../src/system-one/catalogue.js';
import type { RelationState, TypingState } from '../../src/system-one/catalogue.js';
import { validateResponse } from '../../src/system-one/validate.js';
import type {
  ChoiceAnswer,
  NoulAnswer,
  ScoreAnswer,
  ScoreQuestion,
  SystemOneBackend,
  SystemOneRequest,
  SystemOneResponse,
} from '../../src/system-one/wire.js';
import { isJevMemError } from '../../src/errors.js';

/** Options of {@link runConformanceSuite}. */
export interface ConformanceOptions {
  /** Skip the tests that ask a question outside the catalogue (the score question). @default false */
  catalogueOnly?: boolean;
}

const typingState: TypingState = {
  kind: 'typing',
  observation: { text: 'Caroline: I went to the LGBTQ support group yesterday and it was so powerful.', speaker: 'Caroline', observedAt: '2023-05-08T13:56:00Z' },
};

const pairSignals = { cosine: 0.62, lexical: 0.4, sharedEntities: 1, sharedKeywords: 2, gapDays: 3, sameSession: 0, sameSpeaker: 1, seqGap: 14 };

const relationState: RelationState = {
  kind: 'relation',
  observation: { ref: 'new', text: 'Melanie: We finally went camping with the kids last weekend.', speaker: 'Melanie', observedAt: '2023-07-10T10:00:00Z' },
  candidates: [
    { ref: 'c1', text: 'Melanie: We are planning a camping trip in July.', speaker: 'Melanie', observedAt: '2023-06-27T09:00:00Z', signals: pairSignals },
    { ref: 'c2', text: 'Caroline: I started a new painting class.', speaker: 'Caroline', observedAt: '2023-07-01T09:00:00Z', signals: { ...pairSignals, cosine: 0.1, sharedEntities: 0, sameSpeaker: 0 } },
  ],
};

/** Typing: the four catalogue noul questions. */
export const TYPING_REQUEST: SystemOneRequest = {
  state: typingState,
  questions: {
    'type.episodic': CATALOGUE['type.episodic'],
    'type.semantic': CATALOGUE['type.semantic'],
    'type.procedural': CATALOGUE['type.procedural'],
    'type.preference': CATALOGUE['type.preference'],
  },
};

/** Relation judgement: nouls and the 7-label temporal choice per candidate. */
export const RELATION_REQUEST: SystemOneRequest = {
  state: relationState,
  questions: Object.fromEntries(
    relationState.candidates.flatMap((c) => [
      [questionKey('rel.semantic', c.ref), CATALOGUE['rel.semantic']],
      [questionKey('rel.causes', c.ref), CATALOGUE['rel.causes']],
      [questionKey('rel.temporal', c.ref), CATALOGUE['rel.temporal']],
    ]),
  ),
};

/** Maintenance: the 3-label representation choice. */
export const MAINTENANCE_REQUEST: SystemOneRequest = {
  state: { kind: 'maintenance', node: relationState.observation, candidates: relationState.candidates },
  questions: { [questionKey('maint.representation', 'c1')]: CATALOGUE['maint.representation'] },
};

const SCORE_QUESTION: ScoreQuestion = {
  type: 'score',
  instructions: 'How relevant is the candidate memory to the query?',
  criteria: ['irrelevant', 'slightly relevant', 'relevant', 'highly relevant', 'answers it'],
};

/** A score question (outside the catalogue) next to a catalogue noul. */
export const SCORE_REQUEST: SystemOneRequest = {
  state: { kind: 'routing', query: 'When did Melanie go camping?', mentions: ['Melanie'] },
  questions: { 'conformance.score': SCORE_QUESTION, 'route.temporal': CATALOGUE['route.temporal'] },
};

/** True when `x` has at most two decimals. */
function hasTwoDecimals(x: number): boolean {
  return Math.abs(x * 100 - Math.round(x * 100)) < 1e-6;
}

/** clip((max p − 1/k)/(1 − 1/k), 0, 1) over the answer's probabilities (SPEC 5). */
function expectedConfidence(probabilities: Record<string, number>): number {
  const values = Object.values(probabilities);
  const k = values.length;
  return Math.min(1, Math.max(0, (Math.max(...values) - 1 / k) / (1 - 1 / k)));
}

function answersOfType<T extends 'noul' | 'choice' | 'score'>(
  res: SystemOneResponse,
  type: T,
): Array<[string, T extends 'noul' ? NoulAnswer : T extends 'choice' ? ChoiceAnswer : ScoreAnswer]> {
  return Object.entries(res.answers).filter(([, a]) => a.type === type) as never;
}

async function expectInvalid(backend: SystemOneBackend, request: unknown, field: string): Promise<void> {
  const error = await backend.decide(request as SystemOneRequest).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isJevMemError(error, 'SYSTEM_ONE_INVALID_REQUEST'), `expected SYSTEM_ONE_INVALID_REQUEST, got ${String(error)}`).toBe(true);
  expect((error as { field?: string }).field).toBe(field);
}

/**
 * Registers the conformance tests for one backend under `describe(\`System One conformance: ${name}\`)`.
 * `makeBackend` runs once (in `beforeAll`); the backend is closed in `afterAll`.
 */
export function runConformanceSuite(name: string, makeBackend: () => Promise<SystemOneBackend>, options: ConformanceOptions = {}): void {
  describe(`System One conformance: ${name}`, () => {
    let backend: SystemOneBackend;
    const responses = new Map<SystemOneRequest, SystemOneResponse>();
    const ask = async (req: SystemOneRequest): Promise<SystemOneResponse> => {
      const cached = responses.get(req);
      if (cached) return cached;
      const res = await backend.decide(req);
      responses.set(req, res);
      return res;
    };
    const requests = options.catalogueOnly ? [TYPING_REQUEST, RELATION_REQUEST, MAINTENANCE_REQUEST] : [TYPING_REQUEST, RELATION_REQUEST, MAINTENANCE_REQUEST, SCORE_REQUEST];

    beforeAll(async () => {
      backend = await makeBackend();
    });
    afterAll(async () => {
      await backend?.close();
    });

    it('names its kind and a model id', () => {
      expect(typeof backend.kind).toBe('string');
      expect(backend.kind.length).toBeGreaterThan(0);
      expect(typeof backend.modelId).toBe('string');
    });

    it('answers every question with an answer of the same type and passes validateResponse', async () => {
      for (const req of requests) {
        const res = await ask(req);
        expect(() => validateResponse(req, res)).not.toThrow();
        for (const [id, q] of Object.entries(req.questions)) expect(res.answers[id]?.type).toBe(q.type);
      }
    });

    it('reports a model id and non-negative integer usage counts', async () => {
      const res = await ask(TYPING_REQUEST);
      expect(res.model.length).toBeGreaterThan(0);
      expect(Number.isInteger(res.usage.input_tokens) && res.usage.input_tokens >= 0).toBe(true);
      expect(Number.isInteger(res.usage.output_tokens) && res.usage.output_tokens >= 0).toBe(true);
    });

    it('noul answers carry P(true) in [0,1] with 2 decimals and no confidence field', async () => {
      const res = await ask(TYPING_REQUEST);
      const nouls = answersOfType(res, 'noul');
      expect(nouls).toHaveLength(4);
      for (const [, a] of nouls) {
        expect(a.noul).toBeGreaterThanOrEqual(0);
        expect(a.noul).toBeLessThanOrEqual(1);
        expect(hasTwoDecimals(a.noul)).toBe(true);
        expect('confidence' in a).toBe(false);
      }
    });

    it('choice probabilities cover exactly the labels and sum to 1.00', async () => {
      const relation = answersOfType(await ask(RELATION_REQUEST), 'choice');
      const maintenance = answersOfType(await ask(MAINTENANCE_REQUEST), 'choice');
      expect(relation).toHaveLength(2);
      expect(maintenance).toHaveLength(1);
      for (const [labels, answers] of [
        [TEMPORAL_LABELS, relation],
        [REPRESENTATION_LABELS, maintenance],
      ] as const) {
        for (const [, a] of answers) {
          expect(Object.keys(a.probabilities).sort()).toEqual([...labels].sort());
          const cents = Object.values(a.probabilities).reduce((s, p) => s + Math.round(p * 100), 0);
          expect(cents).toBe(100);
        }
      }
    });

    it('choice is a label with the largest probability', async () => {
      for (const req of [RELATION_REQUEST, MAINTENANCE_REQUEST]) {
        for (const [, a] of answersOfType(await ask(req), 'choice')) {
          expect(a.probabilities[a.choice]).toBe(Math.max(...Object.values(a.probabilities)));
        }
      }
    });

    it('choice confidence is clip((max p − 1/k)/(1 − 1/k), 0, 1) to 2 decimals', async () => {
      for (const req of [RELATION_REQUEST, MAINTENANCE_REQUEST]) {
        for (const [, a] of answersOfType(await ask(req), 'choice')) {
          expect(Math.abs(a.confidence - expectedConfidence(a.probabilities))).toBeLessThanOrEqual(0.005 + 1e-9);
        }
      }
    });

    it('every probability, confidence and score has at most 2 decimals', async () => {
      for (const req of requests) {
        for (const a of Object.values((await ask(req)).answers)) {
          const numbers = a.type === 'noul' ? [a.noul] : [...Object.values(a.probabilities), a.confidence, ...(a.type === 'score' ? [a.score] : [])];
          for (const x of numbers) expect(hasTwoDecimals(x), `${x} has more than 2 decimals`).toBe(true);
        }
      }
    });

    if (!options.catalogueOnly) {
      it('score answers key probabilities "0".."n-1" and give score = Σ i·p_i', async () => {
        const [[, a]] = answersOfType(await ask(SCORE_REQUEST), 'score') as [[string, ScoreAnswer]];
        expect(Object.keys(a.probabilities)).toEqual(['0', '1', '2', '3', '4']);
        const expected = Object.entries(a.probabilities).reduce((s, [i, p]) => s + Number(i) * p, 0);
        expect(Math.abs(a.score - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(a.score).toBeGreaterThanOrEqual(0);
        expect(a.score).toBeLessThanOrEqual(4);
      });

      it('score answers give a legend index → level text', async () => {
        const [[, a]] = answersOfType(await ask(SCORE_REQUEST), 'score') as [[string, ScoreAnswer]];
        expect(a.legend).toEqual(Object.fromEntries(SCORE_QUESTION.criteria.map((level, i) => [String(i), level])));
      });

      it('score confidence is clip((max p − 1/k)/(1 − 1/k), 0, 1) with k = levels', async () => {
        const [[, a]] = answersOfType(await ask(SCORE_REQUEST), 'score') as [[string, ScoreAnswer]];
        expect(Math.abs(a.confidence - expectedConfidence(a.probabilities))).toBeLessThanOrEqual(0.005 + 1e-9);
      });
    }

    it('decideMany answers each request, in order', async () => {
      const out = await backend.decideMany([MAINTENANCE_REQUEST, TYPING_REQUEST]);
      expect(out).toHaveLength(2);
      expect(Object.keys(out[0]!.answers)).toEqual(Object.keys(MAINTENANCE_REQUEST.questions));
      expect(Object.keys(out[1]!.answers).sort()).toEqual(Object.keys(TYPING_REQUEST.questions).sort());
    });

    describe('rejects requests that break the contract with SYSTEM_ONE_INVALID_REQUEST', () => {
      const noul = CATALOGUE['type.episodic'];
      it('a request that is not an object', () => expectInvalid(backend, 'not a request', 'request'));
      it('a state that is not a string, object or array', () => expectInvalid(backend, { state: 42, questions: { 'type.episodic': noul } }, 'state'));
      it('a null state', () => expectInvalid(backend, { state: null, questions: { 'type.episodic': noul } }, 'state'));
      it('empty questions', () => expectInvalid(backend, { state: 'x', questions: {} }, 'questions'));
      it('questions that are not an object', () => expectInvalid(backend, { state: 'x', questions: [noul] }, 'questions'));
      it('an unknown question type', () =>
        expectInvalid(backend, { state: 'x', questions: { 'type.episodic': { type: 'rank', instructions: 'rank them' } } }, 'questions.type.episodic.type'));
      it('missing instructions', () => expectInvalid(backend, { state: 'x', questions: { 'type.episodic': { type: 'noul' } } }, 'questions.type.episodic.instructions'));
      it('blank instructions', () =>
        expectInvalid(backend, { state: 'x', questions: { 'type.episodic': { type: 'noul', instructions: '   ' } } }, 'questions.type.episodic.instructions'));
      it('a choice with fewer than 2 labels', () =>
        expectInvalid(backend, { state: 'x', questions: { 'maint.representation': { type: 'choice', instructions: 'pick', criteria: { keep: null } } } }, 'questions.maint.representation.criteria'));
      it('a choice with more than 255 labels', () => {
        const criteria = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`l${i}`, null]));
        return expectInvalid(backend, { state: 'x', questions: { 'maint.representation': { type: 'choice', instructions: 'pick', criteria } } }, 'questions.maint.representation.criteria');
      });
      it('a score with fewer than 2 levels', () =>
        expectInvalid(backend, { state: 'x', questions: { s: { type: 'score', instructions: 'rate', criteria: ['only'] } } }, 'questions.s.criteria'));
      it('a score with more than 10 levels', () =>
        expectInvalid(backend, { state: 'x', questions: { s: { type: 'score', instructions: 'rate', criteria: Array.from({ length: 11 }, (_, i) => `level ${i}`) } } }, 'questions.s.criteria'));
      it('noul criteria that are not strings', () =>
        expectInvalid(backend, { state: 'x', questions: { 'type.episodic': { type: 'noul', instructions: 'yes?', criteria: { true: 1 } } } }, 'questions.type.episodic.criteria.true'));
    });
  });
}
