/**
 * Write path stage 2: typing (SPEC 4 step 2, eq. (7)). One System-One request per observation
 * with four independent noul questions; the answers are t(v), four probabilities that need not
 * sum to 1. Typing never decides whether to store.
 *
 * @module
 */
import { CATALOGUE, type TypingState } from '../system-one/catalogue.js';
import { probability } from '../system-one/controller.js';
import type { SystemOneRequest, SystemOneResponse } from '../system-one/wire.js';
import type { MemoryTypes } from '../types.js';

const IDS = ['type.episodic', 'type.semantic', 'type.procedural', 'type.preference'] as const;

/** Builds the typing request of one observation. */
export function typingRequest(text: string, speaker?: string, observedAt?: string): SystemOneRequest {
  const observation: TypingState['observation'] = { text };
  if (speaker !== undefined) observation.speaker = speaker;
  if (observedAt !== undefined) observation.observedAt = observedAt;
  const state: TypingState = { kind: 'typing', observation };
  return { state: state, questions: Object.fromEntries(IDS.map((id) => [id, CATALOGUE[id]])) };
}

/** Reads t(v) from the typing answers. */
export function typesFrom(response: SystemOneResponse): MemoryTypes {
  return {
    episodic: probability(response, 'type.episodic', 0.5),
    semantic: probability(response, 'type.semantic', 0.5),
    procedural: probability(response, 'type.procedural', 0.5),
    preference: probability(response, 'type.preference', 0.5),
  };
}
