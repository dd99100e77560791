/**
 * Plain-language lines from a recall trace (SPEC 6 step 6): how each recalled memory was reached
 * and what the read loop did. Pure functions over the JSON trace; the popup renders the lines.
 *
 * @module
 */
import type { RecallTrace } from '../../../src/read/trace.js';
import type { ScoreParts } from '../../../src/read/score.js';
import { VIEWS } from '../../../src/types.js';

/** How one memory entered the result. */
export interface MemoryExplanation {
  /** `anchor`: found by the vector / keyword search; `expansion`: reached along an edge. */
  how: 'anchor' | 'expansion' | 'unknown';
  /** One sentence for the user. */
  text: string;
  /** The score parts of eq. (23) for that step, when the trace has them. */
  parts?: ScoreParts;
}

const rank = (label: string, r: number): string | undefined => (r > 0 ? `${label} #${r}` : undefined);

/** Fixed-point with `digits` decimals (the trace's probabilities are in [0,1]). */
export function fixed(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

/** The first `max` characters of a text, on one line, with `…` when cut. */
export function snippet(text: string, max = 48): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * How memory `id` was reached: as an anchor (its ranks in the vector and keyword searches) or
 * by an expansion (the edge and the memory it came from; `textOf` names that memory when it is
 * known, else its id is shortened). When both, the anchor is what put it in the beam.
 */
export function explainMemory(trace: RecallTrace, id: string, textOf: (id: string) => string | undefined = () => undefined): MemoryExplanation {
  const anchor = trace.anchors.find((a) => a.id === id);
  if (anchor !== undefined) {
    const ranks = [rank('meaning', anchor.vectorRank), rank('keywords', anchor.lexicalRank)].filter((x): x is string => x !== undefined);
    return { how: 'anchor', text: `Found by search (${ranks.join(', ') || 'fused rank'}; score ${fixed(anchor.score)}).`, parts: anchor.parts };
  }
  // The best-scoring expansion that proposed it.
  const steps = trace.expansions.filter((x) => x.to === id).sort((a, b) => b.score - a.score);
  const step = steps[0];
  if (step !== undefined) {
    const from = textOf(step.from);
    const source = from !== undefined ? `“${snippet(from)}”` : `memory ${step.from.slice(0, 8)}`;
    return {
      how: 'expansion',
      text: `Reached from ${source} along ${/^[aeiou]/.test(step.edge.view) ? 'an' : 'a'} ${step.edge.view} edge (${step.edge.subtype.replace(/_/g, ' ')}, weight ${fixed(step.edge.weight)}) in round ${step.round}; score ${fixed(step.score)}.`,
      parts: step.parts,
    };
  }
  return { how: 'unknown', text: 'Not in the trace (added after the read loop).' };
}

/** The score parts of eq. (23) as short labelled values. */
export function partsLine(p: ScoreParts): string {
  return `similarity ${fixed(p.z)} · relevance ${fixed(p.a)} · view ${fixed(p.pg)} × relation ${fixed(p.l)} · new ${fixed(p.n)} · edge ${fixed(p.pi)} · support ${fixed(p.c)}`;
}

const STOP_REASONS: Record<string, string> = {
  sufficient: 'System One judged the evidence sufficient',
  'not-worth-continuing': 'another round was not worth its cost',
  depth: 'the depth limit was reached',
  budget: 'the expansion budget was spent',
  'frontier-empty': 'there was nothing left to expand',
};

/** A few lines that summarise the whole recall. */
export function summarizeTrace(trace: RecallTrace): string[] {
  const views = [...VIEWS].sort((a, b) => trace.routing.p[b] - trace.routing.p[a]);
  const routing = views.map((v) => `${v} ${fixed(trace.routing.p[v])}`).join(', ');
  const active = trace.routing.active.length > 0 ? trace.routing.active.join(', ') : 'none';
  const calls = trace.decisions.length;
  return [
    `Routing: ${routing}; followed: ${active}.`,
    `${trace.anchors.length} anchors, ${trace.expansions.length} expansions over ${trace.depth.reached} of ${trace.depth.max} rounds; stopped because ${STOP_REASONS[trace.stopReason] ?? trace.stopReason}.`,
    `System One: ${calls} call${calls === 1 ? '' : 's'}${trace.fallbacks > 0 ? ` (${trace.fallbacks} answered by the fallback)` : ''}${trace.decisions[0] !== undefined ? `, model ${trace.decisions[0].model}` : ''}.`,
    `Time: ${fixed(trace.timings.totalMs, 1)} ms (embed ${fixed(trace.timings.embedMs, 1)}, anchors ${fixed(trace.timings.anchorsMs, 1)}, loop ${fixed(trace.timings.loopMs, 1)}).`,
  ];
}
