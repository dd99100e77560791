/**
 * Write path stage 5: relation judgement (SPEC 4 step 5, eq. (9)). Builds the one batched
 * System-One request over the ≤ K_w (new, candidate) pairs and turns its answers into edges: an
 * edge of view g is inserted only when P(g | v,u) ≥ θ_rel. The temporal-relation choice is asked
 * only when timestamps do not already order the pair. Pure: the caller sends the request.
 *
 * @module
 */
import { questionKey, CATALOGUE, type PairSignals, type RelationState, type StateMemory } from '../system-one/catalogue.js';
import { probability } from '../system-one/controller.js';
import type { Question, SystemOneRequest, SystemOneResponse } from '../system-one/wire.js';
import type { EdgeSubtype } from '../types.js';
import type { EdgeDraft } from './structure.js';

/** One pair to judge. */
export interface RelationPair {
  candidate: StateMemory;
  signals: PairSignals;
  /** True when both sides carry timestamps (then no temporal choice is asked). */
  ordered: boolean;
  /**
   * True when the candidate's text equals the new observation's (`normalizeText`): a repeat at
   * another time, scope or source. Such a pair gets no causal edge whatever P(causes) says: a
   * sentence does not lead to itself (h-break10 finding 7); a repeat is `redundant` at most.
   */
  sameText?: boolean;
}

/** Builds the relation request (state kind `relation`). */
export function relationRequest(observation: StateMemory, pairs: readonly RelationPair[]): SystemOneRequest {
  const state: RelationState = { kind: 'relation', observation, candidates: pairs.map((p) => ({ ...p.candidate, signals: p.signals })) };
  const questions: Record<string, Question> = {};
  for (const p of pairs) {
    const ref = p.candidate.ref;
    for (const id of ['rel.semantic', 'rel.causes', 'rel.caused_by', 'rel.same_episode', 'rel.entity'] as const) questions[questionKey(id, ref)] = CATALOGUE[id];
    if (!p.ordered) questions[questionKey('rel.temporal', ref)] = CATALOGUE['rel.temporal'];
  }
  return { state: state, questions };
}

/**
 * Turns the answers into edge drafts (eq. (9): P(g | v,u) ≥ θ_rel); no causal edge joins a
 * pair of the same text ({@link RelationPair.sameText}).
 * @param newId Id of the new node v; candidates are u.
 * @param hasExactEntity Ids already joined to v by an exact-entity rule edge (no second entity edge).
 */
export function relationEdges(newId: string, pairs: readonly RelationPair[], response: SystemOneResponse, thetaRel: number, hasExactEntity: ReadonlySet<string>): EdgeDraft[] {
  const out: EdgeDraft[] = [];
  const origin = { kind: 'system-one' as const, by: response.model };
  for (const p of pairs) {
    const u = p.candidate.ref;
    const P = (id: Parameters<typeof questionKey>[0]) => probability(response, questionKey(id, u), 0);
    const sem = P('rel.semantic');
    if (sem >= thetaRel) out.push({ from: newId, to: u, view: 'semantic', subtype: 'related', weight: sem, origin });
    const causes = p.sameText === true ? 0 : P('rel.causes');
    if (causes >= thetaRel) out.push({ from: newId, to: u, view: 'causal', subtype: 'leads_to', weight: causes, origin });
    const causedBy = p.sameText === true ? 0 : P('rel.caused_by');
    if (causedBy >= thetaRel) out.push({ from: u, to: newId, view: 'causal', subtype: 'leads_to', weight: causedBy, origin });
    const episode = P('rel.same_episode');
    if (episode >= thetaRel) out.push({ from: newId, to: u, view: 'temporal', subtype: 'overlaps', weight: episode, origin });
    const ent = P('rel.entity');
    if (ent >= thetaRel && !hasExactEntity.has(u)) out.push({ from: newId, to: u, view: 'entity', subtype: 'same_entity', weight: ent, origin });
    if (!p.ordered) {
      const a = response.answers[questionKey('rel.temporal', u)];
      if (a !== undefined && a.type === 'choice' && a.choice !== 'unknown') {
        const pr = a.probabilities[a.choice] ?? 0;
        if (pr >= thetaRel) out.push({ from: newId, to: u, view: 'temporal', subtype: a.choice as EdgeSubtype, weight: pr, origin });
      }
    }
  }
  return out;
}
