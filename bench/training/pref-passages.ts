/**
 * Where a preference question's evidence ranks among the user's turns by meaning (issue 24,
 * h-pref; the measurement behind `src/read/taste.ts`): for each question of a part, the rank of
 * its evidence turn among the history's user turns by W (whole-turn cosine), P (best sentence),
 * D (best sentence not ending in "?"), F (best first-person statement: taste.ts's m), T / TF (D /
 * F with IDF-weighted means of word vectors), FC (F with the common component removed: the mean
 * of the history's user statements subtracted from the query and every statement, taste.ts since
 * round nine), FH (mean of F and FC) and WD (mean of W and D); prints how many rank in the top 3 /
 * 5 / 10 / 20. Preference questions only (category 3). Encoder: the default GloVe-SIF.
 *
 * `npx tsx bench/training/pref-passages.ts [prefdev|prefheld|dev|wilddev]`
 *
 * @module
 */
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { partHistories, type ChatPart } from '../chats/chats.js';
import { splitSentences } from '../../src/read/passage.js';
import { tokenize, isStopWord } from '../../src/plane/text/text.js';
const part = (process.argv[2] ?? 'prefdev') as ChatPart;
const enc = await createDefaultNodeEncoder();
const dot = (a: Float32Array, b: Float32Array) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!; return s; };
const cos = (a: Float32Array, b: Float32Array) => dot(a, b) / (Math.sqrt(dot(a, a) * dot(b, b)) || 1);
const FP = new Set(['i', "i'm", "i've", "i'd", "i'll", 'my', 'me', 'we', 'our', "we're", 'us', 'mine']);
const firstPerson = (s: string) => tokenize(s).some((w) => FP.has(w));
const decl = (s: string) => !s.trim().endsWith('?');
const res: Record<string, number[]> = {};
const push = (k: string, r: number) => (res[k] ??= []).push(r);
for (const make of partHistories(part)) {
  const h = make();
  const users = h.observations.filter((o) => o.speaker === 'user');
  const df = new Map<string, number>();
  for (const o of h.observations) for (const w of new Set(tokenize(o.text))) df.set(w, (df.get(w) ?? 0) + 1);
  const N = h.observations.length;
  const idf = (w: string) => Math.log(1 + (N - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
  const tv = (s: string) => { const ws = tokenize(s).filter((w) => !isStopWord(w)); const vs = enc.termVectors!(ws); const out = new Float32Array(100); ws.forEach((w, i) => { const v = vs[i]; if (v) for (let j = 0; j < 100; j++) out[j] = (out[j] as number) + idf(w) * (v[j] as number); }); return out; };
  const info: Array<{ id: string; ss: string[]; sv: Float32Array[]; wv: Float32Array; tvs: Float32Array[] }> = [];
  for (const u of users) {
    const ss = splitSentences(u.text);
    const sv = await enc.embed(ss);
    const [wv] = await enc.embed([u.text]);
    info.push({ id: u.turnId!, ss, sv, wv: wv!, tvs: ss.map(tv) });
  }
  const mean = new Float32Array(info[0]!.wv.length);
  let cnt = 0;
  for (const x of info) x.sv.forEach((v, i) => { if (decl(x.ss[i]!) && firstPerson(x.ss[i]!)) { const n = Math.sqrt(dot(v, v)) || 1; for (let j = 0; j < v.length; j++) mean[j] = mean[j]! + v[j]! / n; cnt++; } });
  for (let j = 0; j < mean.length; j++) mean[j] = mean[j]! / Math.max(1, cnt);
  const centre = (v: Float32Array) => { const n = Math.sqrt(dot(v, v)) || 1; const o = new Float32Array(v.length); for (let j = 0; j < v.length; j++) o[j] = v[j]! / n - mean[j]!; return o; };
  for (const q of h.questions) {
    if (q.category !== 3) continue;
    const ev = q.evidence[0]!;
    const [qv] = await enc.embed([q.question]);
    const qt = tv(q.question);
    const variants: Record<string, (x: (typeof info)[number]) => number> = {
      W: (x) => cos(qv!, x.wv),
      P: (x) => Math.max(...x.sv.map((v) => cos(qv!, v))),
      D: (x) => Math.max(0, ...x.sv.map((v, i) => (decl(x.ss[i]!) ? cos(qv!, v) : 0))),
      F: (x) => Math.max(0, ...x.sv.map((v, i) => (decl(x.ss[i]!) && firstPerson(x.ss[i]!) ? cos(qv!, v) : 0))),
      T: (x) => Math.max(0, ...x.tvs.map((v, i) => (decl(x.ss[i]!) ? cos(qt, v) : 0))),
      TF: (x) => Math.max(0, ...x.tvs.map((v, i) => (decl(x.ss[i]!) && firstPerson(x.ss[i]!) ? cos(qt, v) : 0))),
      FC: (x) => Math.max(-1, ...x.sv.map((v, i) => (decl(x.ss[i]!) && firstPerson(x.ss[i]!) ? cos(centre(qv!), centre(v)) : -1))),
      FH: (x) => Math.max(-1, ...x.sv.map((v, i) => (decl(x.ss[i]!) && firstPerson(x.ss[i]!) ? 0.5 * cos(qv!, v) + 0.5 * cos(centre(qv!), centre(v)) : -1))),
      WD: (x) => 0.5 * cos(qv!, x.wv) + 0.5 * Math.max(0, ...x.sv.map((v, i) => (decl(x.ss[i]!) ? cos(qv!, v) : 0))),
    };
    for (const [k, f] of Object.entries(variants)) {
      const sorted = info.map((x) => ({ id: x.id, s: f(x) })).sort((a, b) => b.s - a.s);
      push(k, sorted.findIndex((x) => x.id === ev) + 1);
    }
  }
}
for (const [k, xs] of Object.entries(res)) console.log(k.padEnd(3), 'r<=3', xs.filter((x) => x <= 3).length, 'r<=5', xs.filter((x) => x <= 5).length, 'r<=10', xs.filter((x) => x <= 10).length, 'r<=20', xs.filter((x) => x <= 20).length, 'of', xs.length, 'median', [...xs].sort((a, b) => a - b)[xs.length >> 1]);
