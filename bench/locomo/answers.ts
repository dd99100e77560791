/**
 * Optional answer-level evaluation of the LoCoMo harness (SPEC 10, issue 4 item 5): for each
 * question, a system's top-K retrieved turns go to System Two through the one answer prompt
 * (`buildAnswerPrompt`, the same template for every system), in a single attempt; a judge model
 * then labels the answer CORRECT or WRONG against the gold answer (LLM-as-a-judge, generous on
 * paraphrase and date formats, as in the paper / Mem0). Adversarial questions (category 5) are
 * never sent to the judge: they are scored by {@link adversarialCorrect}. The gold answer is
 * only ever shown to the judge, never used to choose among attempts. Needs an OpenAI-compatible
 * endpoint; not run in CI. Node-only.
 *
 * @module
 */
import { mkdir, rm, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { invalidOption, isJevMemError, throwIfAborted } from '../../src/errors.js';
import { LOCOMO_DEV, type LocomoConversation, type LocomoQuestion } from '../../src/formats/locomo.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import { createSystemTwo } from '../../src/system-two/client.js';
import type { ChatMessage, ChatUsage, EvidenceItem, SystemTwoOptions } from '../../src/system-two/types.js';
import { bm25Hits, buildConversationIndex, denseHits, hybridRanking, type ConversationIndex, type PreparedQuery } from './baselines.js';
import { defaultLocomoPath, evaluable, loadLocomo, selectRun, splitOf, type SplitName } from '../lib/data.js';
import { FlatLearnedTrainer, rankFlatLearned } from './flat-learned.js';
import { buildMiniSearchDefault, buildOramaIndex, miniSearchDefaultRanking, oramaHybridRanking, tuneOramaOn, type OramaHybridSettings } from './peers.js';
import { buildJevMemory, JEV_BACKEND, recallJev, type JevSystemName } from '../lib/jev.js';
import { OVERALL_CATEGORIES, summarize, type LatencySummary, type RankedItem } from '../lib/metrics.js';
import { SYSTEM_NAMES, type SystemName } from './results.js';

/** Default number of retrieved memories given to System Two. */
export const ANSWER_K = 10;

/** Output file names of {@link writeAnswerOutputs}. */
export const ANSWER_OUTPUT_FILES = Object.freeze({ json: 'answers.json', markdown: 'answers.md' });

/** Phrases that make an adversarial (category 5) answer correct, matched case-insensitively. */
export const ADVERSARIAL_PHRASES: readonly string[] = Object.freeze(['not mentioned', 'no information']);

/**
 * The judge's system message: the Mem0-style LLM-as-a-judge instruction (generous on paraphrase
 * and on date formats), asking for exactly one word, CORRECT or WRONG.
 */
export const JUDGE_SYSTEM_PROMPT = [
  'You grade answers to questions about a past conversation. You are given a question, a gold (ground-truth) answer and a generated answer.',
  'Be generous: the generated answer is CORRECT when it states the same fact as the gold answer, even in other words, in a longer sentence, or with extra detail that does not contradict it.',
  'For questions about time, the generated answer is CORRECT when it refers to the same date or period as the gold answer, whatever the format (e.g. "7 May 2023", "May 7th", "2023-05-07"), or when a relative expression resolves to it.',
  'Otherwise it is WRONG, including when it says the information is not available.',
  'Reply with exactly one word: CORRECT or WRONG.',
].join('\n');

/** Builds the judge prompt of one question (`[system, user]`). */
export function buildJudgePrompt(question: string, gold: string, answer: string): ChatMessage[] {
  return [
    { role: 'system', content: JUDGE_SYSTEM_PROMPT },
    { role: 'user', content: `Question: ${question}\nGold answer: ${gold}\nGenerated answer: ${answer}\n\nLabel (CORRECT or WRONG):` },
  ];
}

/**
 * Reads a judge reply strictly: the whole reply, trimmed, must be `CORRECT` or `WRONG` (any case,
 * optionally in quotes, `**` or with a final period), or a JSON object `{"label": "CORRECT"|"WRONG"}`.
 * @returns the verdict, or `'unparsed'` for anything else (scored as wrong and reported).
 */
export function parseVerdict(reply: string): 'correct' | 'wrong' | 'unparsed' {
  const word = (s: string): 'correct' | 'wrong' | undefined => {
    const m = /^["'*`\s]*(correct|wrong)["'*`\s]*\.?["'*`\s]*$/i.exec(s.trim());
    return m ? ((m[1] as string).toLowerCase() as 'correct' | 'wrong') : undefined;
  };
  const direct = word(reply);
  if (direct) return direct;
  try {
    const json: unknown = JSON.parse(reply.trim());
    if (typeof json === 'object' && json !== null && typeof (json as { label?: unknown }).label === 'string') return word((json as { label: string }).label) ?? 'unparsed';
  } catch {
    // not JSON
  }
  return 'unparsed';
}

/**
 * The documented adversarial rule (category 5): the answer is correct when it says the
 * information is absent, i.e. contains one of {@link ADVERSARIAL_PHRASES} (case-insensitive).
 */
export function adversarialCorrect(answer: string): boolean {
  const a = answer.toLowerCase();
  return ADVERSARIAL_PHRASES.some((p) => a.includes(p));
}

/** Options of {@link runAnswerEval}. */
export interface AnswerEvalOptions {
  /** Systems to evaluate (any of the harness's {@link SYSTEM_NAMES}). @default ['jev-mem', 'bm25', 'hybrid'] */
  systems?: readonly SystemName[];
  /** Split of the LoCoMo file. @default 'test' */
  split?: SplitName;
  /** Retrieved memories per question given to System Two. @default {@link ANSWER_K} */
  k?: number;
  /** The System Two that answers (one call per question and system). */
  systemTwo: SystemTwoOptions;
  /** The judge endpoint. @default `systemTwo` */
  judge?: SystemTwoOptions;
  /** At most this many questions per conversation (file order), for a cheap run. */
  limit?: number;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Path of `locomo10.json`. @default `<repo>/../shared/data/locomo10.json` */
  dataPath?: string;
  /** Conversations to use instead of the file's split (tests; their questions are filtered by evidence). */
  conversations?: readonly LocomoConversation[];
  /** Encoder of the dense systems and jev-mem. @default the default Node encoder */
  encoder?: Encoder;
  /** System-One backend of the jev-mem systems. @default 'local' */
  systemOne?: string;
  /** The command line, recorded in answers.json. */
  command?: string;
  /** Cancels the run (JevMemError `ABORTED`). */
  signal?: AbortSignal;
}

/** One question answered and judged. */
export interface AnsweredQuestion {
  id: string;
  category: number;
  question: string;
  gold: string;
  /** Turn ids given to System Two, in rank order. */
  retrieved: string[];
  answer: string;
  /** `correct` / `wrong` from the judge or the adversarial rule; `unparsed` (a judge reply that is neither; counts as wrong); `error` (a call failed; counts as wrong). */
  verdict: 'correct' | 'wrong' | 'unparsed' | 'error';
  /** How the verdict was reached. */
  by: 'judge' | 'adversarial-rule' | 'error';
  /** The judge's raw reply (judged questions). */
  judgeReply?: string;
  error?: string;
  /** ms of the System-Two answer call. */
  answerMs?: number;
  /** ms of the judge call. */
  judgeMs?: number;
}

/** Accuracy of a group of questions: correct / n (0 when n = 0). */
export interface Accuracy {
  n: number;
  correct: number;
  /** In [0, 1]. */
  accuracy: number;
}

/** Token counts summed over calls (only calls whose server reported usage). */
export interface TokenTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Result of one system. */
export interface AnswerSystemResult {
  name: SystemName;
  status: 'ok' | 'failed';
  error?: string;
  /** Judge accuracy per category '1'..'5' (5 by the adversarial rule). */
  byCategory: Record<string, Accuracy>;
  /** Categories 1-4 together. */
  overall: Accuracy;
  usage: { answer: TokenTotals; judge: TokenTotals };
  latencyMs: { answer?: LatencySummary; judge?: LatencySummary };
  questions: AnsweredQuestion[];
}

/** Everything {@link runAnswerEval} measured (answers.json). */
export interface AnswerEvalResults {
  format: 'jev-mem/bench-answers';
  version: 1;
  startedAt: string;
  finishedAt: string;
  command: string;
  settings: { split: SplitName; k: number; limit: number | null; systems: SystemName[]; answerModel: string; judgeModel: string; questions: number };
  systems: Partial<Record<SystemName, AnswerSystemResult>>;
  notes: string[];
}

function describe(e: unknown): string {
  if (isJevMemError(e)) return `${e.code}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

function isJev(s: SystemName): s is JevSystemName {
  return s in JEV_BACKEND;
}

function addUsage(t: TokenTotals, u: ChatUsage | undefined): void {
  if (!u) return;
  t.calls += 1;
  t.promptTokens += u.promptTokens;
  t.completionTokens += u.completionTokens;
  t.totalTokens += u.totalTokens;
}

function accuracy(qs: readonly AnsweredQuestion[]): Accuracy {
  const correct = qs.filter((q) => q.verdict === 'correct').length;
  return { n: qs.length, correct, accuracy: qs.length > 0 ? correct / qs.length : 0 };
}

/** Turns ranked items (turn ids, or groups of them) into the evidence of the answer prompt. */
function evidenceOf(conv: LocomoConversation, ranked: readonly RankedItem[], k: number): { ids: string[]; items: EvidenceItem[] } {
  const byTurn = new Map(conv.observations.map((o) => [o.turnId ?? '', o]));
  const ids: string[] = [];
  for (const item of ranked.slice(0, k)) for (const id of typeof item === 'string' ? [item] : item) if (!ids.includes(id)) ids.push(id);
  const items: EvidenceItem[] = [];
  ids.forEach((id, i) => {
    const o = byTurn.get(id);
    if (!o) return;
    const e: EvidenceItem = { id, text: o.text, score: 1 / (i + 1) };
    if (o.observedAt !== undefined) e.observedAt = o.observedAt instanceof Date ? o.observedAt.toISOString() : typeof o.observedAt === 'number' ? new Date(o.observedAt).toISOString() : o.observedAt;
    if (o.speaker !== undefined) e.speaker = o.speaker;
    items.push(e);
  });
  return { ids, items };
}

/** A judge call with the judge prompt, through the System-Two client (its retries, timeout, usage). */
async function judgeOnce(judge: SystemTwoOptions, messages: ChatMessage[], signal: AbortSignal | undefined): Promise<{ text: string; usage?: ChatUsage; latencyMs: number }> {
  const o: SystemTwoOptions = { ...judge };
  if (judge.complete) {
    const inner = judge.complete;
    o.complete = (_m, opts) => inner(messages, opts);
  } else {
    const user = judge.transformBody;
    // The client always builds the answer prompt; the judge swaps in its own messages.
    o.transformBody = (body) => ({ ...(user ? user(body) : body), messages });
  }
  const r = await createSystemTwo(o).answer({ query: 'judge', evidence: [], ...(signal ? { signal } : {}) });
  return r.usage ? { text: r.text, usage: r.usage, latencyMs: r.latencyMs } : { text: r.text, latencyMs: r.latencyMs };
}

/**
 * Runs the answer-level evaluation: per conversation of the split, each system retrieves its
 * top `k` turns for every evaluable question (the harness's ranking functions; the peers `orama`,
 * `orama-tuned` and `minisearch-default` through bench/locomo/peers.ts, `orama-tuned` with the
 * settings its dev-split grid picks, `failed` when no dev conversation is given), System Two
 * answers once from the shared answer prompt, and the judge labels the answer once
 * (categories 1-4); category 5 is scored by {@link adversarialCorrect} without a judge call.
 * A failed call marks that question `error` (wrong); a system that cannot be built is `failed`.
 * @throws JevMemError `INVALID_OPTION` (k, limit, systems, System-Two options), `NOT_FOUND`
 *   (data file), `ABORTED`.
 */
export async function runAnswerEval(o: AnswerEvalOptions): Promise<AnswerEvalResults> {
  const log = o.log ?? (() => undefined);
  const startedAt = new Date();
  const k = o.k ?? ANSWER_K;
  if (!Number.isInteger(k) || k < 1) throw invalidOption('k', `expected an integer ≥ 1, got ${String(k)}`);
  if (o.limit !== undefined && (!Number.isInteger(o.limit) || o.limit < 1)) throw invalidOption('limit', `expected an integer ≥ 1, got ${String(o.limit)}`);
  const systems = [...(o.systems ?? (['jev-mem', 'bm25', 'hybrid'] as const))];
  for (const s of systems) if (!(SYSTEM_NAMES as readonly string[]).includes(s)) throw invalidOption('systems', `unknown system ${JSON.stringify(s)}; expected ${SYSTEM_NAMES.join(', ')}`);
  const split = o.split ?? 'test';
  const answerer = createSystemTwo(o.systemTwo); // validates the options up front
  const judge = o.judge ?? o.systemTwo;
  createSystemTwo(judge);

  const all = o.conversations ? [...o.conversations] : (await loadLocomo(o.dataPath ?? defaultLocomoPath())).conversations;
  const selection = o.conversations
    ? all.map((conversation) => ({ conversation, questions: evaluable(conversation.questions) }))
    : selectRun({ path: '', sha256: '', conversations: all }, split, false);
  for (const sel of selection) if (o.limit !== undefined) sel.questions = sel.questions.slice(0, o.limit);

  const out = new Map<SystemName, { questions: AnsweredQuestion[]; answer: TokenTotals; judge: TokenTotals; answerMs: number[]; judgeMs: number[]; error?: string }>();
  for (const s of systems) out.set(s, { questions: [], answer: { calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 }, judge: { calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 }, answerMs: [], judgeMs: [] });

  const answerAndJudge = async (s: SystemName, conv: LocomoConversation, q: LocomoQuestion, ranked: readonly RankedItem[]): Promise<void> => {
    const acc = out.get(s)!;
    const { ids, items } = evidenceOf(conv, ranked, k);
    const rec: AnsweredQuestion = { id: q.id, category: q.category, question: q.question, gold: q.answer, retrieved: ids, answer: '', verdict: 'error', by: 'error' };
    acc.questions.push(rec);
    try {
      const a = await answerer.answer({ query: q.question, evidence: items, ...(o.signal ? { signal: o.signal } : {}) });
      rec.answer = a.text;
      rec.answerMs = a.latencyMs;
      acc.answerMs.push(a.latencyMs);
      addUsage(acc.answer, a.usage);
    } catch (e) {
      if (isJevMemError(e) && e.code === 'ABORTED') throw e;
      rec.error = `answer: ${describe(e)}`;
      return;
    }
    if (q.category === 5) {
      rec.verdict = adversarialCorrect(rec.answer) ? 'correct' : 'wrong';
      rec.by = 'adversarial-rule';
      return;
    }
    try {
      const j = await judgeOnce(judge, buildJudgePrompt(q.question, q.answer, rec.answer), o.signal);
      rec.judgeReply = j.text;
      rec.judgeMs = j.latencyMs;
      acc.judgeMs.push(j.latencyMs);
      addUsage(acc.judge, j.usage);
      rec.verdict = parseVerdict(j.text);
      rec.by = 'judge';
    } catch (e) {
      if (isJevMemError(e) && e.code === 'ABORTED') throw e;
      rec.error = `judge: ${describe(e)}`;
    }
  };

  let encoder: Encoder | undefined;
  const ownEncoder = o.encoder === undefined;
  const backends = new Map<'configured' | 'heuristic', SystemOneBackend>();
  let storeRoot: string | undefined;
  try {
    encoder = o.encoder ?? (await createDefaultNodeEncoder());
    const flat = systems.filter((s) => !isJev(s));
    const indexes = new Map<string, ConversationIndex>();
    if (flat.length > 0) for (const sel of selection) indexes.set(sel.conversation.sampleId, await buildConversationIndex(sel.conversation, encoder));
    let trainer: FlatLearnedTrainer | undefined;
    if (systems.includes('flat-learned')) {
      const dev = all.filter((c) => LOCOMO_DEV.includes(c.sampleId));
      for (const c of dev) if (!indexes.has(c.sampleId)) indexes.set(c.sampleId, await buildConversationIndex(c, encoder));
      trainer = await FlatLearnedTrainer.create(dev, encoder, indexes);
    }
    // orama-tuned: the same dev-split grid as bench locomo (bench/locomo/peers.ts), then fixed.
    let oramaTuned: Required<OramaHybridSettings> | undefined;
    if (systems.includes('orama-tuned')) {
      const dev = all.filter((c) => LOCOMO_DEV.includes(c.sampleId)).map((conversation) => ({ conversation, questions: evaluable(conversation.questions) }));
      if (dev.some((d) => d.questions.some((q) => q.category >= 1 && q.category <= 4))) {
        const { chosen } = await tuneOramaOn(dev, encoder, new Map());
        oramaTuned = { similarity: chosen.similarity, hybridWeights: chosen.hybridWeights };
        log(`answers: orama-tuned: similarity ${chosen.similarity}, hybridWeights text ${chosen.hybridWeights.text} / vector ${chosen.hybridWeights.vector} (chosen on ${dev.length} development conversations)`);
      } else out.get('orama-tuned')!.error = 'no development-split conversation (conv-26, 30, 41, 42, 43) to tune Orama on';
    }
    for (const s of systems.filter(isJev)) {
      const kind = JEV_BACKEND[s];
      if (backends.has(kind)) continue;
      try {
        backends.set(kind, await createSystemOneFromName(kind === 'configured' ? (o.systemOne ?? 'local') : 'heuristic', { env: process.env }));
      } catch (e) {
        for (const v of systems.filter((x) => isJev(x) && JEV_BACKEND[x] === kind)) out.get(v)!.error = `System One did not load: ${describe(e)}`;
      }
    }
    storeRoot = await mkdtemp(join(tmpdir(), 'jev-mem-answers-'));

    for (const sel of selection) {
      throwIfAborted(o.signal);
      const conv = sel.conversation;
      log(`answers: ${conv.sampleId}: ${sel.questions.length} questions × ${systems.length} systems`);
      if (flat.length > 0) {
        const index = indexes.get(conv.sampleId)!;
        const model = trainer?.modelFor(conv.sampleId).model;
        const oi = systems.includes('orama') || oramaTuned ? await buildOramaIndex(index.docs, index.vectors, encoder.dimension) : undefined;
        const mini = systems.includes('minisearch-default') ? buildMiniSearchDefault(index.docs) : undefined;
        for (const q of sel.questions) {
          const [vector] = await encoder.embed([q.question]);
          const pq: PreparedQuery = { text: q.question, vector: vector as Float32Array };
          for (const s of flat) {
            let ranked: string[];
            if (s === 'bm25') ranked = bm25Hits(index, q.question, k).map((h) => h.id);
            else if (s === 'dense') ranked = denseHits(index, pq.vector, k).map((h) => h.id);
            else if (s === 'hybrid') ranked = hybridRanking(index, pq, k);
            else if (s === 'flat-learned' && model) ranked = rankFlatLearned(model, index, pq, k);
            else if (s === 'orama' && oi) ranked = await oramaHybridRanking(oi, q.question, pq.vector, k);
            else if (s === 'orama-tuned' && oi && oramaTuned) ranked = await oramaHybridRanking(oi, q.question, pq.vector, k, oramaTuned);
            else if (s === 'minisearch-default' && mini) ranked = miniSearchDefaultRanking(mini, q.question, k);
            else continue;
            await answerAndJudge(s, conv, q, ranked);
          }
        }
      }
      for (const [kind, b] of backends) {
        const variants = systems.filter((s): s is JevSystemName => isJev(s) && JEV_BACKEND[s] === kind && out.get(s)!.error === undefined);
        if (variants.length === 0) continue;
        const store = join(storeRoot, `${kind}-${conv.sampleId}`);
        const build = await buildJevMemory(conv, { encoder, backend: b, store, vectorIndex: 'flat', ...(o.signal ? { signal: o.signal } : {}) }).catch((e: unknown) => {
          if (isJevMemError(e) && e.code === 'ABORTED') throw e;
          for (const v of variants) out.get(v)!.error = `${conv.sampleId}: ${describe(e)}`;
          return undefined;
        });
        if (!build) continue;
        try {
          for (const s of variants) {
            for (const q of sel.questions) {
              const r = await recallJev(build.memory, q.question, s, k, o.signal);
              await answerAndJudge(s, conv, q, r.ranked);
            }
          }
        } finally {
          await build.memory.close().catch(() => undefined);
          await rm(store, { recursive: true, force: true }).catch(() => undefined);
        }
      }
    }
  } finally {
    for (const b of backends.values()) await b.close().catch(() => undefined);
    if (ownEncoder) await encoder?.close?.().catch(() => undefined);
    if (storeRoot) await rm(storeRoot, { recursive: true, force: true }).catch(() => undefined);
  }

  const results: AnswerEvalResults['systems'] = {};
  for (const s of systems) {
    const a = out.get(s)!;
    const byCategory: Record<string, Accuracy> = {};
    for (const c of [1, 2, 3, 4, 5]) byCategory[String(c)] = accuracy(a.questions.filter((q) => q.category === c));
    const r: AnswerSystemResult = {
      name: s,
      status: a.error === undefined ? 'ok' : 'failed',
      byCategory,
      overall: accuracy(a.questions.filter((q) => OVERALL_CATEGORIES.includes(q.category))),
      usage: { answer: a.answer, judge: a.judge },
      latencyMs: {
        ...(a.answerMs.length > 0 ? { answer: summarize(a.answerMs) } : {}),
        ...(a.judgeMs.length > 0 ? { judge: summarize(a.judgeMs) } : {}),
      },
      questions: a.questions,
    };
    if (a.error !== undefined) r.error = a.error;
    results[s] = r;
  }
  return {
    format: 'jev-mem/bench-answers',
    version: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: o.command ?? '',
    settings: {
      split: o.conversations ? (splitOf(selection[0]?.conversation.sampleId ?? '') ?? split) : split,
      k,
      limit: o.limit ?? null,
      systems,
      answerModel: o.systemTwo.model,
      judgeModel: judge.model,
      questions: selection.reduce((n, s) => n + s.questions.length, 0),
    },
    systems: results,
    notes: [
      'one answer prompt (buildAnswerPrompt) for every system; one System-Two call per question and system; no retries on content, no choice among attempts.',
      `System Two gets the top ${k} retrieved turns of the system (text, date, speaker).`,
      'categories 1-4: one judge call (CORRECT / WRONG, generous on paraphrase and date formats); a reply that is not exactly one of the two words is "unparsed" and counts as wrong.',
      `category 5 (adversarial): never judged; correct when the answer contains ${ADVERSARIAL_PHRASES.map((p) => `"${p}"`).join(' or ')} (case-insensitive).`,
      'overall = categories 1-4; a failed call counts as wrong (verdict "error").',
    ],
  };
}

function pct(a: Accuracy): string {
  return a.n > 0 ? `${(a.accuracy * 100).toFixed(1)}` : '–';
}

/** Markdown table of an answer run: accuracy (%) per category and overall, tokens, p50 latency. */
export function renderAnswersMarkdown(r: AnswerEvalResults): string {
  const lines = [
    `# Answer-level evaluation (${r.settings.split}, K = ${r.settings.k}, answer model ${r.settings.answerModel}, judge ${r.settings.judgeModel})`,
    '',
    '| system | 1 multi-hop | 2 temporal | 3 open-domain | 4 single-hop | overall 1-4 | 5 adversarial | answer tokens | answer p50 ms |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of Object.values(r.systems)) {
    if (!s) continue;
    const c = (n: number): string => pct(s.byCategory[String(n)] as Accuracy);
    lines.push(
      `| ${s.name}${s.status === 'failed' ? ' (failed)' : ''} | ${c(1)} | ${c(2)} | ${c(3)} | ${c(4)} | ${pct(s.overall)} (n=${s.overall.n}) | ${c(5)} | ${s.usage.answer.totalTokens} | ${s.latencyMs.answer ? s.latencyMs.answer.p50.toFixed(0) : '–'} |`,
    );
  }
  lines.push('', ...r.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** Writes answers.json and answers.md under `dir` (created); returns their paths. */
export async function writeAnswerOutputs(r: AnswerEvalResults, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const json = resolve(dir, ANSWER_OUTPUT_FILES.json);
  const md = resolve(dir, ANSWER_OUTPUT_FILES.markdown);
  await writeFile(json, `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(md, renderAnswersMarkdown(r));
  return [json, md];
}
