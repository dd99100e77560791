/**
 * The heuristic System-One stand-in (SPEC 5): hand-set logistic weights over the same feature
 * rows as the shipped model (features.ts), evaluated in plain TypeScript with no I/O and no
 * model file. It answers every catalogue id, is the deterministic fallback of the controller, and
 * its tables are what `scripts/build-system-one.ts --init-from-heuristic` writes into
 * `models/system-one/weights.json` until trained weights exist (so the untrained shipped model
 * ≈ this stand-in, up to int8 quantization).
 *
 * Each head is σ(b + Σ_i w_i x_i) (noul) or softmax over labels of (b_l + Σ_i w_{l,i} x_i)
 * (choice), with the x_i of features.ts unstandardised (mean 0, std 1). The weights were set by
 * hand from the meaning of each question and the feature scales (most features lie in [0,1]);
 * they are NOT trained and NOT calibrated.
 *
 * Questions no head answers (ids outside the catalogue, or a catalogue id asked with another
 * type or other labels) get the neutral answer of heads.ts: noul 0.5, choice uniform, score
 * uniform.
 *
 * @module
 */
import type { FeatureName, HeadGroup } from './features.js';
import { FEATURE_NAMES } from './features.js';
import { GROUP_OUTPUTS, createHeadBackend, type GroupOutputs } from './heads.js';
import type { GroupWeights } from './onnx-model.js';
import type { SystemOneBackend } from './wire.js';

/** Model id of the stand-in's answers. */
export const HEURISTIC_MODEL_ID = 'jev-mem/heuristic-standin@0.1.0';

/** One hand-set logit: bias plus weights by feature name (absent features weigh 0). */
export interface HandSetLogit<G extends HeadGroup> {
  bias: number;
  w: Partial<Record<FeatureName<G>, number>>;
}

/** Hand-set logits of a group: output name → column label → logit. */
export type HandSetGroup<G extends HeadGroup> = Record<string, Record<string, HandSetLogit<G>>>;

/** The hand-set tables of every group (see the module notes). */
export interface HandSetTables {
  typing: HandSetGroup<'typing'>;
  relation: HandSetGroup<'relation'>;
  routing: HandSetGroup<'routing'>;
  candidates: HandSetGroup<'candidates'>;
  stop: HandSetGroup<'stop'>;
  maintenance: HandSetGroup<'maintenance'>;
}

/**
 * The stand-in's hand-set weights. Reading guide: a weight of +2 on a [0,1] feature moves P from
 * 0.5 to 0.88; biases set the answer when no cue fires.
 */
export const HEURISTIC_TABLES: Readonly<HandSetTables> = Object.freeze({
  // eq. (7): four independent type scores
  typing: {
    noul: {
      'type.episodic': {
        bias: -0.8,
        w: { past_tense: 2.0, temporal_words: 1.2, has_month: 0.6, has_year: 0.4, has_weekday: 0.8, first_person: 1.0, future: 0.5,
          visual: 0.8, has_number: 0.2, capitalised: 0.3, log_words: 0.1, procedural: -0.8, semantic: -0.6, question_mark: -0.5 },
      },
      'type.semantic': {
        bias: -1.2,
        w: { semantic: 2.0, has_number: 0.3, log_words: 0.15, capitalised: 0.3, past_tense: -1.0, first_person: -0.5, question_mark: -0.8,
          preference: -0.3, exclamation: -0.3 },
      },
      'type.procedural': { bias: -2.5, w: { procedural: 6.0, second_person: 0.5, future: 0.3, past_tense: -0.5 } },
      'type.preference': { bias: -2.5, w: { preference: 7.0, first_person: 0.6, exclamation: 0.4, negation: 0.2 } },
    },
  },
  // eq. (9): per-pair relation probabilities, edge when P ≥ θ_rel
  relation: {
    noul: {
      'rel.semantic': {
        bias: -4.0,
        w: { has_candidate: 0.5, cosine: 3.0, lexical: 2.5, shared_keywords: 1.2, shared_entities: 0.8, term_jaccard: 3.0, shared_names: 0.5, same_session: 0.3 },
      },
      'rel.causes': {
        bias: -4.5,
        w: { obs_causal: 1.0, cand_causal: 1.2, new_earlier: 1.5, new_later: -0.5, same_session: 0.5, adjacent: 0.6, cosine: 1.0, lexical: 1.0, term_jaccard: 1.0 },
      },
      'rel.caused_by': {
        bias: -4.0,
        w: { obs_causal: 1.8, cand_causal: 0.6, new_later: 0.6, same_session: 0.5, adjacent: 0.8, cosine: 1.0, lexical: 1.0, term_jaccard: 1.0, shared_keywords: 0.4 },
      },
      'rel.same_episode': {
        bias: -3.0,
        w: { same_session: 1.8, same_day: 1.0, adjacent: 1.2, log_seq_gap: -0.3, log_gap_days: -0.5, cosine: 1.0, lexical: 0.6, obs_question: 0.3, cand_question: 0.3 },
      },
      'rel.entity': { bias: -3.5, w: { shared_entities: 2.0, shared_names: 2.0, same_speaker: 0.3, cosine: 0.5, lexical: 0.5 } },
    },
    temporal: {
      before: { bias: -1.0, w: { new_earlier: 3.0, obs_temporal: 0.3 } },
      after: { bias: -1.0, w: { new_later: 3.0, adjacent: 0.3 } },
      during: { bias: -3.0, w: { same_day: 0.5 } },
      contains: { bias: -3.5, w: {} },
      overlaps: { bias: -3.0, w: { same_day: 0.5 } },
      same_time: { bias: -2.5, w: { same_day: 1.5, same_session: 0.5 } },
      unknown: { bias: 0.5, w: { gap_known: -0.5 } },
    },
  },
  // eq. (11), (15): view probabilities p_g, multi-hop h, recency r
  routing: {
    noul: {
      'route.semantic': { bias: 1.5, w: { log_words: 0.2, q_why: 0.2, q_what: 0.3, hypothetical: 0.3 } },
      'route.temporal': {
        bias: -2.5,
        w: { q_when: 4.0, how_long: 4.0, date_words: 2.0, has_month: 2.5, has_year: 2.5, ago_last: 2.0, order_words: 1.5, recency: 0.5 },
      },
      'route.causal': { bias: -2.5, w: { q_why: 4.0, causal: 3.0, q_how: 0.5, hypothetical: 0.3 } },
      'route.entity': { bias: -1.5, w: { mentions: 2.0, capitalised: 1.0, q_who: 2.0, q_where: 0.5, q_what: 0.3 } },
      'route.multi_hop': {
        bias: -2.5,
        w: { multi_set: 2.5, multi_and: 1.5, what_plural: 2.0, q_would: 0.5, hypothetical: 0.5, how_long: 0.3, log_words: 0.15, mentions: 0.5 },
      },
      'route.recency': { bias: -2.5, w: { recency: 3.0, q_is: 0.3, ago_last: 0.5, order_words: -0.3 } },
    },
  },
  // eq. (23): relevance a, relation usefulness ℓ, new information n, support c_v
  candidates: {
    noul: {
      'cand.relevance': {
        bias: -3.0,
        w: { lexical: 1.5, inv_lexical_rank: 1.0, overlap: 2.5, cosine: 1.5, inv_vector_rank: 0.5, rrf: 1.0, speaker_named: 1.0,
          other_speaker_named: -1.0, neighbour_lexical: 0.8, is_anchor: 0.3, hops: -0.5, session_distance: -0.3, temporal_x_date: 0.6,
          edge_weight: 0.3, cand_question: -0.3 },
      },
      'cand.relation_usefulness': {
        bias: -1.5,
        w: { edge_weight: 2.0, neighbour_lexical: 1.0, overlap: 1.5, hops: -0.3, temporal_x_date: 0.3, is_anchor: 0.5 },
      },
      'cand.new_information': { bias: 2.0, w: { evidence_cosine: -4.0, overlap: 0.3 } },
      'cand.supports_evidence': { bias: -2.0, w: { evidence_cosine: 3.0, edge_weight: 0.5, neighbour_lexical: 0.5, overlap: 0.8 } },
    },
  },
  // eq. (17)-(20): sufficiency s, continue u, missing m, contradiction c
  stop: {
    noul: {
      'stop.sufficient': {
        bias: -4.5,
        w: { best_relevance: 4.0, beam_top: 1.5, evidence_count: 0.5, round_frac: 0.5, multi_hop: -2.0, query_multi_hop: -0.5, contradictions: -1.5 },
      },
      'stop.continue_useful': {
        bias: 0.0,
        w: { last_round_gain: 2.5, last_round_new: 0.5, frontier: 0.5, frontier_empty: -4.0, multi_hop: 1.0, rounds_left_frac: 1.0,
          round_frac: -1.0, best_relevance: -0.5 },
      },
      'stop.missing': { bias: 2.0, w: { best_relevance: -3.5, beam_top: -1.0, multi_hop: 1.0, evidence_count: -0.3 } },
      'stop.contradiction': { bias: -4.0, w: { contradictions: 5.0 } },
    },
  },
  // SPEC 4 step 7: redundancy, contradiction, obsolescence, extra links, representation
  maintenance: {
    noul: {
      'maint.redundant': {
        bias: -7.0,
        w: { text_equal: 4.5, term_jaccard: 4.0, cosine: 2.5, lexical: 0.5, same_speaker: 0.5, number_mismatch: -1.5, negation_mismatch: -1.5 },
      },
      'maint.contradiction': {
        bias: -5.5,
        w: { negation_mismatch: 2.0, number_mismatch: 1.5, cosine: 1.5, term_jaccard: 2.0, same_speaker: 0.5, text_equal: -3.0, both_preference: 0.3 },
      },
      'maint.obsolete': {
        bias: -5.5,
        w: { node_newer: 1.0, node_change_cue: 2.0, term_jaccard: 2.0, cosine: 1.0, same_speaker: 0.8, number_mismatch: 0.8, text_equal: -2.0 },
      },
      'maint.link': {
        bias: -3.0,
        w: { has_candidate: 0.3, cosine: 2.0, lexical: 1.5, shared_entities: 1.0, shared_keywords: 0.8, term_jaccard: 1.5, text_equal: -2.0 },
      },
    },
    representation: {
      keep: { bias: 2.0, w: {} },
      merge: { bias: -1.0, w: { near_duplicates: 3.0, max_cosine: 1.0 } },
      promote: { bias: -2.0, w: { node_semantic: 1.5, near_duplicates: 1.0, neighbours: 0.3 } },
    },
  },
});

/**
 * The hand-set tables of `group` in the weights-file layout (onnx-model.ts `GroupWeights`):
 * mean 0, std 1, no hidden layer, one `[features][labels]` matrix per output.
 */
export function heuristicGroupWeights(group: HeadGroup): GroupWeights {
  const features = [...FEATURE_NAMES[group]];
  const table = HEURISTIC_TABLES[group] as HandSetGroup<HeadGroup>;
  const outputs: GroupWeights['outputs'] = {};
  for (const spec of GROUP_OUTPUTS[group]) {
    const logits = table[spec.name] ?? {};
    const weights = features.map((f) => spec.labels.map((label) => (logits[label]?.w as Record<string, number> | undefined)?.[f] ?? 0));
    const bias = spec.labels.map((label) => logits[label]?.bias ?? 0);
    outputs[spec.name] = { activation: spec.activation, labels: [...spec.labels], weights, bias };
  }
  return { features, mean: features.map(() => 0), std: features.map(() => 1), hidden: [], outputs };
}

interface DenseFloat {
  /** Row-major [features][cols]. */
  w: Float64Array;
  b: Float64Array;
  cols: number;
  activation: 'sigmoid' | 'softmax';
}

function compileGroup(group: HeadGroup): Map<string, DenseFloat> {
  const gw = heuristicGroupWeights(group);
  const out = new Map<string, DenseFloat>();
  for (const [name, layer] of Object.entries(gw.outputs)) {
    const cols = layer.bias.length;
    out.set(name, { w: Float64Array.from(layer.weights.flat()), b: Float64Array.from(layer.bias), cols, activation: layer.activation });
  }
  return out;
}

const COMPILED = new Map<HeadGroup, Map<string, DenseFloat>>();

/**
 * Runs the stand-in's heads on feature rows (same contract as heads.ts `GroupRunner`):
 * `input` is rows × features of `group`; returns every output of the group as probabilities.
 */
export function runHeuristicGroup(group: HeadGroup, input: Float32Array, rows: number): GroupOutputs {
  let layers = COMPILED.get(group);
  if (layers === undefined) {
    layers = compileGroup(group);
    COMPILED.set(group, layers);
  }
  const width = FEATURE_NAMES[group].length;
  const result: Record<string, Float32Array> = {};
  for (const [name, l] of layers) {
    const out = new Float32Array(rows * l.cols);
    const z = new Float64Array(l.cols);
    for (let r = 0; r < rows; r++) {
      z.set(l.b);
      for (let i = 0; i < width; i++) {
        const x = input[r * width + i] as number;
        if (x === 0) continue;
        for (let j = 0; j < l.cols; j++) z[j] = (z[j] as number) + x * (l.w[i * l.cols + j] as number);
      }
      if (l.activation === 'sigmoid') {
        for (let j = 0; j < l.cols; j++) out[r * l.cols + j] = 1 / (1 + Math.exp(-(z[j] as number))); // σ(b + w·x)
      } else {
        const max = Math.max(...z);
        let sum = 0;
        for (let j = 0; j < l.cols; j++) sum += Math.exp((z[j] as number) - max);
        for (let j = 0; j < l.cols; j++) out[r * l.cols + j] = Math.exp((z[j] as number) - max) / sum; // softmax over labels
      }
    }
    result[name] = out;
  }
  return result;
}

/**
 * Creates the heuristic stand-in backend: kind `'heuristic'`, model id
 * {@link HEURISTIC_MODEL_ID}. Synchronous math behind the async interface; batches like the
 * local model (one pass per head group per call). Answers are 2-decimal (answers.ts).
 *
 * @returns a backend whose calls throw JevMemError `SYSTEM_ONE_INVALID_REQUEST` for a malformed
 *   request, `ABORTED` when the signal has fired, `CLOSED` after `close()`.
 */
export function createHeuristicSystemOne(): SystemOneBackend {
  return createHeadBackend('heuristic', HEURISTIC_MODEL_ID, runHeuristicGroup);
}
