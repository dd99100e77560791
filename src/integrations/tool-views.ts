/**
 * What the memory tools (tools.ts) give back to a model: a recalled memory with only the fields a
 * model needs ({@link memoryView}) and the trace of a recall in a few fields ({@link traceSummary}).
 *
 * @module
 */
import type { RecallResult } from '../memory.js';
import type { RecalledMemory } from '../types.js';
import { bestPassage } from './memory-prompt.js';

/**
 * The most UTF-16 code units of one memory's `text` a recall or answer tool gives back (2,000,
 * about 500 tokens): a longer memory (up to 100,000 chars, a long pasted answer) comes back as its
 * passage that best matches the query, with `…` where text was left out, `truncated: true` and
 * `textChars` (its whole length); the `history` tool gives the whole text. Without it, k = 50
 * long memories could put ~5 million chars into one tool result (h-break15, left by h-fixt).
 */
export const TOOL_TEXT_CHARS = 2000;

/**
 * The fields of a memory a model needs: no embedding, no types, no scores beyond 4 digits;
 * `observedAt` / `supersededAt` in UTC ISO-8601 (as `listedView` gives them), and
 * `observedAtLocal` (the writer's local time, with its offset) when the memory was observed at a
 * non-zero UTC offset;
 * `relevance` is System One's calibrated estimate in [0,1] that the memory is evidence for the
 * query, which may disagree with the order (`score`; see `RecalledMemory.relevance`) (absent when the recall had no System-One assessment of it), `metadata` the caller's metadata
 * with the scope fields and `expiresAt`. A text over {@link TOOL_TEXT_CHARS} is cut to its passage
 * that best matches `query` (`truncated: true`, `textChars` its whole length in UTF-16 code units).
 */
export function memoryView(m: RecalledMemory, query = ''): Record<string, unknown> {
  const cut = m.text.length > TOOL_TEXT_CHARS;
  const out: Record<string, unknown> = { id: m.id, text: cut ? bestPassage(m.text, query, TOOL_TEXT_CHARS) : m.text, score: Math.round(m.score * 1e4) / 1e4, status: m.status };
  if (cut) {
    out.truncated = true;
    out.textChars = m.text.length;
  }
  if (m.relevance !== undefined) out.relevance = Math.round(m.relevance * 1e4) / 1e4;
  // UTC ISO, as the list and history tools give it (one format per field across the tools); the
  // writer's local time only beside it, when it was written at another offset.
  if (m.observedAt !== undefined) out.observedAt = m.observedAt;
  if (m.observedAtLocal !== undefined && !/(?:Z|[+-]00:?00)$/.test(m.observedAtLocal)) out.observedAtLocal = m.observedAtLocal;
  if (m.provenance.speaker !== undefined) out.speaker = m.provenance.speaker;
  if (m.provenance.sessionId !== undefined) out.sessionId = m.provenance.sessionId;
  if (m.timeRefs.length > 0) out.timeRefs = m.timeRefs.map((t) => ({ text: t.text, when: t.when }));
  if (m.supersededAt !== undefined) out.supersededAt = m.supersededAt;
  if (m.provenance.metadata !== undefined && Object.keys(m.provenance.metadata).length > 0) out.metadata = m.provenance.metadata;
  return out;
}

/** The trace of a recall in one line's worth of fields: why these memories (SPEC 6). */
export function traceSummary(r: RecallResult): Record<string, unknown> {
  const t = r.trace;
  return {
    views: t.routing.active,
    depth: `${t.depth.reached}/${t.depth.max}`,
    stopReason: t.stopReason,
    visited: t.limits.visited,
    systemOneCalls: t.limits.controllerCalls,
    fallbacks: t.fallbacks,
    ms: Math.round(t.timings.totalMs * 10) / 10,
  };
}
