/**
 * The recall trace (SPEC 6 step 6): everything needed to explain a recall: routing
 * probabilities, budgets and their use, anchors, every expansion with its score parts, each
 * round's stop estimates, the stop reason, controller calls and fallbacks, limits and timings.
 * JSON-safe.
 *
 * @module
 */
import type { DecisionRecord } from '../system-one/controller.js';
import type { View } from '../types.js';
import type { ScoreParts } from './score.js';
import type { StopEstimates, StopReason } from './stop.js';
import type { TraceHop } from './hop.js';
import type { TracePool } from './pool.js';
import type { TraceWhen } from './when.js';
import type { TraceOrder } from './order.js';
import type { TraceSuccessors } from './successors.js';

export type { TraceHop, HopAdded, HopReason } from './hop.js';
export type { TracePool } from './pool.js';
export type { TraceWhen } from './when.js';
export type { TraceOrder, OrderNeighbour, OrderQuestion, OrderReason } from './order.js';
export type { SuccessorPair, TraceSuccessors } from './successors.js';

/** An anchor of the read loop (eq. (16)). */
export interface TraceAnchor {
  id: string;
  /** s_RRF. */
  rrf: number;
  /** 1-based rank in the vector ranking (0 = absent). */
  vectorRank: number;
  /** 1-based rank in the lexical ranking (0 = absent). */
  lexicalRank: number;
  /** Score of eq. (23) on the shared [0,1] scale. */
  score: number;
  parts: ScoreParts;
}

/** One expansion step: from a beam node along an edge to a proposed node. */
export interface TraceExpansion {
  round: number;
  from: string;
  to: string;
  edge: { id: string; view: View; subtype: string; weight: number; direction: 'out' | 'in' };
  parts: ScoreParts;
  /** s(v | q, E_d), eq. (23). */
  score: number;
}

/** One round of the loop. */
export interface TraceRound {
  round: number;
  /** System One's s_d, u_d, m_d, c_d after this round (absent when the loop ended before asking). */
  estimates?: StopEstimates;
  /** Nodes proposed in this round. */
  proposed: number;
  /** Size of the beam after the round. */
  beam: number;
}

/** The full trace of one recall. */
export interface RecallTrace {
  query: string;
  namespace: string;
  routing: {
    /** p_g(q) per view, eq. (11). */
    p: Record<View, number>;
    /** h(q): multi-hop need. */
    h: number;
    /** r(q): recency preference. */
    r: number;
    /** A(q), eq. (12). */
    active: View[];
  };
  budgets: {
    /** B. */
    total: number;
    /** b_g, eq. (14). */
    given: Record<View, number>;
    /** Expansions spent per view. */
    used: Record<View, number>;
  };
  /** D(q) of eq. (15) and the last round run. */
  depth: { max: number; reached: number };
  /** K used for the result. */
  k: number;
  anchors: TraceAnchor[];
  expansions: TraceExpansion[];
  rounds: TraceRound[];
  stopReason: StopReason;
  /** Use of the global limits. */
  limits: { visited: number; maxVisited: number; edgesInspected: number; maxEdgesInspected: number; controllerCalls: number; maxControllerCalls: number };
  /** Every System-One call. */
  decisions: DecisionRecord[];
  /** How many calls were answered by the deterministic fallback. */
  fallbacks: number;
  /** Milliseconds. */
  timings: { embedMs: number; routeMs: number; anchorsMs: number; loopMs: number; totalMs: number };
  /**
   * g of the out-of-distribution guard in [0,1] (`guard.ts`, issue 24): how far the final scores
   * were moved towards the role- and update-aware lexical order; 0 when the anchors are turns in
   * System One's training range. Absent in traces written before it existed.
   */
  guard?: number;
  /**
   * The factor f of the session coverage step (`coverage.ts`, issue 24) in [0,1]: each memory's
   * score was multiplied by f per memory of its session ranked above it; 1 when the step did not
   * apply (the question does not ask for several things, g = 0, or `sessionRepeatFactor` = 1).
   * Absent in traces written before it existed.
   */
  coverage?: number;
  /**
   * The hop (issue 24, `hop.ts`): whether the second retrieval round ran and why, its seeds,
   * bridging entities, days and lexical query, and the nodes it added with their scores. Absent in
   * traces written before it existed.
   */
  hop?: TraceHop;
  /**
   * The user's tastes for a recommendation request (`taste.ts`, issue 24): how many user turns
   * the read path drew into the pool and how many it scored by their statements; absent when the
   * step did not run.
   */
  taste?: { drawn: number; scored: number; mode?: 'taste' | 'items' };
  /**
   * Later values of the question's slot of state (`successors.ts`, issue 24, h-ku): the slots a
   * question about the present names, the seeds read and the (older, newer, P) pairs found, the
   * newer drawn into the candidates and raised to just above the older. Absent when the step did
   * not run (not a question about the present, or it names no slot).
   */
  successors?: TraceSuccessors;
  /**
   * The wider pool (issue 24, `pool.ts`): whether it was built (`switches.pool` on, `poolAnchors`
   * > 0, and h ≥ θ_pool or the guard's g > 0), h, θ_pool, g, its soft query and the extra anchors
   * (also listed in `anchors`). Absent in traces written before it existed.
   */
  pool?: TracePool;
  /**
   * The question's time (issue 24, `when.ts`): the window it names (read against the memory's
   * clock) and the memories drawn for it, or whether it asks about the present, or about the
   * past (then superseded memories are not demoted: recalled.ts `demotesSuperseded`);
   * route.temporal beside it.
   */
  when?: TraceWhen;
  /**
   * A question about what held before or after another fact (issue 24, `order.ts`): the question
   * as read (relation, cue, anchor phrase), the anchor evidence and the neighbours drawn and
   * lifted, nearest in time first, or why the step did not run; route.temporal beside it.
   * Absent in traces written before it existed.
   */
  order?: TraceOrder;
  /**
   * Memories of the namespace that the store could not read back (damaged records, issue 22:
   * "damage stays local"), known so far to this memory, all left out of this recall, which
   * answered from the rest; absent when none. `stats().damaged` names them, `jev-mem check` and
   * `jev-mem repair` find and salvage them.
   */
  damaged?: number;
}
