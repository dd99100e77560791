#!/usr/bin/env node
// The main job, end to end through the CLI: ingest a real conversation into a store on disk,
// then recall every one of its questions in a second process, and print evidence recall@10,
// build time and recall latency. Uses LoCoMo (../shared/data/locomo10.json, or $LOCOMO_PATH)
// when it is there, else the sample conversation this repo ships (examples/).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'jev-mem.js');
const work = join(root, '.jev-mem', 'main-job');
const store = join(work, 'store');
const locomo = process.env.LOCOMO_PATH ?? resolve(root, '..', 'shared', 'data', 'locomo10.json');
const sample = process.argv[2] ?? 'conv-26';
const systemOne = process.env.JEV_MEM_SYSTEM_ONE ?? 'local';

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

function run(args) {
  const t = performance.now();
  const out = execFileSync(process.execPath, [cli, ...args, '--system-one', systemOne], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30 });
  return { out, ms: performance.now() - t };
}

let ingestArgs;
let namespace;
let questions; // [{question, evidence: [turnId]}]
if (existsSync(locomo)) {
  console.log(`LoCoMo found at ${locomo}; conversation ${sample}`);
  const data = JSON.parse(readFileSync(locomo, 'utf8'));
  const s = data.find((x) => x.sample_id === sample);
  if (!s) throw new Error(`no sample ${sample} in ${locomo}`);
  namespace = sample;
  ingestArgs = ['ingest', locomo, '--format', 'locomo', '--sample', sample, '--store', store];
  const turns = new Set(Object.keys(s.conversation).filter((k) => /^session_\d+$/.test(k)).flatMap((k) => s.conversation[k].map((t) => t.dia_id)));
  questions = s.qa
    .filter((q) => q.category !== 5)
    .map((q) => ({
      question: q.question,
      category: q.category,
      evidence: [...new Set((q.evidence ?? []).flatMap((e) => e.split(/[;\s]+/)).map((e) => /^D(\d+):(\d+)$/.exec(e)).filter(Boolean).map((m) => `D${Number(m[1])}:${Number(m[2])}`))].filter((d) => turns.has(d)),
    }))
    .filter((q) => q.evidence.length > 0);
} else {
  console.log(`LoCoMo not found at ${locomo}; using the shipped sample conversation`);
  namespace = 'sample';
  ingestArgs = ['ingest', join(root, 'examples', 'sample-conversation.jsonl'), '--format', 'jsonl', '--store', store, '--namespace', namespace];
  questions = readFileSync(join(root, 'examples', 'sample-questions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

const ingest = run(ingestArgs);
const summary = JSON.parse(ingest.out);
console.log(`ingest: ${summary.ingested} observations, ${summary.namespaceTotals.edges} edges ${JSON.stringify(summary.namespaceTotals.edgesByView)}, ${summary.seconds} s in the write path (${summary.turnsPerSecond} turns/s), ${(ingest.ms / 1000).toFixed(2)} s with process start and model load`);

const qfile = join(work, 'questions.jsonl');
writeFileSync(qfile, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
const recall = run(['recall', '--questions', qfile, '--store', store, '--namespace', namespace, '--k', '10', '--json']);
const results = recall.out.trim().split('\n').map((l) => JSON.parse(l));
let sum = 0;
const lat = [];
for (const r of results) {
  const gold = new Set(r.meta.evidence);
  const got = new Set(r.memories.slice(0, 10).map((m) => m.provenance.turnId));
  sum += [...gold].filter((g) => got.has(g)).length / gold.size;
  lat.push(r.trace.timings.totalMs);
}
lat.sort((a, b) => a - b);
const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
console.log(`recall: ${results.length} questions, evidence recall@10 = ${((100 * sum) / results.length).toFixed(1)}%, latency p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms`);
const first = results[0];
console.log(`\nexample: "${first.question}"`);
for (const m of first.memories.slice(0, 3)) console.log(`  [${m.score.toFixed(3)}] ${m.provenance.turnId ?? ''} ${m.text}`);
console.log(`  trace: views ${first.trace.routing.active.join(',')}, stop ${first.trace.stopReason}, ${first.trace.limits.controllerCalls} System-One calls`);
