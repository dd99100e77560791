/**
 * What `recall` and `answer` print: the JSON of a recall (scores and relevance rounded to four
 * decimals, the trace as it is) and the text listing (one line per memory, then the trace's
 * summary line).
 *
 * @module
 */
import type { RecallResult } from '../memory.js';

/** The JSON of a recall, as `recall --json`, `recall --questions` and `answer --json` print it. */
export function recallJson(r: RecallResult): unknown {
  return {
    memories: r.memories.map((m) => ({
      id: m.id,
      text: m.text,
      observedAt: m.observedAt,
      observedAtLocal: m.observedAtLocal,
      timeZone: m.timeZone,
      timeRefs: m.timeRefs,
      score: Math.round(m.score * 1e4) / 1e4,
      // Calibrated probability in [0,1] that the memory is evidence for the question (memory/relevance.ts).
      relevance: m.relevance === undefined ? undefined : Math.round(m.relevance * 1e4) / 1e4,
      status: m.status,
      supersededAt: m.supersededAt,
      supersededAtLocal: m.supersededAtLocal,
      provenance: m.provenance,
      // The provenance of the repeats merged into the memory (their turn ids), when it has any.
      duplicates: m.duplicates,
    })),
    trace: r.trace,
  };
}

/** Prints a recall as text: `NN. [score] local-date (turn) (superseded …) text  [time refs]`, then the trace line. */
export function printRecallText(r: RecallResult, out: (s: string) => void): void {
  r.memories.forEach((m, i) => {
    // The local date of the speaker (the observation's offset; UTC when none was given).
    const when = m.observedAtLocal ? m.observedAtLocal.slice(0, 10) : '----------';
    const turn = m.provenance.turnId ? ` (${m.provenance.turnId})` : '';
    const events = m.timeRefs.length > 0 ? `  [${m.timeRefs.map((t) => `"${t.text}" = ${t.when}${t.certainty < 1 ? ` (${t.certainty})` : ''}`).join('; ')}]` : '';
    const replacedAt = m.supersededAtLocal ?? m.supersededAt; // a local date, like `when`
    const replaced = m.status === 'superseded' ? ` (superseded${replacedAt ? ` ${replacedAt.slice(0, 10)}` : ''})` : '';
    out(`${String(i + 1).padStart(2)}. [${m.score.toFixed(3)}] ${when}${turn}${replaced} ${m.text}${events}`);
  });
  const t = r.trace;
  out(
    `\nviews ${t.routing.active.join(',')} · depth ${t.depth.reached}/${t.depth.max} · stop: ${t.stopReason} · visited ${t.limits.visited} · System-One calls ${t.limits.controllerCalls} (fallbacks ${t.fallbacks}) · ${t.timings.totalMs.toFixed(1)} ms`,
  );
}
