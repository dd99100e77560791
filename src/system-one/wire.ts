/**
 * The System-One typed-decision wire format (SPEC 5). It mirrors the Jev HTTP API so the same
 * request can go to the local model, to a hosted Jev endpoint, to a gateway or to a proxy.
 * Types only: nothing here runs.
 *
 * @module
 */

/** A yes/no question; the answer is P(true) in [0,1]. */
export interface NoulQuestion {
  type: 'noul';
  instructions: string;
  criteria?: { true?: string; false?: string };
}

/** A question with 2-255 labels; each label may carry a description (or null). */
export interface ChoiceQuestion {
  type: 'choice';
  instructions: string;
  criteria: Record<string, string | null>;
}

/** A graded question with 2-10 levels, lowest first. */
export interface ScoreQuestion {
  type: 'score';
  instructions: string;
  criteria: string[];
}

/** Any question of the wire format. */
export type Question = NoulQuestion | ChoiceQuestion | ScoreQuestion;

/**
 * A System-One request: one shared `state` and named questions about it.
 * Question keys are caller ids; jev-mem uses `<catalogueId>` or `<catalogueId>#<ref>`.
 */
export interface SystemOneRequest {
  model?: string;
  state: string | Record<string, unknown> | unknown[];
  questions: Record<string, Question>;
}

/** Answer to a noul question: P(true) rounded to 2 decimals. No confidence field. */
export interface NoulAnswer {
  type: 'noul';
  noul: number;
}

/** Answer to a choice question: the argmax label, probabilities over exactly the labels (sum 1). */
export interface ChoiceAnswer {
  type: 'choice';
  choice: string;
  probabilities: Record<string, number>;
  /** clip((max p − 1/k)/(1 − 1/k), 0, 1). */
  confidence: number;
}

/** Answer to a score question: score = Σ i·p_i over level indices 0..n-1. */
export interface ScoreAnswer {
  type: 'score';
  score: number;
  /** The level descriptions, index → text. */
  legend: Record<string, string>;
  /** Keys "0".."n-1". */
  probabilities: Record<string, number>;
  confidence: number;
}

/** Any answer. */
export type Answer = NoulAnswer | ChoiceAnswer | ScoreAnswer;

/** A System-One response. */
export interface SystemOneResponse {
  /** Versioned model id, e.g. `jev-mem/system-one@1.0.0`. */
  model: string;
  answers: Record<string, Answer>;
  usage: { input_tokens: number; output_tokens: number };
}

/**
 * A System-One backend: anything that answers typed-decision requests. Local model, remote
 * endpoint and the heuristic stand-in all implement it.
 */
export interface SystemOneBackend {
  /** Short backend kind for traces: `'local'`, `'remote'`, `'heuristic'`. */
  readonly kind: string;
  /** Versioned model id this backend answers with. */
  readonly modelId: string;
  /**
   * Answers one request.
   * @throws JevMemError `SYSTEM_ONE_INVALID_REQUEST` for a request that breaks the contract,
   *   `SYSTEM_ONE_FAILED` when the backend cannot answer, `ABORTED` when `signal` fires.
   */
  decide(request: SystemOneRequest, options?: { signal?: AbortSignal; deadlineMs?: number }): Promise<SystemOneResponse>;
  /**
   * Answers several independent requests in one round trip (one worker message / one batch).
   * Same errors as {@link SystemOneBackend.decide}.
   */
  decideMany(requests: SystemOneRequest[], options?: { signal?: AbortSignal; deadlineMs?: number }): Promise<SystemOneResponse[]>;
  /**
   * Optional: drops what the backend caches about `texts` (readings, cues, answers to requests
   * holding them), or everything when `texts` is undefined. The memory calls it after a delete or
   * forget commits (issue 22).
   */
  evict?(texts: readonly string[] | undefined): void;
  /** Releases workers, sockets and caches. Idempotent. */
  close(): Promise<void>;
  /**
   * Memory parameters calibrated for this backend (SPEC 8: "a local backend needs its own
   * calibrated values, shipped with the model"): thresholds θ_rel, θ_act, θ_suff, θ_cont and read
   * budgets, keyed as in `MemoryParameters`. `createMemory` applies them over the SPEC 8 defaults;
   * the caller's `parameters` option still wins.
   */
  readonly parameters?: Readonly<Record<string, unknown>>;
}
