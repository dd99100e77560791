/**
 * Offline ranking loop over a development-split dump of bench/training/dump-candidates.ts (never the
 * test split): featurizes the logged candidates with the current `candidateFeatures`, fits the
 * relevance column leave-one-conversation-out (logistic by default; `hidden` for a ReLU layer,
 * `loss: "list"` for a softmax over each question's candidates, `mix` to add the pointwise loss)
 * and replays the read path's final ranking (eq. (23) with λ = .05/.9/0/0/.05, reassessment of the
 * best 40 with the replayed first a_v), printing R@5/10/20, R@10 per category and per held-out
 * conversation. `extra` appends prototype features defined below (the soft_* ones read the GloVe
 * word vectors and the LoCoMo file for neighbour turns); `ship: true` also replays the
 * shipped column (models/system-one/weights.json). A development tool: loose typing, ~1 min a run.
 *
 *   npx tsx bench/training/dump-candidates.ts --out /tmp/jev/dump.jsonl
 *   npx tsx bench/training/replay-candidates.ts '{"file":"/tmp/jev/dump.jsonl","ship":true}'
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { featuresFor, FEATURE_NAMES, textCues } from '../../src/system-one/features.js';
import { readGroupState } from '../../src/system-one/validate.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { LOCOMO_DEV, locomoConversation, parseLocomo } from '../../src/formats/locomo.js';
import { isStopWord, stem, tokenize } from '../../src/plane/text/text.js';
import { keywordsOf } from '../../src/write/plan.js';

type Entry = { ref: string; turn: string; text: string; signals: Record<string, number>; via?: { weight: number } };
type Q = { conv: string; id: string; category: number; question: string; gold: string[]; ranked: string[]; reqs: Entry[][] };
const cfg = JSON.parse(process.argv[2] ?? '{}') as { drop?: string[]; only?: string[]; hidden?: number; l2?: number; loss?: string; steps?: number; lr?: number; extra?: string[]; ship?: boolean; mix?: number; seed?: number; file?: string };
const qs: Q[] = readFileSync(cfg.file ?? '/tmp/jev/dump.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const names = [...FEATURE_NAMES.candidates] as string[];

// ---- extra prototype features (entry, question) ----
const qcache = new Map<string, ReturnType<typeof textCues>>();
const qc = (t: string) => { let c = qcache.get(t); if (!c) { c = textCues(t); qcache.set(t, c); } return c; };
const mh = (q: Q) => { const c = qc(q.question); return c.multiSet > 0 || c.whatPlural > 0 || c.and > 0 ? 1 : 0; };
const body = (e: Entry) => e.text.replace(/^[^:]{1,40}:\s*/, '');
const EXTRA: Record<string, (e: Entry, q: Q) => number> = {
  neighbour_cosine: (e) => e.signals.neighbourCosine ?? 0,
  window_lexical: (e) => e.signals.windowLexical ?? 0,
  session_lexical: (e) => e.signals.sessionLexical ?? 0,
  entity_match: (e) => e.signals.entityMatch ?? 0,
  cos_minus_nb: (e) => (e.signals.cosine ?? 0) - (e.signals.neighbourCosine ?? 0),
  who_name: (e, q) => { const c = qc(q.question); return c.qword === 4 && qc(body(e)).capitalised > 0 ? 1 : 0; },
  count_number: (e, q) => { const t = q.question.toLowerCase(); return /how (many|much|often|old)/.test(t) && qc(e.text).numbers > 0 ? 1 : 0; },
  where_name: (e, q) => { const c = qc(q.question); return c.qword === 6 && qc(body(e)).capitalised > 0 ? 1 : 0; },
  mh_x_cosine: (e, q) => mh(q) * (e.signals.cosine ?? 0),
  mh_x_lexical: (e, q) => mh(q) * (e.signals.lexical ?? 0),
  mh_x_speaker: (e, q) => mh(q) * (e.signals.speakerNamed ?? 0),
  mh_x_overlap: (e, q) => mh(q) * (e.signals.overlap ?? 0),
  idf_overlap: (e) => e.signals.idfOverlap ?? 0,
  prior_rank: () => 0,
  session_prior: () => 0,
  inv_soft_rank: (e) => ((e.signals.softRank ?? 0) >= 1 ? 1 / (e.signals.softRank as number) : 0),
  pooled: (e) => e.signals.pooled ?? 0,
  when_dateword: (e, q) => { const c = qc(q.question); const d = qc(e.text); return c.qword === 0 && (d.dateWords + d.months + d.years + d.weekdays + d.agoLast) > 0 ? 1 : 0; },
};
// ---- soft term matching prototypes (GloVe word vectors; features@5 ships soft_window_kdf as
// soft_window_overlap): IDF-weighted mean over the query's non-stop words of the best word-vector
// cosine (1 for a shared stem) over the candidate (soft_*) or it and its neighbour turns
// (soft_window_*); weights: uniform, Zipf-rank information ln(r·H_N), BM25 IDF over the
// conversation's words (df) or over its keyword stems (kdf, what the read path has) ----
const enc = await createDefaultNodeEncoder({ verify: false });
const vocabRank = new Map(readFileSync(new URL('../../models/glove-sif-100d/vocab.txt', import.meta.url), 'utf8').split('\n').map((w, i) => [w, i + 1]));
const tv = new Map<string, Float32Array | undefined>();
const vecOf = (w: string) => { if (!tv.has(w)) tv.set(w, enc.termVectors!([w])[0]); return tv.get(w); };
const words = (t: string) => tokenize(t).filter((w) => !isStopWord(w));
const turnText = new Map<string, string>();
const df = new Map<string, Map<string, number>>();
const nTurns = new Map<string, number>();
for (const smp of parseLocomo(readFileSync((cfg as { data?: string }).data ?? new URL('../../../shared/data/locomo10.json', import.meta.url), 'utf8')).filter((x) => LOCOMO_DEV.includes(x.sample_id))) {
  const conv = locomoConversation(smp); const d = new Map<string, number>();
  for (const o of conv.observations) { turnText.set(`${conv.sampleId}|${o.turnId}`, o.text); for (const w of new Set(words(o.text))) d.set(w, (d.get(w) ?? 0) + 1); for (const k of keywordsOf(o.text)) d.set(`#${k}`, (d.get(`#${k}`) ?? 0) + 1); }
  df.set(conv.sampleId, d); nTurns.set(conv.sampleId, conv.observations.length);
}
const H = Math.log(vocabRank.size) + 0.5772;
const wZipf = (w: string) => Math.log((vocabRank.get(w) ?? vocabRank.size) * H);
const wKdf = (conv: string) => (w: string) => { const n = nTurns.get(conv)!; const f = df.get(conv)!.get(`#${stem(w)}`) ?? 0; return Math.log(1 + (n - f + 0.5) / (f + 0.5)); };
const wDf = (conv: string) => (w: string) => { const n = nTurns.get(conv)!; const f = df.get(conv)!.get(w) ?? 0; return Math.log(1 + (n - f + 0.5) / (f + 0.5)); };
function soft(qw: string[], cw: string[], wt: (w: string) => number, pow = 1): number {
  if (qw.length === 0) return 0;
  const cs = new Set(cw.map(stem)); const cv = cw.map(vecOf).filter((v): v is Float32Array => v !== undefined);
  let num = 0, den = 0;
  for (const w of new Set(qw)) {
    const g = wt(w); den += g;
    let best = cs.has(stem(w)) ? 1 : 0;
    const v = vecOf(w);
    if (v && best < 1) for (const u of cv) { let c = 0; for (let i = 0; i < u.length; i++) c += u[i]! * v[i]!; if (c > best) best = c; }
    num += g * Math.max(0, best) ** pow;
  }
  return den > 0 ? num / den : 0;
}
const qwCache = new Map<string, string[]>();
const qWords = (q: Q) => { let r = qwCache.get(q.question); if (!r) { r = words(q.question); qwCache.set(q.question, r); } return r; };
const winWords = (e: Entry, q: Q) => { const [d, i] = e.turn.split(':'); const n = Number(i); return [e.text, turnText.get(`${q.conv}|${d}:${n - 1}`) ?? '', turnText.get(`${q.conv}|${d}:${n + 1}`) ?? ''].flatMap(words); };
Object.assign(EXTRA, {
  soft_uniform: (e: Entry, q: Q) => soft(qWords(q), words(e.text), () => 1),
  soft_zipf: (e: Entry, q: Q) => soft(qWords(q), words(e.text), wZipf),
  soft_df: (e: Entry, q: Q) => soft(qWords(q), words(e.text), wDf(q.conv)),
  soft_zipf_sq: (e: Entry, q: Q) => soft(qWords(q), words(e.text), wZipf, 2),
  soft_window_zipf: (e: Entry, q: Q) => soft(qWords(q), winWords(e, q), wZipf),
  soft_window_df: (e: Entry, q: Q) => soft(qWords(q), winWords(e, q), wDf(q.conv)),
  soft_kdf: (e: Entry, q: Q) => soft(qWords(q), words(e.text), wKdf(q.conv)),
  soft_window_kdf: (e: Entry, q: Q) => soft(qWords(q), winWords(e, q), wKdf(q.conv)),
});
const extra = cfg.extra ?? [];
const allNames = [...names, ...extra];
const keep = allNames.map((n) => !(cfg.drop ?? []).includes(n) && (cfg.only === undefined || cfg.only.includes(n)));
const W = keep.filter(Boolean).length;

interface Cand { turn: string; y: number; z: number; pi: number; x1: Float64Array; x2?: Float64Array; rawPrior?: number; rawNb?: number }
interface QT { q: Q; cands: Cand[]; gold: Set<string> }
const iPrior = allNames.indexOf('prior_relevance');
const iNb = allNames.indexOf('neighbour_relevance');
function feat(e: Entry, q: Q): Float64Array {
  const st = { kind: 'candidates', query: q.question, candidates: [e] };
  const f = featuresFor('candidates', readGroupState('candidates', st), e.ref);
  const all = [...f, ...extra.map((n) => (EXTRA[n] as (e: Entry, q: Q) => number)(e, q))];
  return Float64Array.from(all.filter((_, i) => keep[i]));
}
const kPrior = keep.slice(0, iPrior).filter(Boolean).length;
const kNb = keep.slice(0, iNb).filter(Boolean).length;
const hasPrior = keep[iPrior];
const hasNb = keep[iNb];
function build(qs: Q[]): QT[] { return qs.map((q) => {
  const gold = new Set(q.gold);
  const m = new Map<string, Cand>();
  for (const req of q.reqs)
    for (const e of req) {
      const isRe = (e.signals.reassess ?? 0) >= 1;
      if (!isRe) {
        if (!m.has(e.turn)) m.set(e.turn, { turn: e.turn, y: gold.has(e.turn) ? 1 : 0, z: Math.max(0, Math.min(1, e.signals.cosine ?? 0)), pi: e.via ? e.via.weight : 1, x1: feat(e, q) });
      } else {
        const c = m.get(e.turn);
        if (c) c.x2 = feat(e, q);
      }
    }
  return { q, cands: [...m.values()], gold };
}); }
const tables = build(qs);
const trainTables = (cfg as { trainFile?: string }).trainFile ? build(readFileSync((cfg as { trainFile: string }).trainFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l))) : tables;

const iPR = allNames.indexOf('prior_rank'), iSP = allNames.indexOf('session_prior');
const kPR = keep.slice(0, iPR).filter(Boolean).length, kSP = keep.slice(0, iSP).filter(Boolean).length;
const useRe = iPR >= 0 && keep[iPR];
function fillRe(t: QT, a1: Map<string, number>, x2s: Map<string, Float64Array>) {
  if (!useRe) return;
  const order = [...a1.entries()].sort((a, b) => b[1] - a[1]).map((e) => e[0]);
  const rank = new Map(order.map((tu, i) => [tu, i + 1]));
  const sess = new Map<string, number[]>();
  for (const [tu, a] of a1) { const se = tu.split(':')[0]!; const l = sess.get(se) ?? []; l.push(a); sess.set(se, l); }
  for (const [tu, x2] of x2s) {
    x2[kPR] = 1 / (rank.get(tu) ?? 100);
    const se = tu.split(':')[0]!; const me = a1.get(tu) ?? 0;
    let best = 0; let skipped = false; for (const a of sess.get(se) ?? []) { if (!skipped && a === me) { skipped = true; continue; } best = Math.max(best, a); }
    if (iSP >= 0 && keep[iSP]) x2[kSP] = best;
  }
}
{
  const wts = JSON.parse(readFileSync(new URL('../../models/system-one/weights.json', import.meta.url), 'utf8'));
  const g = wts.groups.candidates; const out = g.outputs.noul; const j = out.labels.indexOf('cand.relevance');
  const shipPred = (x: Float64Array) => { let z = out.bias[j]; for (let i = 0; i < 36; i++) z += out.weights[i][j] * (x[i]! - g.mean[i]) / g.std[i]; return 1 / (1 + Math.exp(-z)); };
  if (useRe) for (const t of [...tables, ...(trainTables === tables ? [] : trainTables)]) { const a1 = new Map(t.cands.map((c) => [c.turn, shipPred(c.x1)])); fillRe(t, a1, new Map(t.cands.filter((c) => c.x2).map((c) => [c.turn, c.x2!]))); }
}
// ---- model: MLP (hidden 0 = logistic) ----
interface Model { mean: Float64Array; std: Float64Array; W1?: Float64Array; b1?: Float64Array; w: Float64Array; b: number; H: number }
function rng(seed: number) { let s = seed >>> 0; return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; }; }
function fwd(m: Model, x: Float64Array, h?: Float64Array): number {
  const F = x.length;
  let z = m.b;
  if (m.H === 0) { for (let j = 0; j < F; j++) z += m.w[j]! * (x[j]! - m.mean[j]!) / m.std[j]!; return z; }
  const xs = new Float64Array(F);
  for (let j = 0; j < F; j++) xs[j] = (x[j]! - m.mean[j]!) / m.std[j]!;
  for (let k = 0; k < m.H; k++) { let a = m.b1![k]!; for (let j = 0; j < F; j++) a += m.W1![j * m.H + k]! * xs[j]!; const r = a > 0 ? a : 0; if (h) h[k] = r; z += m.w[k]! * r; }
  return z;
}
const sig = (z: number) => 1 / (1 + Math.exp(-z));
function train(rowsByQ: { x: Float64Array; y: number }[][], H: number, l2: number, loss: string, steps: number, lr: number, seed: number, mix: number): Model {
  const rows = rowsByQ.flat();
  const F = W;
  const mean = new Float64Array(F), std = new Float64Array(F);
  for (const r of rows) for (let j = 0; j < F; j++) mean[j]! += r.x[j]!;
  for (let j = 0; j < F; j++) mean[j]! /= rows.length;
  for (const r of rows) for (let j = 0; j < F; j++) std[j]! += (r.x[j]! - mean[j]!) ** 2;
  for (let j = 0; j < F; j++) { std[j] = Math.sqrt(std[j]! / rows.length); if (std[j]! < 1e-6) std[j] = 1; }
  const R = rng(seed);
  const m: Model = { mean, std, w: new Float64Array(H === 0 ? F : H), b: 0, H };
  if (H > 0) { m.W1 = new Float64Array(F * H).map(() => (R() - 0.5) * 2 * Math.sqrt(6 / (F + H))); m.b1 = new Float64Array(H).fill(0.01); m.w = new Float64Array(H).map(() => (R() - 0.5) * 2 * Math.sqrt(6 / (H + 1))); }
  const params = [m.W1, m.b1, m.w].filter((p): p is Float64Array => p !== undefined);
  const P = params.reduce((a, p) => a + p.length, 0) + 1;
  const g = new Float64Array(P), M1 = new Float64Array(P), M2 = new Float64Array(P);
  const xsAll = rowsByQ.map((qr) => qr.map((r) => Float64Array.from(r.x, (v, j) => (v - mean[j]!) / std[j]!)));
  const nq = rowsByQ.filter((qr) => qr.length > 0).length;
  const hbuf = new Float64Array(Math.max(1, H));
  const zs: number[] = [];
  for (let t = 1; t <= steps; t++) {
    g.fill(0);
    const batch = (cfg as { batch?: number }).batch ?? 0;
    const pick = batch > 0 ? Array.from({ length: batch }, () => Math.floor(R() * rowsByQ.length)) : rowsByQ.map((_, i) => i);
    const nb = batch > 0 ? batch : nq;
    for (const qi of pick) {
      const qr = rowsByQ[qi]!; const xq = xsAll[qi]!; if (qr.length === 0) continue;
      // forward
      zs.length = 0;
      const hs: Float64Array[] = [];
      for (let i = 0; i < qr.length; i++) {
        const x = xq[i]!; let z = m.b;
        if (H === 0) { for (let j = 0; j < F; j++) z += m.w[j]! * x[j]!; }
        else { const hh = new Float64Array(H); for (let k = 0; k < H; k++) { let a = m.b1![k]!; for (let j = 0; j < F; j++) a += m.W1![j * H + k]! * x[j]!; hh[k] = a > 0 ? a : 0; z += m.w[k]! * hh[k]!; } hs.push(hh); }
        zs.push(z);
      }
      // dL/dz per row
      const dz = new Float64Array(qr.length);
      const npos = qr.reduce((a, r) => a + r.y, 0);
      if (loss !== 'list' || mix > 0) for (let i = 0; i < qr.length; i++) dz[i]! += (loss === 'list' ? mix : 1) * (sig(zs[i]!) - qr[i]!.y) / qr.length;
      if (loss === 'list' && npos > 0) {
        let mx = -Infinity; for (const z of zs) mx = Math.max(mx, z);
        let S = 0; const e = zs.map((z) => Math.exp(z - mx)); for (const v of e) S += v;
        for (let i = 0; i < qr.length; i++) dz[i]! += (e[i]! / S) - qr[i]!.y / npos;
      }
      for (let i = 0; i < qr.length; i++) {
        const d = dz[i]! / nb; if (d === 0) continue; const x = xq[i]!;
        if (H === 0) { for (let j = 0; j < F; j++) g[j]! += d * x[j]!; g[P - 1]! += d; }
        else {
          const hh = hs[i]!; const offW1 = 0, offb1 = F * H, offw = F * H + H;
          for (let k = 0; k < H; k++) { g[offw + k]! += d * hh[k]!; if (hh[k]! > 0) { const dk = d * m.w[k]!; g[offb1 + k]! += dk; for (let j = 0; j < F; j++) g[offW1 + j * H + k]! += dk * x[j]!; } }
          g[P - 1]! += d;
        }
      }
    }
    // l2 on weights (not biases)
    if (H === 0) for (let j = 0; j < F; j++) g[j]! += l2 * m.w[j]!;
    else { for (let j = 0; j < F * H; j++) g[j]! += l2 * m.W1![j]!; for (let k = 0; k < H; k++) g[F * H + H + k]! += l2 * m.w[k]!; }
    // adam
    let off = 0;
    const upd = (arr: Float64Array) => { for (let j = 0; j < arr.length; j++) { const gi = g[off + j]!; M1[off + j] = 0.9 * M1[off + j]! + 0.1 * gi; M2[off + j] = 0.999 * M2[off + j]! + 0.001 * gi * gi; arr[j]! -= (lr * M1[off + j]! / (1 - 0.9 ** t)) / (Math.sqrt(M2[off + j]! / (1 - 0.999 ** t)) + 1e-8); } off += arr.length; };
    for (const p of params) upd(p);
    const gi = g[P - 1]!; M1[P - 1] = 0.9 * M1[P - 1]! + 0.1 * gi; M2[P - 1] = 0.999 * M2[P - 1]! + 0.001 * gi * gi; m.b -= (lr * M1[P - 1]! / (1 - 0.9 ** t)) / (Math.sqrt(M2[P - 1]! / (1 - 0.999 ** t)) + 1e-8);
  }
  return m;
}

// ---- simulation of the read path's final ranking ----
const LAM = [0.05, 0.9, 0, 0, 0.05];
const score = (z: number, a: number, pi: number) => (LAM[0]! * z + LAM[1]! * a + (LAM[4]! * (pi + a)) / 2);
function neighbours(turn: string): string[] { const [d, i] = turn.split(':'); const n = Number(i); return [`${d}:${n - 1}`, `${d}:${n + 1}`]; }
function rankQ(t: QT, pred: (x: Float64Array) => number): string[] {
  const a1 = new Map<string, number>();
  const s = t.cands.map((c) => { const a = pred(c.x1); a1.set(c.turn, a); return { c, a, s: score(c.z, a, c.pi) }; });
  s.sort((x, y) => y.s - x.s);
  const top = s.slice(0, 40);
  const x2s = new Map(top.filter((it) => it.c.x2).map((it) => [it.c.turn, Float64Array.from(it.c.x2!)]));
  fillRe(t, a1, x2s);
  for (const it of top) {
    if (!it.c.x2) continue;
    const x2 = x2s.get(it.c.turn)!;
    if (hasPrior) x2[kPrior] = it.a;
    if (hasNb) { let nb = 0; for (const n of neighbours(it.c.turn)) nb = Math.max(nb, a1.get(n) ?? 0); x2[kNb] = nb; }
    const a = pred(x2); it.a = a; it.s = score(it.c.z, a, it.c.pi);
  }
  s.sort((x, y) => y.s - x.s);
  const div = (cfg as { div?: number }).div ?? 0;
  if (div > 0) {
    const out: string[] = []; const used = new Map<string, number>(); const rest = s.slice(0, 60);
    while (rest.length > 0) {
      let bi = 0, bv = -Infinity;
      rest.forEach((x, i) => { const v = x.s - div * (used.get(x.c.turn.split(':')[0]!) ?? 0); if (v > bv) { bv = v; bi = i; } });
      const [x] = rest.splice(bi, 1); out.push(x!.c.turn); const ss = x!.c.turn.split(':')[0]!; used.set(ss, (used.get(ss) ?? 0) + 1);
    }
    return [...out, ...s.slice(60).map((x) => x.c.turn)];
  }
  return s.map((x) => x.c.turn);
}
const rec = (ranked: string[], gold: Set<string>, k: number) => ranked.slice(0, k).filter((x) => gold.has(x)).length / gold.size;
function report(label: string, per: { t: QT; ranked: string[] }[]) {
  const m = (xs: number[]) => (100 * xs.reduce((a, b) => a + b, 0)) / Math.max(1, xs.length);
  const r10 = per.map((p) => rec(p.ranked, p.t.gold, 10));
  const byCat = [1, 2, 3, 4].map((c) => m(per.filter((p) => p.t.q.category === c).map((p) => rec(p.ranked, p.t.gold, 10))).toFixed(1));
  const byConv = [...new Set(per.map((p) => p.t.q.conv))].map((c) => m(per.filter((p) => p.t.q.conv === c).map((p) => rec(p.ranked, p.t.gold, 10))).toFixed(1));
  console.log(`${label}: R@5 ${m(per.map((p) => rec(p.ranked, p.t.gold, 5))).toFixed(1)} R@10 ${m(r10).toFixed(1)} R@20 ${m(per.map((p) => rec(p.ranked, p.t.gold, 20))).toFixed(1)} | cat1-4 ${byCat.join(' ')} | conv ${byConv.join(' ')}`);
}
if (cfg.ship) {
  report('actual (dump ranked)', tables.map((t) => ({ t, ranked: t.q.ranked })));
  const wts = JSON.parse(readFileSync(new URL('../../models/system-one/weights.json', import.meta.url), 'utf8'));
  const g = wts.groups.candidates; const out = g.outputs.noul; const j = out.labels.indexOf('cand.relevance');
  const pred = (x: Float64Array) => { let z = out.bias[j]; for (let i = 0; i < x.length; i++) z += out.weights[i][j] * (x[i]! - g.mean[i]) / g.std[i]; return sig(z); };
  report('shipped model sim', tables.map((t) => ({ t, ranked: rankQ(t, pred) })));
}
// LOCO
const convs = [...new Set(tables.map((t) => t.q.conv))];
const per: { t: QT; ranked: string[] }[] = [];
const t0 = performance.now();
for (const held of convs) {
  const tr = trainTables.filter((t) => t.q.conv !== held);
  // rows: first-assessment rows and reassess rows (with the collecting model's prior), per query
  const rowsByQ = tr.map((t) => [...t.cands.map((c) => ({ x: c.x1, y: c.y })), ...t.cands.filter((c) => c.x2).map((c) => ({ x: c.x2!, y: c.y }))]);
  const m = train(rowsByQ, cfg.hidden ?? 0, cfg.l2 ?? 1e-3, cfg.loss ?? 'point', cfg.steps ?? 400, cfg.lr ?? 0.05, cfg.seed ?? 1, cfg.mix ?? 0);
  const pred = (x: Float64Array) => sig(fwd(m, x));
  for (const t of tables.filter((t) => t.q.conv === held)) per.push({ t, ranked: rankQ(t, pred) });
}
report(`LOCO ${JSON.stringify(cfg)} (${((performance.now() - t0) / 1000).toFixed(0)}s)`, per);
