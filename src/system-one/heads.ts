/**
 * The heads of the local System One (SPEC 5): which network output answers which catalogue id,
 * and the batching every head-based backend (heuristic stand-in, ONNX model, TypeScript kernels)
 * shares: questions of one request, and of all requests of a `decideMany`, that belong to one
 * head group become rows of ONE matrix, run once, and are shaped back into wire answers.
 *
 * Network outputs per group (rows × size, float32):
 *
 * | group | output | activation | columns |
 * |---|---|---|---|
 * | typing | `noul` | sigmoid | type.episodic, type.semantic, type.procedural, type.preference |
 * | relation | `noul` | sigmoid | rel.semantic, rel.causes, rel.caused_by, rel.same_episode, rel.entity |
 * | relation | `temporal` | softmax | before, after, during, contains, overlaps, same_time, unknown |
 * | routing | `noul` | sigmoid | route.semantic, route.temporal, route.causal, route.entity, route.multi_hop, route.recency |
 * | candidates | `noul` | sigmoid | cand.relevance, cand.relation_usefulness, cand.new_information, cand.supports_evidence |
 * | stop | `noul` | sigmoid | stop.sufficient, stop.continue_useful, stop.missing, stop.contradiction |
 * | maintenance | `noul` | sigmoid | maint.redundant, maint.contradiction, maint.obsolete, maint.link |
 * | maintenance | `representation` | softmax | keep, merge, promote |
 *
 * Questions no head answers get a documented neutral answer ({@link neutralAnswer}): a key whose
 * id is not in the catalogue, or a catalogue id asked with another type or other labels than its
 * head's. Noul → 0.5, choice → uniform (the first label wins the tie), score → uniform.
 *
 * @module
 */
import { JevMemError, throwIfAborted } from '../errors.js';
import { answerFromProbabilities, choiceAnswer, noulAnswer } from './answers.js';
import { CATALOGUE_IDS, REPRESENTATION_LABELS, TEMPORAL_LABELS, parseQuestionKey, type CatalogueId } from './catalogue.js';
import { FEATURE_NAMES, HEAD_GROUPS, createFeaturizer, type Featurizer, type GroupStates, type HeadGroup } from './features.js';
import { readGroupState, validateRequest } from './validate.js';
import type { Answer, Question, SystemOneBackend, SystemOneRequest, SystemOneResponse } from './wire.js';

/** One output tensor of a group's network. */
export interface GroupOutput {
  /** Output name in the ONNX graph (`noul`, `temporal`, `representation`). */
  readonly name: string;
  /** `sigmoid`: independent P(true) per column; `softmax`: one distribution over the columns. */
  readonly activation: 'sigmoid' | 'softmax';
  /** Column labels: catalogue ids for sigmoid outputs, choice labels for softmax outputs. */
  readonly labels: readonly string[];
}

/** The outputs of each group's network, in graph order (see the module table). */
export const GROUP_OUTPUTS: Readonly<Record<HeadGroup, readonly GroupOutput[]>> = Object.freeze({
  typing: [{ name: 'noul', activation: 'sigmoid', labels: ['type.episodic', 'type.semantic', 'type.procedural', 'type.preference'] }],
  relation: [
    { name: 'noul', activation: 'sigmoid', labels: ['rel.semantic', 'rel.causes', 'rel.caused_by', 'rel.same_episode', 'rel.entity'] },
    { name: 'temporal', activation: 'softmax', labels: TEMPORAL_LABELS },
  ],
  routing: [{
    name: 'noul', activation: 'sigmoid',
    labels: ['route.semantic', 'route.temporal', 'route.causal', 'route.entity', 'route.multi_hop', 'route.recency'],
  }],
  candidates: [{
    name: 'noul', activation: 'sigmoid',
    labels: ['cand.relevance', 'cand.relation_usefulness', 'cand.new_information', 'cand.supports_evidence'],
  }],
  stop: [{ name: 'noul', activation: 'sigmoid', labels: ['stop.sufficient', 'stop.continue_useful', 'stop.missing', 'stop.contradiction'] }],
  maintenance: [
    { name: 'noul', activation: 'sigmoid', labels: ['maint.redundant', 'maint.contradiction', 'maint.obsolete', 'maint.link'] },
    { name: 'representation', activation: 'softmax', labels: REPRESENTATION_LABELS },
  ],
} satisfies Record<HeadGroup, readonly GroupOutput[]>);

/** Where one catalogue id is answered. */
export interface HeadSpec {
  readonly id: CatalogueId;
  readonly group: HeadGroup;
  /** Name of the group output that answers it. */
  readonly output: string;
  /** Column in that output (sigmoid outputs); 0 for a softmax output (it uses every column). */
  readonly index: number;
  /** The question type the head answers. */
  readonly type: 'noul' | 'choice';
  /** Choice labels (choice heads only). */
  readonly labels?: readonly string[];
  /** True when the row depends on the question's `#ref` (pair and candidate questions). */
  readonly usesRef: boolean;
}

const REF_GROUPS: ReadonlySet<HeadGroup> = new Set(['relation', 'candidates', 'maintenance']);
/** Node-level heads of ref groups: asked without a ref. */
const NO_REF_HEADS: ReadonlySet<string> = new Set(['maint.representation']);
const CHOICE_HEADS: Readonly<Partial<Record<CatalogueId, { group: HeadGroup; output: string }>>> = {
  'rel.temporal': { group: 'relation', output: 'temporal' },
  'maint.representation': { group: 'maintenance', output: 'representation' },
};

function buildHeads(): Record<CatalogueId, HeadSpec> {
  const heads = {} as Record<CatalogueId, HeadSpec>;
  for (const group of HEAD_GROUPS) {
    for (const out of GROUP_OUTPUTS[group]) {
      if (out.activation !== 'sigmoid') continue;
      out.labels.forEach((id, index) => {
        heads[id as CatalogueId] = { id: id as CatalogueId, group, output: out.name, index, type: 'noul', usesRef: REF_GROUPS.has(group) };
      });
    }
  }
  for (const [id, where] of Object.entries(CHOICE_HEADS) as Array<[CatalogueId, { group: HeadGroup; output: string }]>) {
    const out = GROUP_OUTPUTS[where.group].find((o) => o.name === where.output) as GroupOutput;
    heads[id] = { id, group: where.group, output: out.name, index: 0, type: 'choice', labels: out.labels, usesRef: !NO_REF_HEADS.has(id) && REF_GROUPS.has(where.group) };
  }
  for (const id of CATALOGUE_IDS) if (heads[id] === undefined) throw new Error(`heads: no head for catalogue id ${id}`);
  return heads;
}

/** Head of every catalogue id (every id has exactly one). */
export const HEADS: Readonly<Record<CatalogueId, HeadSpec>> = Object.freeze(buildHeads());

/** Output width of `group`'s output `name` (number of columns). */
export function outputSize(group: HeadGroup, name: string): number {
  return GROUP_OUTPUTS[group].find((o) => o.name === name)?.labels.length ?? 0;
}

/**
 * The neutral answer for a question no head answers: noul P(true) = 0.5, choice and score
 * uniform (answers.ts shaping: 2-decimal probabilities summing to 1, ties to the first option).
 */
export function neutralAnswer(question: Question): Answer {
  switch (question.type) {
    case 'noul':
      return noulAnswer(0.5);
    case 'choice':
      return answerFromProbabilities(question, Object.keys(question.criteria).map(() => 1));
    case 'score':
      return answerFromProbabilities(question, question.criteria.map(() => 1));
  }
}

/** True when `question` has the type (and, for choice, exactly the label set) of `head`. */
function fits(question: Question, head: HeadSpec): boolean {
  if (question.type !== head.type) return false;
  if (question.type !== 'choice') return true;
  const labels = Object.keys(question.criteria);
  const expected = head.labels ?? [];
  return labels.length === expected.length && labels.every((l) => expected.includes(l));
}

// ---------------------------------------------------------------------------------------------
// Batching
// ---------------------------------------------------------------------------------------------

/** Output tensors of one group run: output name → rows × size values, row-major. */
export type GroupOutputs = Readonly<Record<string, Float32Array>>;

/**
 * Runs `group`'s network on `rows` feature rows (`input` is rows × features, row-major) and
 * returns every output of {@link GROUP_OUTPUTS} for the group, as probabilities.
 */
export type GroupRunner = (group: HeadGroup, input: Float32Array, rows: number) => GroupOutputs | Promise<GroupOutputs>;

type Slot =
  | { kind: 'neutral'; key: string; question: Question }
  | { kind: 'head'; key: string; question: Question; head: HeadSpec; row: number };

/** The rows to run and where each answer comes from, for a batch of requests. */
export interface BatchPlan {
  /** Per group: the feature rows (each of the group's feature length). */
  readonly rows: Readonly<Record<HeadGroup, readonly Float32Array[]>>;
  /** Per request, per question: neutral or (head, row). */
  readonly slots: ReadonlyArray<readonly Slot[]>;
}

/**
 * Plans a batch: one feature row per (request, group, effective ref), shared by every question
 * that reads it (the six relation questions of one pair share one row). Requests must be valid.
 * Each request's untyped state is read once per group it is asked about (validate.ts
 * `readGroupState`) into the typed state the group's featurizer reads.
 * @param featurizer - the featurizers to use (default: a fresh one, i.e. no cache shared across calls).
 */
export function planBatch(requests: readonly SystemOneRequest[], featurizer: Featurizer = createFeaturizer()): BatchPlan {
  const rows = Object.fromEntries(HEAD_GROUPS.map((g) => [g, [] as Float32Array[]])) as Record<HeadGroup, Float32Array[]>;
  const index = new Map<string, number>();
  const slots = requests.map((req, r) => {
    const states: Partial<GroupStates> = {};
    const stateOf = <G extends HeadGroup>(group: G): GroupStates[G] => (states[group] ??= readGroupState(group, req.state));
    return Object.entries(req.questions).map(([key, question]): Slot => {
      const { id, ref } = parseQuestionKey(key);
      const head = id === undefined ? undefined : HEADS[id];
      if (head === undefined || !fits(question, head)) return { kind: 'neutral', key, question };
      const effectiveRef = head.usesRef ? ref : undefined;
      const rowKey = `${r}\u0000${head.group}\u0000${effectiveRef === undefined ? '' : `#${effectiveRef}`}`;
      let row = index.get(rowKey);
      if (row === undefined) {
        row = rows[head.group].push(featurizer.features(head.group, stateOf(head.group), effectiveRef)) - 1;
        index.set(rowKey, row);
      }
      return { kind: 'head', key, question, head, row };
    });
  });
  return { rows, slots };
}

/** Concatenates a group's rows into one rows × features matrix. */
export function stackRows(group: HeadGroup, rows: readonly Float32Array[]): Float32Array {
  const width = FEATURE_NAMES[group].length;
  const out = new Float32Array(rows.length * width);
  rows.forEach((row, i) => out.set(row, i * width));
  return out;
}

function badOutput(group: HeadGroup, message: string): JevMemError {
  return new JevMemError('SYSTEM_ONE_FAILED', `System One group ${group}: ${message}`);
}

function checkOutputs(group: HeadGroup, outputs: GroupOutputs | undefined, rows: number): GroupOutputs {
  if (outputs === undefined) throw badOutput(group, 'no outputs');
  for (const out of GROUP_OUTPUTS[group]) {
    const data = outputs[out.name];
    const expected = rows * out.labels.length;
    if (!(data instanceof Float32Array) || data.length !== expected) {
      throw badOutput(group, `output ${out.name} should hold ${expected} float32 values, got ${data instanceof Float32Array ? data.length : typeof data}`);
    }
  }
  return outputs;
}

/** Shapes the answers of a planned batch from the group outputs (see {@link planBatch}). */
export function answerBatch(plan: BatchPlan, outputs: Partial<Record<HeadGroup, GroupOutputs>>, modelId: string): SystemOneResponse[] {
  return plan.slots.map((slots) => {
    const answers: Record<string, Answer> = {};
    for (const slot of slots) {
      if (slot.kind === 'neutral') {
        answers[slot.key] = neutralAnswer(slot.question);
        continue;
      }
      const { head, row, question } = slot;
      const data = outputs[head.group]?.[head.output];
      if (data === undefined) throw badOutput(head.group, `missing output ${head.output}`);
      if (head.type === 'noul') {
        answers[slot.key] = noulAnswer(data[row * outputSize(head.group, head.output) + head.index] as number);
      } else {
        const labels = head.labels ?? [];
        const k = labels.length;
        const asked = Object.keys(question.type === 'choice' ? question.criteria : {});
        answers[slot.key] = choiceAnswer(asked, asked.map((l) => data[row * k + labels.indexOf(l)] as number));
      }
    }
    return { model: modelId, answers, usage: { input_tokens: 0, output_tokens: 0 } };
  });
}

/**
 * Answers a batch with a group runner: validates every request, plans the rows, runs each group
 * that has rows exactly once (in {@link HEAD_GROUPS} order), and shapes the answers.
 * `usage` is 0/0: a head-based backend reads no language-model tokens.
 *
 * @param featurizer - featurizers with the caller's text-cue cache (default: a fresh one).
 * @throws JevMemError `SYSTEM_ONE_INVALID_REQUEST` (validateRequest), `ABORTED` when `signal`
 *   fires (checked before and after each group run), `SYSTEM_ONE_FAILED` for bad runner output.
 */
export async function decideBatch(
  requests: readonly SystemOneRequest[],
  run: GroupRunner,
  modelId: string,
  signal?: AbortSignal,
  featurizer?: Featurizer,
): Promise<SystemOneResponse[]> {
  throwIfAborted(signal);
  requests.forEach((r) => validateRequest(r));
  const plan = planBatch(requests, featurizer);
  const outputs: Partial<Record<HeadGroup, GroupOutputs>> = {};
  for (const group of HEAD_GROUPS) {
    const rows = plan.rows[group];
    if (rows.length === 0) continue;
    outputs[group] = checkOutputs(group, await run(group, stackRows(group, rows), rows.length), rows.length);
    throwIfAborted(signal);
  }
  return answerBatch(plan, outputs, modelId);
}

/**
 * A {@link SystemOneBackend} over a group runner: `decide` / `decideMany` go through
 * {@link decideBatch}; after `close()` every call fails with `CLOSED`. `signal` is honoured
 * (checked before and after each group run); `deadlineMs` is not enforced here, since a run takes
 * well under a millisecond per group (the controller and the worker backend enforce deadlines).
 *
 * @param onClose - releases the runner's resources (called once).
 */
export function createHeadBackend(kind: string, modelId: string, run: GroupRunner, onClose?: () => Promise<void> | void): SystemOneBackend {
  let closed = false;
  // one text-cue cache per backend, released with it
  const featurizer = createFeaturizer();
  const guard = (): void => {
    if (closed) throw new JevMemError('CLOSED', `System One backend ${kind} (${modelId}) was used after close()`);
  };
  return {
    kind,
    modelId,
    evict: (texts) => featurizer.evict?.(texts),
    async decide(request, options) {
      guard();
      const [res] = await decideBatch([request], run, modelId, options?.signal, featurizer);
      return res as SystemOneResponse;
    },
    async decideMany(requests, options) {
      guard();
      if (!Array.isArray(requests)) {
        throw new JevMemError('SYSTEM_ONE_INVALID_REQUEST', `requests: expected an array of requests, got ${typeof requests}`, { field: 'requests' });
      }
      return decideBatch(requests, run, modelId, options?.signal, featurizer);
    },
    async close() {
      if (closed) return;
      closed = true;
      await onClose?.();
    },
  };
}
