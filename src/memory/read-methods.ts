/**
 * The read methods of a memory (SPEC 5): `recall` (read path, then expiry, calibrated relevance
 * and `minScore`), `answer` / `answerStream` (recall, then System Two), and the direct reads
 * `list`, `history`, `get` and `edges`. Each checks its options, opens the namespace (with its
 * expiry pass) and reads under `caches.reading`; none writes.
 *
 * @module
 */
import { resolveParameters } from '../config.js';
import { JevMemError, describeValue, invalidInput, throwIfAborted } from '../errors.js';
import { runRecall } from '../read/recall.js';
import { strictIsoMs } from '../util/date-input.js';
import type { EvidenceItem, SystemTwo } from '../system-two/types.js';
import type { AnswerOptions, Memory } from './api.js';
import { openAnswerStream } from './answer-stream.js';
import type { MemoryContext } from './context.js';
import { scopedEdgesOf } from './edges.js';
import { checkLimit, decodeCursor, historyOf, isExpired, listPage, selection } from './list.js';
import { ANSWER_EXTRA_OPTION_KEYS, CALL_OPTION_KEYS, LIST_OPTION_KEYS, SCOPED_ID_OPTION_KEYS, checkIdArgument, checkOptionKeys, scopePredicate } from './options.js';
import { answerEvidence, calibratedRelevance } from './relevance.js';
import { RECALL_OPTION_KEYS, checkAnswerNow, checkRecall } from './validate.js';

export { DEFAULT_ANSWER_KEEP_TOP, DEFAULT_ANSWER_MIN_SCORE } from './relevance.js';

/** The read methods of {@link Memory}, over one memory's shared state. */
export type ReadMethods = Pick<Memory, 'recall' | 'answer' | 'answerStream' | 'list' | 'history' | 'get' | 'edges'>;

/** The read methods of the memory `ctx` belongs to (see the {@link Memory} TSDoc for each). */
export function readMethods(ctx: MemoryContext): ReadMethods {
  const { encoder, controller, params, calibration, now, systemTwo, caches, expiry, ensureOpen, nsOf, openScoped, notFound, self, internal, logger } = ctx;
  // One lookup for the memory's life: a node's word vectors are kept with its text facts per
  // lookup (read/node-text.ts `wordVectors`), so every recall must hand the same function.
  const termVectors = encoder.termVectors ? (words: string[]) => encoder.termVectors!(words) : undefined;
  return {
    async recall(query, o) {
      ensureOpen();
      const window = checkRecall(query, o);
      throwIfAborted(o?.signal);
      const ns = nsOf(o);
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      const callParams = o?.parameters === undefined ? params : resolveParameters({ ...params, ...o.parameters }, 'options.parameters');
      await expiry.open(ns);
      return caches.reading(ns, async (state) => {
        throwIfAborted(o?.signal);
        const t = performance.now();
        const [qv] = await encoder.embed([query], o?.signal);
        const embedMs = performance.now() - t;
        const input: Parameters<typeof runRecall>[3] = {
          query,
          queryVector: qv as Float32Array,
          embedMs,
          deadline: Date.now() + (o?.deadlineMs ?? o?.parameters?.readDeadlineMs ?? params.readDeadlineMs),
        };
        if (o?.k !== undefined) input.k = o.k;
        input.nowMs = window.nowMs ?? now().getTime(); // the question's clock: options.now, else the memory's
        if (window.nowMs !== undefined) input.asOfMs = window.nowMs; // a question asked at a given time: later memories do not replace earlier ones
        if (window.afterMs !== undefined) input.afterMs = window.afterMs;
        if (window.beforeMs !== undefined) input.beforeMs = window.beforeMs;
        if (o?.signal) input.signal = o.signal;
        if (o?.switches) input.switches = o.switches;
        if (termVectors !== undefined) input.termVectors = termVectors;
        input.embedPassages = (texts) => encoder.embed(texts, o?.signal);
        if (encoder.languages !== undefined) input.vectorLanguages = encoder.languages;
        if (keep !== undefined) input.keep = keep;
        const skipped = state.unreadableIds().length;
        const out = await runRecall(state, controller, callParams, input);
        // Damage stays local (issue 22): records the store could not read were left out of the
        // read path (expand.ts, gather); the recall answers from the rest and says how many.
        const unreadable = state.unreadableIds().length;
        if (unreadable > 0) out.trace.damaged = unreadable;
        if (unreadable > skipped) {
          logger('warn', `recall in namespace ${JSON.stringify(ns)} left out ${unreadable} memory record(s) the store could not read (damaged); it answered from the rest. Run \`jev-mem check\`, then \`jev-mem repair\``, { code: 'RECORDS_DAMAGED', namespace: ns });
        }
        const nowMs = now().getTime();
        const minScore = o?.minScore ?? 0;
        out.memories = out.memories.filter((m) => !isExpired(m, nowMs));
        for (const m of out.memories) m.relevance = calibratedRelevance(m.relevance ?? 0, calibration);
        // on the final score, which is in rank order: the cut keeps a prefix of the ranking (h-break10 finding 4)
        if (minScore > 0) out.memories = out.memories.filter((m) => m.score >= minScore);
        return out;
      });
    },

    async answer(query, o) {
      ensureOpen();
      checkOptionKeys(o, [...RECALL_OPTION_KEYS, ...ANSWER_EXTRA_OPTION_KEYS]);
      if (systemTwo === undefined) {
        throw new JevMemError('SYSTEM_TWO_NOT_CONFIGURED', 'answer() needs System Two: pass options.systemTwo ({ url, model, apiKey? }) to createMemory; recall() works without it');
      }
      const { now: given, onToken, ...recallOptions } = o ?? {};
      const today = checkAnswerNow(given);
      if (onToken !== undefined && typeof onToken !== 'function') throw invalidInput('options.onToken', `expected a function (token) => void, got ${describeValue(onToken)}`);
      // a dated "today" is also the recall's clock (the question's "last month"); free text only goes to the prompt
      const askedAt = today instanceof Date ? today : typeof today === 'string' ? strictIsoMs(today.trim()) : undefined;
      const r = await internal().recall(query, { ...recallOptions, ...(askedAt !== undefined ? { now: askedAt } : {}) });
      // No minScore: the top-ranked memories and the others above the default floor (relevance.ts).
      r.memories = answerEvidence(r.memories, recallOptions.minScore);
      const req: Parameters<SystemTwo['answer']>[0] = {
        query,
        evidence: r.memories.map((m) => {
          const item: EvidenceItem = { id: m.id, text: m.text, score: m.score };
          if (m.observedAt) item.observedAt = m.observedAt;
          if (m.observedAtLocal) item.observedAtLocal = m.observedAtLocal;
          if (m.timeRefs.length > 0) item.timeRefs = m.timeRefs;
          if (m.supersededAt) item.supersededAt = m.supersededAt;
          if (m.supersededAtLocal) item.supersededAtLocal = m.supersededAtLocal;
          if (m.provenance.speaker) item.speaker = m.provenance.speaker;
          if (m.provenance.turnId) item.turnId = m.provenance.turnId;
          return item;
        }),
      };
      if (o?.signal) req.signal = o.signal;
      if (onToken !== undefined) req.onToken = onToken;
      // "Today" of the prompt: the caller's, else the memory's clock (options.now of createMemory).
      req.now = today ?? now();
      const a = await systemTwo.answer(req);
      const { text, ...rest } = a;
      return { ...r, text, systemTwo: rest };
    },

    async list(o) {
      ensureOpen();
      checkOptionKeys(o, LIST_OPTION_KEYS);
      throwIfAborted(o?.signal);
      const ns = nsOf(o);
      const limit = checkLimit(o?.limit);
      const afterSeq = o?.cursor === undefined ? 0 : decodeCursor(o.cursor, ns);
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      await expiry.open(ns);
      return caches.reading(ns, (state) => listPage(state, ns, afterSeq, limit, keep, now().getTime(), o?.signal));
    },

    async history(id, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      throwIfAborted(o?.signal);
      checkIdArgument(id);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      await expiry.open(ns);
      const versions = await caches.reading(ns, async (state) => {
        throwIfAborted(o?.signal);
        const nowMs = now().getTime();
        await state.loadNodes([id]);
        const n = state.nodes.get(id);
        // A memory of another scope is answered as an unknown id (its existence is not shown).
        if (n === undefined || isExpired(n, nowMs) || (keep !== undefined && !keep(n))) return undefined;
        return historyOf(state, id, nowMs, keep);
      });
      if (versions === undefined || versions.length === 0) throw notFound(id, ns);
      return versions;
    },

    answerStream(query, o) {
      return openAnswerStream((onToken, signal) => {
        const opts: AnswerOptions = { ...o, onToken, signal };
        return self().answer(query, opts);
      }, o?.signal);
    },

    async get(id, o) {
      checkIdArgument(id);
      const { ns, keep } = await openScoped(o);
      return caches.reading(ns, async (state) => {
        throwIfAborted(o?.signal);
        await state.loadNodes([id]);
        const n = state.nodes.get(id);
        if (n === undefined || isExpired(n, now().getTime()) || (keep !== undefined && !keep(n))) return undefined;
        return structuredClone(n); // a copy: callers cannot change the cache
      });
    },

    async edges(id, o) {
      checkIdArgument(id);
      const { ns, keep } = await openScoped(o);
      return caches.reading(ns, (state) => {
        throwIfAborted(o?.signal);
        return scopedEdgesOf(state, id, keep);
      });
    },
  };
}
