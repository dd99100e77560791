import { describe, expect, it } from 'vitest';
import { explainMemory, partsLine, snippet, summarizeTrace } from '../../demo/extension/src/trace-explain.js';
import type { RecallTrace } from '../../src/read/trace.js';

const parts = { z: 0.72, a: 0.3, pg: 1, l: 1, n: 0.3, pi: 1, c: 0.3 };

/** A hand-made trace: one anchor (a), two expansions to b (the better from a), none to c. */
function trace(): RecallTrace {
  return {
    query: 'where did I park?',
    namespace: 'default',
    routing: { p: { semantic: 0.87, entity: 0.27, causal: 0.08, temporal: 0.04 }, h: 0.1, r: 0.2, active: ['entity', 'semantic'] },
    budgets: { total: 10, given: { semantic: 6, entity: 4, causal: 0, temporal: 0 }, used: { semantic: 2, entity: 0, causal: 0, temporal: 0 } },
    depth: { max: 2, reached: 1 },
    k: 5,
    anchors: [{ id: 'a', rrf: 0.0328, vectorRank: 1, lexicalRank: 2, score: 0.344, parts }],
    expansions: [
      { round: 1, from: 'x', to: 'b', edge: { id: 'e0', view: 'temporal', subtype: 'close_in_time', weight: 0.2, direction: 'out' }, parts, score: 0.1 },
      { round: 1, from: 'a', to: 'b', edge: { id: 'e1', view: 'entity', subtype: 'same_entity', weight: 1, direction: 'out' }, parts, score: 0.25 },
    ],
    rounds: [{ round: 1, proposed: 2, beam: 2 }],
    stopReason: 'frontier-empty',
    limits: { visited: 3, maxVisited: 100, edgesInspected: 2, maxEdgesInspected: 100, controllerCalls: 3, maxControllerCalls: 20 },
    decisions: [
      { purpose: 'routing', backend: 'local', model: 'jev-mem/system-one@1.0.0', questions: 1, latencyMs: 1, fallback: false, answers: {} },
      { purpose: 'candidates', backend: 'heuristic', model: 'heuristic', questions: 2, latencyMs: 1, fallback: true, answers: {} },
    ],
    fallbacks: 1,
    timings: { embedMs: 0.12, routeMs: 1, anchorsMs: 2.94, loopMs: 1.6, totalMs: 6.81 },
  } as RecallTrace;
}

describe('extension trace lines', () => {
  it('explains an anchor by its ranks in the two searches', () => {
    const e = explainMemory(trace(), 'a');
    expect(e.how).toBe('anchor');
    expect(e.text).toBe('Found by search (meaning #1, keywords #2; score 0.34).');
    expect(e.parts).toEqual(parts);
  });

  it('explains an expansion by its best-scoring edge and the memory it came from', () => {
    const e = explainMemory(trace(), 'b', (id) => (id === 'a' ? 'I parked the car on level 3, spot B12 at the airport, next to the lifts.' : undefined));
    expect(e.how).toBe('expansion');
    expect(e.text).toBe('Reached from “I parked the car on level 3, spot B12 at the ai…” along an entity edge (same entity, weight 1.00) in round 1; score 0.25.');
  });

  it('names a source memory it has no text for by the start of its id', () => {
    const t = trace();
    t.expansions = [{ ...t.expansions[0]!, from: '0123456789abcdef' }];
    expect(explainMemory(t, 'b').text).toContain('from memory 01234567 along a temporal edge (close in time, weight 0.20)');
  });

  it('says when a memory is not in the trace', () => {
    expect(explainMemory(trace(), 'c').how).toBe('unknown');
  });

  it('summarises routing, loop, System One and time', () => {
    expect(summarizeTrace(trace())).toEqual([
      'Routing: semantic 0.87, entity 0.27, causal 0.08, temporal 0.04; followed: entity, semantic.',
      '1 anchors, 2 expansions over 1 of 2 rounds; stopped because there was nothing left to expand.',
      'System One: 2 calls (1 answered by the fallback), model jev-mem/system-one@1.0.0.',
      'Time: 6.8 ms (embed 0.1, anchors 2.9, loop 1.6).',
    ]);
  });

  it('labels the score parts of eq. (23)', () => {
    expect(partsLine(parts)).toBe('similarity 0.72 · relevance 0.30 · view 1.00 × relation 1.00 · new 0.30 · edge 1.00 · support 0.30');
  });

  it('cuts long texts to one line', () => {
    expect(snippet('a\n b   c', 10)).toBe('a b c');
    expect(snippet('abcdefghij', 5)).toBe('abcd…');
  });
});
