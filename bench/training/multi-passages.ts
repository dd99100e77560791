/**
 * Where a multi-session question's evidence turns rank among the user's turns by meaning (issue
 * 24, h-multi; the measurement behind taste.ts's 'items' mode): for each multi-session question
 * of a tuning part, the rank of each evidence turn among the history's user turns by W (whole-turn
 * cosine), WC (W with the common component removed: the mean of the user turns' vectors), D (best
 * sentence not ending in "?"), DC (D centred on the mean of those sentences), FC (first-person
 * statements only, centred: taste.ts's 'taste' mode), PC (every sentence, centred), and N / NC
 * (D / DC with the question reduced to its item phrase: the words from "which / what / how many"
 * to the first plural noun, "sports", "online courses"), WDC (the mean of WC and DC) and MXC
 * (their maximum); prints how many rank in the top 3 / 5 /
 * 10 / 20 and the median. Encoder: the default GloVe-SIF. Tuning parts only (dev, wilddev).
 *
 * `npx tsx bench/training/multi-passages.ts [dev|wilddev]`
 *
 * @module
 */
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { partHistories, type ChatPart } from '../chats/chats.js';
import { splitSentences } from '../../src/read/passage.js';
import { tokenize } from '../../src/plane/text/text.js';

const part = (process.argv[2] ?? 'wilddev') as ChatPart;
if (part !== 'dev' && part !== 'wilddev' && part !== 'wildlong') throw new Error('multi-passages: tuning parts only (dev, wilddev, wildlong)');
const enc = await createDefaultNodeEncoder();
const dot = (a: Float32Array, b: Float32Array): number => { let s = 0; for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number); return s; };
const unitMinus = (v: Float32Array, c?: Float32Array): Float32Array => {
  const n = Math.sqrt(dot(v, v)) || 1;
  const o = new Float32Array(v.length);
  for (let j = 0; j < v.length; j++) o[j] = (v[j] as number) / n - (c ? (c[j] as number) : 0);
  const m = Math.sqrt(dot(o, o)) || 1;
  for (let j = 0; j < v.length; j++) o[j] = (o[j] as number) / m;
  return o;
};
const meanOf = (vs: Float32Array[]): Float32Array => {
  const m = new Float32Array((vs[0] as Float32Array).length);
  for (const v of vs) { const u = unitMinus(v); for (let j = 0; j < m.length; j++) m[j] = (m[j] as number) + (u[j] as number) / vs.length; }
  return m;
};
const FP = new Set(['i', "i'm", "i've", "i'd", "i'll", 'my', 'me', 'we', 'our', "we're", 'us', 'mine']);
const decl = (s: string): boolean => !s.trim().endsWith('?');
const fp = (s: string): boolean => tokenize(s).some((w) => FP.has(w));
/** The item phrase: from after which / what / how many to the first plural-looking word. */
function itemPhrase(q: string): string {
  const w = tokenize(q);
  for (let i = 0; i < w.length; i++) {
    const start = w[i] === 'how' && w[i + 1] === 'many' ? i + 2 : w[i] === 'which' || w[i] === 'what' ? i + 1 : -1;
    if (start < 0) continue;
    for (let j = start; j < Math.min(w.length, start + 3); j++) {
      const t = w[j] as string;
      if (t.length >= 4 && t.endsWith('s') && !t.endsWith('ss')) return w.slice(start, j + 1).join(' ');
    }
  }
  return q;
}
const res: Record<string, number[]> = {};
for (const make of partHistories(part)) {
  const h = make();
  const users = h.observations.filter((o) => o.speaker === 'user');
  const info: Array<{ id: string; ss: string[]; sv: Float32Array[]; wv: Float32Array; words: number }> = [];
  const wvs = await enc.embed(users.map((u) => u.text));
  for (let i = 0; i < users.length; i++) {
    const ss = splitSentences((users[i] as (typeof users)[number]).text);
    info.push({ id: (users[i] as (typeof users)[number]).turnId as string, ss, sv: await enc.embed(ss), wv: wvs[i] as Float32Array, words: (users[i] as (typeof users)[number]).text.split(/\s+/).filter(Boolean).length });
  }
  const cW = meanOf(info.map((x) => x.wv));
  const cD = meanOf(info.flatMap((x) => x.sv.filter((_, i) => decl(x.ss[i] as string))));
  const cF = meanOf(info.flatMap((x) => x.sv.filter((_, i) => decl(x.ss[i] as string) && fp(x.ss[i] as string))));
  const cP = meanOf(info.flatMap((x) => x.sv));
  for (const q of h.questions) {
    if (q.category !== 4) continue;
    const [qv] = (await enc.embed([q.question])) as [Float32Array];
    const [nv] = (await enc.embed([itemPhrase(q.question)])) as [Float32Array];
    const best = (x: (typeof info)[number], qq: Float32Array, c: Float32Array | undefined, ok: (s: string) => boolean): number => {
      const q2 = unitMinus(qq, c);
      let b = -2;
      x.sv.forEach((v, i) => { if (ok(x.ss[i] as string)) b = Math.max(b, dot(q2, unitMinus(v, c))); });
      return b;
    };
    const variants: Record<string, (x: (typeof info)[number]) => number> = {
      W: (x) => dot(unitMinus(qv), unitMinus(x.wv)),
      WC: (x) => dot(unitMinus(qv, cW), unitMinus(x.wv, cW)),
      D: (x) => best(x, qv, undefined, decl),
      DC: (x) => best(x, qv, cD, decl),
      FC: (x) => best(x, qv, cF, (s) => decl(s) && fp(s)),
      PC: (x) => best(x, qv, cP, () => true),
      WDC: (x) => 0.5 * dot(unitMinus(qv, cW), unitMinus(x.wv, cW)) + 0.5 * best(x, qv, cD, decl),
      MXC: (x) => Math.max(dot(unitMinus(qv, cW), unitMinus(x.wv, cW)), best(x, qv, cD, decl)),
      ...Object.fromEntries([30, 40, 50, 60, 80, 100].map((L) => [`MXC${L}`, (x: (typeof info)[number]) => (x.words > L ? Math.max(dot(unitMinus(qv, cW), unitMinus(x.wv, cW)), best(x, qv, cD, decl)) : dot(unitMinus(qv, cW), unitMinus(x.wv, cW)))])),
      ...Object.fromEntries([3, 4, 5].map((L) => [`MXS${L}`, (x: (typeof info)[number]) => (x.ss.length >= L ? Math.max(dot(unitMinus(qv, cW), unitMinus(x.wv, cW)), best(x, qv, cD, decl)) : dot(unitMinus(qv, cW), unitMinus(x.wv, cW)))])),
      N: (x) => best(x, nv, undefined, decl),
      NC: (x) => best(x, nv, cD, decl),
    };
    for (const [k, f] of Object.entries(variants)) {
      const sorted = info.map((x) => ({ id: x.id, s: f(x) })).sort((a, b) => b.s - a.s);
      for (const ev of q.evidence) (res[k] ??= []).push(sorted.findIndex((x) => x.id === ev) + 1);
    }
    if (process.env.SHOW) console.log(q.question, '|', itemPhrase(q.question), '|', Object.keys(variants).map((k) => `${k}:${(res[k] as number[]).slice(-q.evidence.length).join(',')}`).join(' '));
  }
}
for (const [k, xs] of Object.entries(res)) console.log(k.padEnd(3), 'r<=3', xs.filter((x) => x <= 3).length, 'r<=5', xs.filter((x) => x <= 5).length, 'r<=10', xs.filter((x) => x <= 10).length, 'r<=20', xs.filter((x) => x <= 20).length, 'of', xs.length, 'median', [...xs].sort((a, b) => a - b)[xs.length >> 1]);
