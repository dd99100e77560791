/**
 * The System-One controller: the one place the write and read paths ask memory-control
 * questions (SPEC 5, "per call budgets and failure"). It enforces the per-operation call cap and
 * deadline, and when the backend fails, is late or the cap is spent, it answers from the
 * deterministic fallback backend (the heuristic stand-in, pure TypeScript, no I/O), counts the
 * fallback in the trace, and never calls an LLM on its own.
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import type { Answer, SystemOneBackend, SystemOneRequest, SystemOneResponse } from './wire.js';

/** One controller call as recorded in a trace (issue 3 item 6: id, backend, model, probabilities, latency). */
export interface DecisionRecord {
  /** What the call decided: `typing`, `relation`, `routing`, `candidates`, `stop`, `maintenance`. */
  purpose: string;
  /** Backend kind that produced the answers (`local`, `remote`, `heuristic`...). */
  backend: string;
  /** Model id of the answers. */
  model: string;
  /** Questions asked. */
  questions: number;
  /** Wall time of the call in ms. */
  latencyMs: number;
  /** True when the answers came from the fallback. */
  fallback: boolean;
  /** Why the fallback was used (`error: ...`, `deadline`, `call-cap`). */
  reason?: string;
  /** Answers by question key: P(true) for noul, the label for choice, the score for score. */
  answers?: Record<string, number | string>;
}

/** Per-operation limits and the log a call writes to. */
export interface DecisionContext {
  /** Calls still allowed for this operation; decremented by each real backend call. */
  callsLeft: number;
  /** Absolute deadline, ms since the epoch (`Date.now()` scale). */
  deadline: number;
  signal?: AbortSignal;
  /** Where records go (the trace). */
  log?: DecisionRecord[];
  /** Keep answers in the records (for traces; off for bulk ingestion). @default true */
  recordAnswers?: boolean;
}

/** What {@link Controller.ask} returns. */
export interface Decision {
  response: SystemOneResponse;
  record: DecisionRecord;
}

function compactAnswer(a: Answer): number | string {
  if (a.type === 'noul') return a.noul;
  if (a.type === 'choice') return a.choice;
  return a.score;
}

/** The controller. One per memory; stateless between calls. */
export class Controller {
  /**
   * @param backend The configured System One.
   * @param fallback The deterministic fallback (the heuristic stand-in).
   */
  constructor(
    readonly backend: SystemOneBackend,
    readonly fallback: SystemOneBackend,
  ) {}

  /** Drops what both backends cache about `texts`, or everything when undefined (issue 22). */
  evict(texts: readonly string[] | undefined): void {
    this.backend.evict?.(texts);
    if (this.fallback !== this.backend) this.fallback.evict?.(texts);
  }

  /**
   * Asks one batched request. Never throws for backend failures: it falls back and records why.
   * @throws JevMemError `ABORTED` when the caller's signal fired.
   */
  async ask(purpose: string, request: SystemOneRequest, ctx: DecisionContext): Promise<Decision> {
    const [d] = await this.askMany(purpose, [request], ctx);
    return d as Decision;
  }

  /**
   * Asks several independent requests in one round trip (one call against the cap).
   * @throws JevMemError `ABORTED` when the caller's signal fired.
   */
  async askMany(purpose: string, requests: SystemOneRequest[], ctx: DecisionContext): Promise<Decision[]> {
    if (ctx.signal?.aborted) throw new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: ctx.signal.reason });
    if (requests.length === 0) return [];
    const started = performance.now();
    let responses: SystemOneResponse[] | undefined;
    let reason: string | undefined;
    let used = this.backend;
    const remaining = ctx.deadline - Date.now();
    if (ctx.callsLeft <= 0) reason = 'call-cap';
    else if (remaining <= 0) reason = 'deadline';
    else {
      ctx.callsLeft -= 1;
      try {
        const opts: { signal?: AbortSignal; deadlineMs: number } = { deadlineMs: remaining };
        if (ctx.signal) opts.signal = ctx.signal;
        responses = await withDeadline(this.backend.decideMany(requests, opts), remaining);
        if (responses.length !== requests.length) throw new JevMemError('SYSTEM_ONE_FAILED', `backend answered ${responses.length} of ${requests.length} requests`);
      } catch (e) {
        if (ctx.signal?.aborted) throw new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: ctx.signal.reason });
        responses = undefined;
        reason = e === DEADLINE ? 'deadline' : `error: ${isJevMemError(e) ? `${e.code} ${e.message}` : String(e)}`;
      }
    }
    if (responses === undefined) {
      used = this.fallback;
      responses = await this.fallback.decideMany(requests);
    }
    const latencyMs = performance.now() - started;
    return responses.map((response, i) => {
      const record: DecisionRecord = {
        purpose,
        backend: used.kind,
        model: response.model,
        questions: Object.keys((requests[i] as SystemOneRequest).questions).length,
        latencyMs: i === 0 ? latencyMs : 0,
        fallback: used === this.fallback && used !== this.backend,
      };
      if (reason !== undefined) record.reason = reason;
      if (ctx.recordAnswers !== false) {
        record.answers = {};
        for (const [k, a] of Object.entries(response.answers)) record.answers[k] = compactAnswer(a);
      }
      ctx.log?.push(record);
      return { response, record };
    });
  }
}

const DEADLINE = Symbol('deadline');

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(DEADLINE), Math.max(0, ms));
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** P(true) of a noul answer (or the probability mass of `label` for choice); `fallback` when absent. */
export function probability(response: SystemOneResponse, key: string, fallback = 0): number {
  const a = response.answers[key];
  if (a === undefined) return fallback;
  if (a.type === 'noul') return a.noul;
  if (a.type === 'score') return a.score;
  return a.probabilities[a.choice] ?? fallback;
}
