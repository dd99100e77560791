/**
 * Error analysis of the state-update heads (issue 24): per held-out family and kind, how many
 * pairs each head gets wrong at P ≥ 0.85, with examples and the features that drove them.
 *
 *   npx tsx bench/training/state-errors.ts [--head mlp|logistic|gbm] [--examples N]
 *
 * Reads only; chooses nothing (an analysis for the report, not a fit).
 *
 * @module
 */
import { decideStateUpdate, stateMlpFeatureNames, stateMlpFeatures, trainedStateUpdate } from '../../src/system-one/state-update.js';
import { heldoutGrammarPairs } from './state-data.js';

const arg = (k: string, d: string) => {
  const i = process.argv.indexOf(k);
  return i >= 0 ? (process.argv[i + 1] as string) : d;
};
const head = arg('--head', 'mlp');
const nEx = Number(arg('--examples', '3'));
const held = heldoutGrammarPairs();
const names = stateMlpFeatureNames();
const score = (p: (typeof held)[number]) => (head === 'logistic' ? trainedStateUpdate(p.newer, p.older).probability : decideStateUpdate(p.newer, p.older, undefined, head as 'mlp').probability);
const rows = held.map((p) => ({ p, s: score(p) }));
const groups = new Map<string, typeof rows>();
for (const r of rows) {
  const k = `${r.p.label ? 'UPD' : 'non'} ${r.p.family}`;
  groups.set(k, [...(groups.get(k) ?? []), r]);
}
const show = ['claim_match', 'value_differs', 'change_marker', 'end_marker', 'change_lex', 'end_lex', 'negation', 'same_subject', 'first_mismatch', 'names_new', 'names_lost', 'newer_valueless', 'history_marker', 'repeat_marker', 'addition_marker', 'cos_all', 'kind_agree'];
for (const [k, rs] of [...groups].sort()) {
  const wrong = rs.filter((r) => (r.s >= 0.85) !== (r.p.label === 1));
  console.log(`\n## ${k}: ${wrong.length}/${rs.length} wrong; mean P ${(rs.reduce((a, r) => a + r.s, 0) / rs.length).toFixed(2)}`);
  const byKind = new Map<string, number>();
  for (const r of wrong) byKind.set(r.p.kind, (byKind.get(r.p.kind) ?? 0) + 1);
  console.log(`   by kind: ${[...byKind].map(([a, b]) => `${a} ${b}`).join(', ')}`);
  for (const r of wrong.slice(0, nEx)) {
    const x = stateMlpFeatures(r.p.newer, r.p.older);
    const f = show.map((n) => `${n}=${(x[names.indexOf(n)] as number).toFixed(2)}`).join(' ');
    console.log(`   P=${r.s.toFixed(2)} [${r.p.kind}] "${r.p.older.text}" -> "${r.p.newer.text}"\n      ${f}`);
  }
}
