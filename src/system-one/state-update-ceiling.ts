/**
 * The ceiling of the logistic state-update head (issue 25): from the NEWER side of a pair alone,
 * the highest probability {@link trainedStateUpdate} can give it over every possible older side.
 * A write (and maintenance) asks the head about ≤ K_w (≤ 20) older memories of each new one; when
 * the ceiling is below the decision threshold no pair of the new memory can reach it, so the
 * older sides need not be read at all (reading a text is most of a decision's cost). The
 * decisions are the same: only pairs whose probability is below the threshold are skipped, and a
 * skipped pair decides nothing.
 *
 * How (the feature list of `STATE_UPDATE_FEATURES`, `state-update-types.ts`): a feature that
 * depends on the newer side only is taken as it is; every other one is bounded by the values it
 * can take given the newer side (a claim feature is 0 when the newer side states no usable claim,
 * an end feature 0 without an end word, the topic match at most the newer side's best topic
 * score, the substitution feature at most (A − 1) / (A + 1) for A frame words of the newer side);
 * the head is linear in its standardised features, so its score is at most the sum of each
 * feature's larger end, and the logistic is increasing.
 *
 * @module
 */
import { STATE_UPDATE_WEIGHTS } from './state-update-weights.js';
import { STATE_UPDATE_FEATURES, pairSubstitution, readStateSide } from './state-update.js';
import type { StateReadings, StateSide } from './state-update-types.js';

/** Per-feature range [lo, hi] of a pair's feature row given its newer side (see the module). */
function featureRanges(newer: StateSide, memo: StateReadings | undefined): Array<readonly [number, number]> {
  const n = readStateSide(newer, memo);
  const usable = n.claims.some((c) => !c.subject.startsWith('pronoun:'));
  const b01 = (x: boolean): readonly [number, number] => (x ? [1, 1] : [0, 0]);
  const any: readonly [number, number] = [0, 1];
  const onlyIf = (x: boolean): readonly [number, number] => (x ? any : [0, 0]);
  const topicNewer = Math.max(...n.topics);
  // substitution: a = the newer frame words less the speakers; a value needs 1 ≤ |a| − ∩ ≤ 3 and
  // ≥ 1 older-only word, so it is ∩ / (|a| + older-only) ≤ (|a| − 1) / (|a| + 1), largest when
  // only the newer speaker is left out.
  const speaker = (newer.speaker ?? '').toLowerCase();
  let a = 0;
  for (const w of n.frameWords) if (speaker === '' || w !== speaker) a++;
  const substitution = a <= 1 ? 0 : (a - 1) / (a + 1);
  const byName: Record<string, readonly [number, number]> = {
    claim_match: onlyIf(usable),
    value_differs: onlyIf(usable),
    kind_match: onlyIf(usable),
    newer_claims: b01(n.claims.length > 0),
    older_claims: any,
    change_marker: b01(n.change),
    addition_marker: b01(n.addition),
    repeat_marker: b01(n.repeat),
    cancel_plan: onlyIf(n.cancelWord),
    overlap: any,
    newer_later: any,
    topic_same: usable ? any : [0, Math.max(0, topicNewer)],
    topic_newer: [topicNewer, topicNewer],
    end_marker: b01(n.end),
    ends_state: onlyIf(n.end),
    old_value_in_newer: any,
    new_value: onlyIf(n.values.size > 0),
    same_subject: any,
    substitution: [0, substitution],
    history_marker: b01(n.history),
    ends_topic: onlyIf(n.end),
    ends_other: onlyIf(n.end && usable),
  };
  return STATE_UPDATE_FEATURES.map((f) => byName[f] ?? any);
}

/** What {@link stateUpdateCeiling} tells about the pairs of one newer side. */
export interface StateUpdateCeiling {
  /** The highest probability of any pair with this newer side (1 when not bounded). */
  readonly ceiling: number;
  /**
   * The highest probability of the pair with `older`: the ceiling with the substitution feature
   * bounded by its value for this pair (which reads only the older side's frame words, not its
   * whole reading). At least the pair's probability.
   */
  pair(older: StateSide): number;
}

/** The logistic of `z` as the head computes it, a hair above (rounding never makes it the lower). */
function logistic(z: number): number {
  const p = z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  return Math.min(1, p + 1e-9);
}

const UNBOUNDED: StateUpdateCeiling = { ceiling: 1, pair: () => 1 };

/**
 * The ceilings of the logistic state-update head ({@link trainedStateUpdate}, the default
 * `stateUpdateHead`) for pairs whose newer side is `newer`, whatever the older side (see the
 * module). Unbounded (1) when the head's weights do not fit the feature list (it then falls back
 * to the stand-in, which this does not bound). The caller compares with its threshold: a pair
 * whose ceiling is below it would be decided below it.
 * @param memo The side readings of the call (the newer side is read once and kept there).
 */
export function stateUpdateCeiling(newer: StateSide, memo?: StateReadings): StateUpdateCeiling {
  const w = STATE_UPDATE_WEIGHTS;
  if (w.features.length !== STATE_UPDATE_FEATURES.length || w.features.some((f, i) => f !== STATE_UPDATE_FEATURES[i])) return UNBOUNDED;
  const ranges = featureRanges(newer, memo);
  const term = (j: number, x: number): number => (w.weights[j] as number) * ((x - (w.mean[j] as number)) / (w.scale[j] as number));
  const sub = STATE_UPDATE_FEATURES.indexOf('substitution');
  // The sums below add the terms in the head's order (rounding is monotone in each term).
  const score = (subHi: number): number => {
    let z = w.bias;
    for (let j = 0; j < ranges.length; j++) {
      const [lo, hi] = ranges[j] as readonly [number, number];
      z += Math.max(term(j, lo), term(j, j === sub ? subHi : hi));
    }
    return z;
  };
  const subMax = (ranges[sub] as readonly [number, number] | undefined)?.[1] ?? 1;
  const ceiling = logistic(score(subMax));
  return {
    ceiling,
    pair(older: StateSide): number {
      if (sub < 0) return ceiling;
      return logistic(score(Math.min(subMax, pairSubstitution(newer, older, memo))));
    },
  };
}
