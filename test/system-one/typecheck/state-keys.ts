/**
 * Compile-time checks of the typed System-One states, type-checked by
 * test/system-one/state-types.test.ts (with the project's compiler options). Each
 * `@ts-expect-error` line must be an error: TypeScript reports an unused one (TS2578), which fails
 * the test, so a state that stops being typed (a signal read by a misspelt or renamed key that
 * still compiles) is caught. Not run; never imported by the library.
 */
import type { CandidateState, PairSignals, StopState } from '../../../src/system-one/catalogue.js';
import { featuresFor, type GroupStates } from '../../../src/system-one/features.js';
import { readGroupState } from '../../../src/system-one/validate.js';

declare const cands: CandidateState;
declare const stop: StopState;

export const rank: number = cands.candidates[0]!.signals.vectorRank;
// @ts-expect-error a misspelt candidate signal does not exist
export const misspelt: number = cands.candidates[0]!.signals.vectorRnak;
// @ts-expect-error a misspelt stop signal does not exist
export const depth: number = stop.signals.maxDepht;

export const pair: PairSignals = {
  cosine: 1, lexical: 1, sharedEntities: 0, sharedKeywords: 0, gapDays: -1, sameSession: 0, sameSpeaker: 0,
  // @ts-expect-error a state built with a misspelt signal key does not compile
  seqGapp: 1,
};

// featurizers take their group's typed state, not any object
// @ts-expect-error a routing state is not a candidates state
featuresFor('candidates', { kind: 'routing', query: 'q', mentions: [] }, 'c1');
export const typed: GroupStates['stop'] = readGroupState('stop', JSON.parse('{}'));
// @ts-expect-error an untyped value must be read with readGroupState first
featuresFor('stop', JSON.parse('{}') as unknown, undefined);
