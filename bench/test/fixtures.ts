import type { Encoder } from '../../src/encoder/encoder.js';
import type { LocomoConversation, LocomoQuestion } from '../../src/formats/locomo.js';

/**
 * A deterministic 3-d "encoder" for tests: counts of the letters a, e and o, L2-normalised
 * (a text without them gets the zero vector).
 */
export function letterEncoder(): Encoder {
  return {
    fingerprint: 'test-letters@1',
    dimension: 3,
    async embed(texts: string[]) {
      return texts.map((t) => {
        const v = new Float32Array([...'aeo'].map((c) => t.toLowerCase().split(c).length - 1));
        const n = Math.hypot(...v);
        return n > 0 ? v.map((x) => x / n) : v;
      });
    },
  };
}

/** A four-turn, two-session conversation between Alice and Bob. */
export function tinyConversation(sampleId = 'conv-x', questions: LocomoQuestion[] = []): LocomoConversation {
  const may = '2023-05-08T13:56:00.000Z';
  const july = '2023-07-15T10:00:00.000Z';
  return {
    sampleId,
    speakers: ['Alice', 'Bob'],
    observations: [
      { text: 'Alice: I adopted a puppy named Rex', speaker: 'Alice', sessionId: 'session_1', turnId: 'D1:1', observedAt: may, source: `locomo:${sampleId}` },
      { text: 'Bob: That is wonderful news about Alice', speaker: 'Bob', sessionId: 'session_1', turnId: 'D1:2', observedAt: may, source: `locomo:${sampleId}` },
      { text: 'Alice: We went hiking last weekend', speaker: 'Alice', sessionId: 'session_2', turnId: 'D2:1', observedAt: july, source: `locomo:${sampleId}` },
      { text: 'Bob: My guitar lessons start soon?', speaker: 'Bob', sessionId: 'session_2', turnId: 'D2:2', observedAt: july, source: `locomo:${sampleId}` },
    ],
    questions,
  };
}

/** A question with evidence. */
export function question(id: string, text: string, category: number, evidence: string[]): LocomoQuestion {
  return { id, question: text, answer: '', category, evidence, brokenEvidence: false };
}
