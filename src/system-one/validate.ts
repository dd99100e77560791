/**
 * Checks of the System-One wire contract (SPEC 5): {@link validateRequest} before a request is
 * answered or sent, {@link validateResponse} on every answer a backend returns, and
 * {@link readGroupState}, which reads an untyped request state once into the typed state a head
 * group's featurizer reads.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { CandidateSignals, PairSignals, StateMemory, TypingState } from './catalogue.js';
import type { GroupStates, HeadGroup } from './features.js';
import type { Question, SystemOneRequest, SystemOneResponse } from './wire.js';

/** Fewest / most labels of a choice question (SPEC 5). */
export const CHOICE_LABELS = { min: 2, max: 255 } as const;
/** Fewest / most levels of a score question (SPEC 5). */
export const SCORE_LEVELS = { min: 2, max: 10 } as const;
/**
 * Allowed distance of a probability sum from 1 (answers carry 2-decimal probabilities; a server
 * that rounds each one independently may be off by about one hundredth).
 */
export const SUM_TOLERANCE = 0.011;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function invalidRequest(field: string, message: string): JevMemError {
  return new JevMemError('SYSTEM_ONE_INVALID_REQUEST', `${field}: ${message}`, { field });
}

function validateQuestion(id: string, q: unknown): void {
  const at = `questions.${id}`;
  if (!isRecord(q)) throw invalidRequest(at, `expected a question object, got ${describe(q)}`);
  if (q.type !== 'noul' && q.type !== 'choice' && q.type !== 'score') {
    throw invalidRequest(`${at}.type`, `expected "noul", "choice" or "score", got ${describe(q.type)}`);
  }
  if (typeof q.instructions !== 'string' || q.instructions.trim() === '') {
    throw invalidRequest(`${at}.instructions`, `expected a non-empty string, got ${describe(q.instructions)}`);
  }
  const criteria = q.criteria;
  switch (q.type) {
    case 'noul': {
      if (criteria === undefined) return;
      if (!isRecord(criteria)) throw invalidRequest(`${at}.criteria`, `expected {true?, false?} with string values, got ${describe(criteria)}`);
      for (const key of ['true', 'false'] as const) {
        const v = criteria[key];
        if (v !== undefined && typeof v !== 'string') throw invalidRequest(`${at}.criteria.${key}`, `expected a string, got ${describe(v)}`);
      }
      return;
    }
    case 'choice': {
      if (!isRecord(criteria)) throw invalidRequest(`${at}.criteria`, `expected {label: description | null}, got ${describe(criteria)}`);
      const labels = Object.keys(criteria);
      if (labels.length < CHOICE_LABELS.min || labels.length > CHOICE_LABELS.max) {
        throw invalidRequest(`${at}.criteria`, `expected ${CHOICE_LABELS.min}-${CHOICE_LABELS.max} labels, got ${labels.length}`);
      }
      for (const label of labels) {
        if (label.trim() === '') throw invalidRequest(`${at}.criteria`, 'labels must be non-empty');
        const v = criteria[label];
        if (v !== null && typeof v !== 'string') throw invalidRequest(`${at}.criteria.${label}`, `expected a description string or null, got ${describe(v)}`);
      }
      return;
    }
    case 'score': {
      if (!Array.isArray(criteria)) throw invalidRequest(`${at}.criteria`, `expected an array of levels (lowest first), got ${describe(criteria)}`);
      if (criteria.length < SCORE_LEVELS.min || criteria.length > SCORE_LEVELS.max) {
        throw invalidRequest(`${at}.criteria`, `expected ${SCORE_LEVELS.min}-${SCORE_LEVELS.max} levels, got ${criteria.length}`);
      }
      criteria.forEach((level: unknown, i) => {
        if (typeof level !== 'string' || level.trim() === '') throw invalidRequest(`${at}.criteria.${i}`, `expected a non-empty string, got ${describe(level)}`);
      });
      return;
    }
  }
}

/**
 * Checks that `req` is a well-formed System-One request (SPEC 5): an object whose `state` is a
 * string, object or array, whose optional `model` is a string, and whose `questions` is a
 * non-empty object of noul / choice (2-255 labels, each description a string or null) / score
 * (2-10 non-empty levels) questions, each with non-empty `instructions`. Unknown extra fields are
 * allowed (forward compatibility).
 *
 * @returns `req`, typed.
 * @throws JevMemError `SYSTEM_ONE_INVALID_REQUEST` whose `field` names the offending path, e.g.
 *   `questions.foo.criteria`.
 */
export function validateRequest(req: unknown): SystemOneRequest {
  if (!isRecord(req)) throw invalidRequest('request', `expected an object {model?, state, questions}, got ${describe(req)}`);
  if (req.model !== undefined && typeof req.model !== 'string') throw invalidRequest('model', `expected a string, got ${describe(req.model)}`);
  const state = req.state;
  if (typeof state !== 'string' && (typeof state !== 'object' || state === null)) {
    throw invalidRequest('state', `expected a string, object or array, got ${describe(state)}`);
  }
  const questions = req.questions;
  if (!isRecord(questions)) throw invalidRequest('questions', `expected an object mapping ids to questions, got ${describe(questions)}`);
  const ids = Object.keys(questions);
  if (ids.length === 0) throw invalidRequest('questions', 'expected at least one question, got none');
  for (const id of ids) {
    if (id === '') throw invalidRequest('questions', 'question ids must be non-empty');
    validateQuestion(id, questions[id]);
  }
  return req as unknown as SystemOneRequest;
}

function invalidAnswer(field: string, message: string): JevMemError {
  return new JevMemError('SYSTEM_ONE_FAILED', `invalid answer ${field}: ${message}`, { field });
}

function isProbability(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
}

/** Checks a probability map holds exactly `keys`, each in [0,1], summing to 1 ± SUM_TOLERANCE. */
function checkDistribution(at: string, probs: unknown, keys: readonly string[]): number[] {
  if (!isRecord(probs)) throw invalidAnswer(`${at}.probabilities`, `expected an object, got ${describe(probs)}`);
  const got = Object.keys(probs);
  const missing = keys.filter((k) => !(k in probs));
  const extra = got.filter((k) => !keys.includes(k));
  if (missing.length > 0 || extra.length > 0) {
    throw invalidAnswer(`${at}.probabilities`, `expected exactly the keys [${keys.join(', ')}]` +
      (missing.length ? `; missing [${missing.join(', ')}]` : '') + (extra.length ? `; unexpected [${extra.join(', ')}]` : ''));
  }
  const values = keys.map((k) => {
    const v = probs[k];
    if (!isProbability(v)) throw invalidAnswer(`${at}.probabilities.${k}`, `expected a probability in [0,1], got ${describe(v)}`);
    return v;
  });
  const sum = values.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE + 1e-9) {
    throw invalidAnswer(`${at}.probabilities`, `expected a sum of 1 ± ${SUM_TOLERANCE}, got ${sum}`);
  }
  return values;
}

function checkConfidence(at: string, v: unknown): void {
  if (!isProbability(v)) throw invalidAnswer(`${at}.confidence`, `expected a number in [0,1], got ${describe(v)}`);
}

function validateAnswer(id: string, q: Question, a: unknown): void {
  const at = `answers.${id}`;
  if (!isRecord(a)) throw invalidAnswer(at, `expected an answer object, got ${describe(a)}`);
  if (a.type !== q.type) throw invalidAnswer(`${at}.type`, `expected "${q.type}" (the question's type), got ${describe(a.type)}`);
  switch (q.type) {
    case 'noul':
      if (!isProbability(a.noul)) throw invalidAnswer(`${at}.noul`, `expected P(true) in [0,1], got ${describe(a.noul)}`);
      return;
    case 'choice': {
      const labels = Object.keys(q.criteria);
      const values = checkDistribution(at, a.probabilities, labels);
      if (typeof a.choice !== 'string' || !labels.includes(a.choice)) {
        throw invalidAnswer(`${at}.choice`, `expected one of [${labels.join(', ')}], got ${describe(a.choice)}`);
      }
      const max = Math.max(...values);
      const chosen = values[labels.indexOf(a.choice)] ?? 0;
      if (chosen < max - 1e-9) throw invalidAnswer(`${at}.choice`, `"${a.choice}" has p = ${chosen} but the largest probability is ${max}`);
      checkConfidence(at, a.confidence);
      return;
    }
    case 'score': {
      const n = q.criteria.length;
      const keys = Array.from({ length: n }, (_, i) => String(i));
      const values = checkDistribution(at, a.probabilities, keys);
      const score = a.score;
      if (typeof score !== 'number' || !Number.isFinite(score) || score < -1e-9 || score > n - 1 + 1e-9) {
        throw invalidAnswer(`${at}.score`, `expected a number in [0, ${n - 1}], got ${describe(score)}`);
      }
      // score = Σ i·p_i. A server may compute it from unrounded probabilities: each p_i may then be
      // off by ≈ 0.005 (plus the sum fix), so allow 0.005·Σi + 0.01.
      const expected = values.reduce((s, p, i) => s + i * p, 0);
      const tolerance = (0.005 * n * (n - 1)) / 2 + 0.01;
      if (Math.abs(score - expected) > tolerance) {
        throw invalidAnswer(`${at}.score`, `expected Σ i·p_i = ${round4(expected)} (± ${round4(tolerance)}), got ${score}`);
      }
      if (!isRecord(a.legend)) throw invalidAnswer(`${at}.legend`, `expected an object index → level, got ${describe(a.legend)}`);
      checkConfidence(at, a.confidence);
      return;
    }
  }
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * Checks that `res` answers `req` by the contract (SPEC 5): a non-empty `model` string, `usage`
 * with non-negative token counts, and for every question an answer of the same type — noul:
 * `noul` in [0,1]; choice: probabilities over exactly the labels, each in [0,1], summing to
 * 1 ± 0.011, `choice` a label with the largest probability, `confidence` in [0,1]; score:
 * probabilities keyed `"0".."n-1"` (same sum rule), `score` in [0, n−1] and close to Σ i·p_i,
 * a `legend` object, `confidence` in [0,1]. Answers to ids that were not asked are ignored.
 *
 * @param req - the request as sent (assumed valid, see {@link validateRequest}).
 * @returns `res`, typed.
 * @throws JevMemError `SYSTEM_ONE_FAILED` with a message starting `invalid answer` and `field`
 *   naming the offending path (e.g. `answers.foo.probabilities`).
 */
export function validateResponse(req: SystemOneRequest, res: unknown): SystemOneResponse {
  if (!isRecord(res)) throw invalidAnswer('response', `expected an object {model, answers, usage}, got ${describe(res)}`);
  if (typeof res.model !== 'string' || res.model === '') throw invalidAnswer('model', `expected a non-empty string, got ${describe(res.model)}`);
  const usage = res.usage;
  if (!isRecord(usage)) throw invalidAnswer('usage', `expected {input_tokens, output_tokens}, got ${describe(usage)}`);
  for (const k of ['input_tokens', 'output_tokens'] as const) {
    const v = usage[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalidAnswer(`usage.${k}`, `expected a count ≥ 0, got ${describe(v)}`);
  }
  const answers = res.answers;
  if (!isRecord(answers)) throw invalidAnswer('answers', `expected an object, got ${describe(answers)}`);
  for (const [id, q] of Object.entries(req.questions)) {
    if (!(id in answers)) throw invalidAnswer(`answers.${id}`, 'missing: every question needs an answer');
    validateAnswer(id, q, answers[id]);
  }
  return res as unknown as SystemOneResponse;
}

// ---------------------------------------------------------------------------------------------
// States: an untyped state (wire JSON) read once into the typed state a head group's featurizer
// reads (features.ts). Reading is lenient, as SPEC 5 lets a request carry any state: the numbers
// are what the featurizers documented before they were typed, so the shipped model sees the same
// rows.
// ---------------------------------------------------------------------------------------------

/** A finite number, else 0. */
function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function rec(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function stateMemory(v: unknown): StateMemory {
  const r = rec(v);
  const m: StateMemory = { ref: str(r.ref), text: str(r.text) };
  if (typeof r.speaker === 'string') m.speaker = r.speaker;
  if (typeof r.observedAt === 'string') m.observedAt = r.observedAt;
  if (typeof r.sessionId === 'string') m.sessionId = r.sessionId;
  return m;
}

function pairSignals(v: unknown): PairSignals {
  const s = rec(v);
  return {
    cosine: num(s.cosine),
    lexical: num(s.lexical),
    sharedEntities: num(s.sharedEntities),
    sharedKeywords: num(s.sharedKeywords),
    // a gap that is not a number is unknown (-1); a non-finite number reads as 0 days, as before
    gapDays: typeof s.gapDays === 'number' ? num(s.gapDays) : -1,
    sameSession: num(s.sameSession),
    sameSpeaker: num(s.sameSpeaker),
    seqGap: num(s.seqGap),
  };
}

function candidateSignals(v: unknown): Required<CandidateSignals> {
  const s = rec(v);
  return {
    cosine: num(s.cosine), vectorRank: num(s.vectorRank), lexical: num(s.lexical), lexicalRank: num(s.lexicalRank), rrf: num(s.rrf),
    overlap: num(s.overlap), speakerNamed: num(s.speakerNamed), otherSpeakerNamed: num(s.otherSpeakerNamed), hops: num(s.hops),
    edgeWeight: num(s.edgeWeight), neighbourLexical: num(s.neighbourLexical), sessionDistance: num(s.sessionDistance),
    evidenceCosine: num(s.evidenceCosine), hasDate: num(s.hasDate), words: num(s.words), image: num(s.image),
    lexicalTop10: num(s.lexicalTop10), neighbourOfHit: num(s.neighbourOfHit), cosineGap: num(s.cosineGap),
    sameSessionAsBest: num(s.sameSessionAsBest), monthMatch: num(s.monthMatch), yearMatch: num(s.yearMatch),
    reassess: num(s.reassess), priorRelevance: num(s.priorRelevance), neighbourRelevance: num(s.neighbourRelevance),
    neighbourCosine: num(s.neighbourCosine), windowLexical: num(s.windowLexical), sessionLexical: num(s.sessionLexical),
    entityMatch: num(s.entityMatch), softWindowOverlap: num(s.softWindowOverlap),
  };
}

/**
 * The entries of `v` that can be asked about (objects whose `ref` is a string), each read by
 * `extra`. Other entries name no candidate and are dropped.
 */
function refEntries<T extends object>(v: unknown, extra: (r: Record<string, unknown>) => T): Array<StateMemory & T> {
  const out: Array<StateMemory & T> = [];
  for (const c of list(v)) {
    if (!isRecord(c) || typeof c.ref !== 'string') continue;
    out.push({ ...stateMemory(c), ...extra(c) });
  }
  return out;
}

const STATE_READERS: { readonly [G in HeadGroup]: (s: Record<string, unknown>) => GroupStates[G] } = {
  typing: (s) => {
    const o = rec(s.observation);
    const observation: TypingState['observation'] = { text: str(o.text) };
    if (typeof o.speaker === 'string') observation.speaker = o.speaker;
    if (typeof o.observedAt === 'string') observation.observedAt = o.observedAt;
    return { kind: 'typing', observation };
  },
  relation: (s) => ({ kind: 'relation', observation: stateMemory(s.observation), candidates: refEntries(s.candidates, (c) => ({ signals: pairSignals(c.signals) })) }),
  routing: (s) => ({ kind: 'routing', query: str(s.query), mentions: list(s.mentions).map(str) }),
  candidates: (s) => ({
    kind: 'candidates',
    query: str(s.query),
    candidates: refEntries(s.candidates, (c) => {
      const signals = candidateSignals(c.signals);
      if (!isRecord(c.via)) return { signals };
      return { signals, via: { view: str(c.via.view), subtype: str(c.via.subtype), weight: num(c.via.weight) } };
    }),
  }),
  stop: (s) => {
    const g = rec(s.signals);
    return {
      kind: 'stop',
      query: str(s.query),
      evidence: list(s.evidence).map(stateMemory),
      signals: {
        round: num(g.round), maxDepth: num(g.maxDepth), beamScores: list(g.beamScores).map(num), bestRelevance: num(g.bestRelevance),
        lastRoundGain: num(g.lastRoundGain), lastRoundNew: num(g.lastRoundNew), frontier: num(g.frontier),
        contradictions: num(g.contradictions), multiHop: num(g.multiHop),
      },
    };
  },
  maintenance: (s) => ({ kind: 'maintenance', node: stateMemory(s.node), candidates: refEntries(s.candidates, (c) => ({ signals: pairSignals(c.signals) })) }),
};

/**
 * Reads an untyped request state (wire JSON: the CLI's `decide`, a worker message, any caller of
 * `SystemOneBackend.decide`) into the typed state that `group`'s featurizer reads (features.ts
 * {@link GroupStates}). Lenient, never throws: the `kind` is not checked (a head reads the fields
 * its group needs from any state); a state that is not an object reads as an empty one; a missing
 * or ill-typed string reads as `''`, a missing, ill-typed or non-finite number as 0 (a missing
 * `gapDays` as -1, unknown); a list that is not an array as `[]`; candidates that are not objects
 * with a string `ref` are dropped (no question can name them). Returns a fresh object.
 */
export function readGroupState<G extends HeadGroup>(group: G, state: unknown): GroupStates[G] {
  return (STATE_READERS[group] as (s: Record<string, unknown>) => GroupStates[G])(rec(state));
}
