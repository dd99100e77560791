/**
 * The LoCoMo retrieval benchmark (SPEC 10, issue 4): builds memory per conversation through the
 * public API, asks every evaluable question of the run to every selected system within that
 * conversation, and measures evidence recall@K / all-evidence hit@K per category and split,
 * plus efficiency (model load, build time, recall latency, System-One calls and time per write
 * and per query, peak RSS, stored bytes per node). Node-only.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { DEFAULT_PARAMETERS } from '../../src/config.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError, throwIfAborted } from '../../src/errors.js';
import { LOCOMO_DEV, type LocomoQuestion } from '../../src/formats/locomo.js';
import type { MemoryOptions } from '../../src/memory.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import { bm25Hits, buildConversationIndex, denseHits, hybridRanking, type ConversationIndex, type PreparedQuery } from './baselines.js';
import { defaultLocomoPath, loadLocomo, repoRoot, selectRun, type Selection, type SplitName } from '../lib/data.js';
import { FLAT_FEATURES, POOL } from './flat-features.js';
import { buildMiniSearchDefault, buildOramaIndex, miniSearchDefaultRanking, ORAMA_DEFAULTS, oramaHybridRanking, tuneOramaOn, type OramaIndex } from './peers.js';
import { FLAT_L2, FLAT_TRAIN_CATEGORIES, FlatLearnedTrainer, rankFlatLearned } from './flat-learned.js';
import { buildJevMemory, JEV_BACKEND, recallJev, type JevBuild, type JevStore, type JevSystemName } from '../lib/jev.js';
import { aggregate, KS, scoreQuestion, summarize, type QuestionScore, type RankedItem } from '../lib/metrics.js';
import { gitInfo, machineInfo, RssSampler } from '../lib/resources.js';
import { SYSTEM_DESCRIPTIONS, SYSTEM_NAMES, type BuildRecord, type BuildSummary, type LocomoResults, type OramaSettings, type SystemName, type SystemResult } from './results.js';
import { createRequire } from 'node:module';

/** Largest K of the protocol: every system returns this many items per question. */
const MAX_K = Math.max(...KS);

const JEV_SYSTEMS: readonly JevSystemName[] = ['jev-mem', 'no-graph', 'no-routing', 'no-stop', 'no-hop', 'no-order', 'no-system-one'];

function isJev(s: SystemName): s is JevSystemName {
  return (JEV_SYSTEMS as readonly string[]).includes(s);
}

/** Options of {@link runLocomoBench}. */
export interface LocomoBenchOptions {
  /** Path of `locomo10.json`. @default `<repo>/../shared/data/locomo10.json` */
  dataPath?: string;
  /** Split to evaluate. @default 'all' */
  split?: SplitName;
  /** One conversation (conv-26), the first 6 evaluable questions of each category. @default false */
  quick?: boolean;
  /** Systems to run. @default every system ({@link SYSTEM_NAMES}) */
  systems?: readonly SystemName[];
  /** System-One backend of jev-mem and its read ablations (`createSystemOneFromName`). @default 'local' */
  systemOne?: string;
  /** Base URL of a remote System One. */
  systemOneBaseURL?: string;
  /** jev-mem's store (`--store`). @default createNodeMemory's default */
  store?: JevStore;
  /** Vector index of the memories. @default 'flat' */
  vectorIndex?: MemoryOptions['vectorIndex'];
  /** The command line, recorded in results.json. */
  command?: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Folder under which temporary stores are made. @default os.tmpdir() */
  tmpDir?: string;
  /** Cancels the run (JevMemError `ABORTED`). */
  signal?: AbortSignal;
}

interface Accumulator {
  scores: Map<string, QuestionScore[]>;
  perConversation: Map<string, QuestionScore[]>;
  latencies: number[];
  s1: { calls: number; fallbacks: number; ms: number; n: number };
  stopReasons: Record<string, number>;
  error?: string;
}

function describe(e: unknown): string {
  if (isJevMemError(e)) return `${e.code}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function buildSummary(backend: string, modelId: string, records: BuildRecord[]): BuildSummary {
  const observations = records.reduce((a, r) => a + r.observations, 0);
  const nodes = records.reduce((a, r) => a + r.nodes, 0);
  const sum = (f: (r: BuildRecord) => number): number => records.reduce((a, r) => a + f(r), 0);
  const storageKnown = records.every((r) => r.storageBytes !== null);
  return {
    backend,
    modelId,
    perConversation: records,
    totalMs: round(sum((r) => r.ms)),
    observations,
    perWrite: {
      calls: observations > 0 ? sum((r) => r.systemOne.calls) / observations : 0,
      requests: observations > 0 ? sum((r) => r.systemOne.requests) / observations : 0,
      ms: observations > 0 ? sum((r) => r.systemOne.ms) / observations : 0,
      errors: observations > 0 ? sum((r) => r.systemOne.errors) / observations : 0,
    },
    storageBytesPerNode: storageKnown && nodes > 0 ? sum((r) => r.storageBytes as number) / nodes : null,
    exportBytesPerNode: nodes > 0 ? sum((r) => r.exportBytes) / nodes : 0,
    edgesPerNode: nodes > 0 ? sum((r) => r.edges) / nodes : 0,
  };
}

function buildRecord(sampleId: string, b: JevBuild): BuildRecord {
  return {
    sampleId,
    observations: b.observations,
    ms: round(b.buildMs),
    perSecond: round(b.buildMs > 0 ? (b.observations * 1000) / b.buildMs : 0, 1),
    systemOne: { calls: b.writeSystemOne.calls, requests: b.writeSystemOne.requests, ms: round(b.writeSystemOne.ms), errors: b.writeSystemOne.errors },
    nodes: b.nodes,
    edges: b.edges,
    storageBytes: b.storageBytes ?? null,
    exportBytes: b.exportBytes,
  };
}

/**
 * Runs the benchmark and returns every figure (see {@link LocomoResults}). Systems that cannot
 * run (e.g. the System-One model fails to load) are reported as `failed` with the error; the
 * others still run.
 * @throws JevMemError `NOT_FOUND` (data file missing or incomplete), `INVALID_OPTION`, `ABORTED`.
 */
export async function runLocomoBench(o: LocomoBenchOptions = {}): Promise<LocomoResults> {
  const log = o.log ?? (() => undefined);
  const startedAt = new Date();
  const t0 = performance.now();
  const rss = new RssSampler().start();
  const systems = [...(o.systems ?? SYSTEM_NAMES)];
  const split = o.split ?? 'all';
  const quick = o.quick === true;
  const systemOneName = o.systemOne ?? 'local';
  const vectorIndex = o.vectorIndex ?? 'flat';
  const data = await loadLocomo(o.dataPath ?? defaultLocomoPath());
  const selection = selectRun(data, split, quick);
  const notes: string[] = [];
  const acc = new Map<SystemName, Accumulator>(systems.map((s) => [s, { scores: new Map(), perConversation: new Map(), latencies: [], s1: { calls: 0, fallbacks: 0, ms: 0, n: 0 }, stopReasons: {} }]));
  const record = (s: SystemName, sel: Selection, q: LocomoQuestion, ranked: RankedItem[], latencyMs: number): void => {
    const a = acc.get(s) as Accumulator;
    const score = scoreQuestion(ranked.slice(0, MAX_K), q.evidence, q.category);
    const bySplit = a.scores.get(sel.split) ?? [];
    bySplit.push(score);
    a.scores.set(sel.split, bySplit);
    const byConv = a.perConversation.get(sel.conversation.sampleId) ?? [];
    byConv.push(score);
    a.perConversation.set(sel.conversation.sampleId, byConv);
    a.latencies.push(latencyMs);
  };
  const fail = (s: SystemName, why: string): void => {
    const a = acc.get(s);
    if (a && a.error === undefined) {
      a.error = why;
      log(`bench: ${s} failed: ${why}`);
    }
  };

  let encoder: Encoder | undefined;
  let configured: SystemOneBackend | undefined;
  let heuristic: SystemOneBackend | undefined;
  let storeRoot: string | undefined;
  const builds: { configured: BuildRecord[]; heuristic: BuildRecord[] } = { configured: [], heuristic: [] };
  let parameters: Record<string, unknown> | null = null;
  try {
    // ---- models (load time apart from build time) ---------------------------------------------
    let t = performance.now();
    encoder = await createDefaultNodeEncoder();
    const encoderMs = performance.now() - t;
    let systemOneMs: number | null = null;
    let heuristicMs: number | null = null;
    const wantConfigured = systems.filter((s) => isJev(s) && JEV_BACKEND[s] === 'configured');
    if (wantConfigured.length > 0) {
      t = performance.now();
      try {
        configured = await createSystemOneFromName(systemOneName, { baseURL: o.systemOneBaseURL, env: process.env });
        systemOneMs = performance.now() - t;
      } catch (e) {
        for (const s of wantConfigured) fail(s, `System One ${JSON.stringify(systemOneName)} did not load: ${describe(e)}`);
      }
    }
    if (systems.includes('no-system-one')) {
      t = performance.now();
      heuristic = await createSystemOneFromName('heuristic', { env: process.env });
      heuristicMs = performance.now() - t;
    }
    log(`bench: models loaded (encoder ${encoderMs.toFixed(0)} ms${systemOneMs !== null ? `, System One ${systemOneMs.toFixed(0)} ms` : ''})`);

    // ---- flat indexes of the evaluated conversations -------------------------------------------
    const indexes = new Map<string, ConversationIndex>();
    const baselineBuildMs = { lexical: 0, embed: 0 };
    const wantFlat = systems.some((s) => !isJev(s));
    if (wantFlat) {
      for (const sel of selection) {
        const index = await buildConversationIndex(sel.conversation, encoder);
        indexes.set(sel.conversation.sampleId, index);
        baselineBuildMs.lexical += index.lexicalMs;
        baselineBuildMs.embed += index.embedMs;
      }
    }
    // ---- peers (issue 16): Orama over the same vectors, MiniSearch with its defaults -------------
    const wantOrama = systems.includes('orama') || systems.includes('orama-tuned');
    const oramaIndexes = new Map<string, OramaIndex>();
    const miniSearches = new Map<string, ReturnType<typeof buildMiniSearchDefault>>();
    const peerBuildMs = { orama: 0, minisearch: 0 };
    for (const [sid, index] of indexes) {
      if (wantOrama) {
        const oi = await buildOramaIndex(index.docs, index.vectors, encoder.dimension);
        oramaIndexes.set(sid, oi);
        peerBuildMs.orama += oi.insertMs;
      }
      if (systems.includes('minisearch-default')) {
        t = performance.now();
        miniSearches.set(sid, buildMiniSearchDefault(index.docs));
        peerBuildMs.minisearch += performance.now() - t;
      }
    }
    let oramaSettings: OramaSettings | undefined;
    if (wantOrama) {
      const version = (createRequire(import.meta.url)('@orama/orama/package.json') as { version: string }).version;
      oramaSettings = { version, defaults: { similarity: ORAMA_DEFAULTS.similarity, hybridWeights: { ...ORAMA_DEFAULTS.hybridWeights } } };
    }
    if (systems.includes('orama-tuned') && oramaSettings) {
      // The grid runs on the development split only (categories 1-4); a quick run tunes on its own
      // (development) questions so that it stays quick.
      t = performance.now();
      const tuneSel = quick ? selection : selectRun(data, 'dev', false);
      const tuned = await tuneOramaOn(tuneSel, encoder, oramaIndexes);
      const c = tuned.chosen;
      oramaSettings.tuned = { tunedOn: tuneSel.map((s) => s.conversation.sampleId), questions: tuned.questions, chosen: c, grid: tuned.grid, ms: round(performance.now() - t) };
      log(`bench: orama-tuned: similarity ${c.similarity}, hybridWeights text ${c.hybridWeights.text} / vector ${c.hybridWeights.vector} (dev R@10 ${(c.recall10 * 100).toFixed(1)} over ${tuned.questions} questions; defaults ${((tuned.grid.find((g) => g.similarity === 0.8 && g.hybridWeights.text === 0.5)?.recall10 ?? Number.NaN) * 100).toFixed(1)})`);
    }
    let trainer: FlatLearnedTrainer | undefined;
    const flatTimes = { poolsMs: 0, trainMs: 0 };
    if (systems.includes('flat-learned')) {
      t = performance.now();
      trainer = await FlatLearnedTrainer.create(
        data.conversations.filter((c) => LOCOMO_DEV.includes(c.sampleId)),
        encoder,
        indexes,
      );
      flatTimes.poolsMs = performance.now() - t;
    }
    storeRoot = await mkdtemp(join(o.tmpDir ?? tmpdir(), 'jev-mem-bench-'));

    // ---- per conversation ------------------------------------------------------------------------
    for (const sel of selection) {
      throwIfAborted(o.signal);
      const conv = sel.conversation;
      const id = conv.sampleId;
      log(`bench: ${id} (${sel.split}): ${conv.observations.length} turns, ${sel.questions.length} questions`);
      if (wantFlat) {
        const index = indexes.get(id) as ConversationIndex;
        let model: ReturnType<FlatLearnedTrainer['modelFor']>['model'] | undefined;
        if (trainer) {
          t = performance.now();
          model = trainer.modelFor(id).model;
          flatTimes.trainMs += performance.now() - t;
        }
        for (const q of sel.questions) {
          const te = performance.now();
          const [vector] = await encoder.embed([q.question]);
          const embedMs = performance.now() - te;
          const pq: PreparedQuery = { text: q.question, vector: vector as Float32Array };
          const timed = (s: SystemName, withEmbed: boolean, fn: () => string[]): void => {
            if (!acc.has(s)) return;
            const ts = performance.now();
            const ranked = fn();
            record(s, sel, q, ranked, performance.now() - ts + (withEmbed ? embedMs : 0));
          };
          const timedAsync = async (s: SystemName, fn: () => Promise<string[]>): Promise<void> => {
            if (!acc.has(s)) return;
            const ts = performance.now();
            const ranked = await fn();
            record(s, sel, q, ranked, performance.now() - ts + embedMs);
          };
          timed('bm25', false, () => bm25Hits(index, q.question, MAX_K).map((h) => h.id));
          timed('dense', true, () => denseHits(index, pq.vector, MAX_K).map((h) => h.id));
          timed('hybrid', true, () => hybridRanking(index, pq, MAX_K));
          if (model) {
            const m = model;
            timed('flat-learned', true, () => rankFlatLearned(m, index, pq, MAX_K));
          }
          const oi = oramaIndexes.get(id);
          if (oi) {
            await timedAsync('orama', () => oramaHybridRanking(oi, q.question, pq.vector, MAX_K));
            const tuned = oramaSettings?.tuned?.chosen;
            if (tuned) await timedAsync('orama-tuned', () => oramaHybridRanking(oi, q.question, pq.vector, MAX_K, { similarity: tuned.similarity, hybridWeights: tuned.hybridWeights }));
          }
          const mini = miniSearches.get(id);
          if (mini) timed('minisearch-default', false, () => miniSearchDefaultRanking(mini, q.question, MAX_K));
        }
      }
      for (const [kind, backend] of [
        ['configured', configured],
        ['heuristic', heuristic],
      ] as const) {
        const variants = systems.filter((s): s is JevSystemName => isJev(s) && JEV_BACKEND[s] === kind && acc.get(s)?.error === undefined);
        if (variants.length === 0 || backend === undefined) continue;
        let build: JevBuild | undefined;
        const store = join(storeRoot, `${kind}-${id}`);
        try {
          const bo: Parameters<typeof buildJevMemory>[1] = { encoder, backend, store, vectorIndex, ...(o.store !== undefined ? { storeKind: o.store } : {}) };
          if (o.signal) bo.signal = o.signal;
          build = await buildJevMemory(conv, bo);
          if (parameters === null) parameters = JSON.parse(JSON.stringify(build.memory.parameters)) as Record<string, unknown>;
          const rec = buildRecord(id, build);
          builds[kind].push(rec);
          log(`bench: ${id} built with ${backend.modelId}: ${rec.ms.toFixed(0)} ms (${rec.perSecond} turns/s), ${rec.nodes} nodes, ${rec.edges} edges`);
          rss.sample();
          for (const s of variants) {
            const a = acc.get(s) as Accumulator;
            for (const q of sel.questions) {
              const r = await recallJev(build.memory, q.question, s, MAX_K, o.signal);
              record(s, sel, q, r.ranked, r.latencyMs);
              a.s1.calls += r.systemOneCalls;
              a.s1.fallbacks += r.fallbacks;
              a.s1.ms += r.systemOneMs;
              a.s1.n += 1;
              a.stopReasons[r.stopReason] = (a.stopReasons[r.stopReason] ?? 0) + 1;
            }
            rss.sample();
          }
        } catch (e) {
          if (isJevMemError(e) && e.code === 'ABORTED') throw e;
          for (const s of variants) fail(s, `${id}: ${describe(e)}`);
        } finally {
          await build?.memory.close().catch(() => undefined);
          await rm(store, { recursive: true, force: true }).catch(() => undefined);
        }
      }
      rss.sample();
    }

    // ---- assemble ---------------------------------------------------------------------------------
    const splitNames = [...new Set(selection.map((s) => s.split))];
    const out: Partial<Record<SystemName, SystemResult>> = {};
    for (const s of systems) {
      const a = acc.get(s) as Accumulator;
      const splits: SystemResult['splits'] = {};
      for (const sp of splitNames) splits[sp] = aggregate(a.scores.get(sp) ?? []);
      if (split === 'all' && !quick && splitNames.length > 1) splits.all = aggregate(splitNames.flatMap((sp) => a.scores.get(sp) ?? []));
      const perConversation: SystemResult['perConversation'] = {};
      for (const [cid, sc] of a.perConversation) perConversation[cid] = aggregate(sc).overall;
      const r: SystemResult = { name: s, description: SYSTEM_DESCRIPTIONS[s], status: a.error === undefined ? 'ok' : 'failed', splits, perConversation };
      if (a.error !== undefined) r.error = a.error;
      if (a.latencies.length > 0) {
        r.latencyMs = summarize(a.latencies);
        r.latencySamplesMs = a.latencies.map((x) => round(x));
      }
      if (isJev(s) && a.s1.n > 0) {
        r.systemOnePerQuery = { calls: a.s1.calls / a.s1.n, fallbacks: a.s1.fallbacks / a.s1.n, ms: a.s1.ms / a.s1.n };
        r.stopReasons = a.stopReasons;
      }
      out[s] = r;
    }
    const efficiencyBuilds: LocomoResults['efficiency']['builds'] = {};
    if (builds.configured.length > 0) efficiencyBuilds.configured = buildSummary('configured', configured?.modelId ?? '', builds.configured);
    if (builds.heuristic.length > 0) efficiencyBuilds.heuristic = buildSummary('heuristic', heuristic?.modelId ?? '', builds.heuristic);
    notes.push(
      'recall@K = |gold ∩ top-K| / |gold| and hit@K = 1 when all gold turns are in the top K, averaged over questions with at least one resolvable evidence turn; gold turns are matched on provenance.turnId = dia_id.',
      'overall = categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop); category 5 (adversarial) is reported apart.',
      'retrieval is within the conversation: one namespace (jev-mem) or one index (baselines) per conversation.',
      'latency: wall time of one recall, ms; dense, hybrid and flat-learned include embedding the question, bm25 does not need it; jev-mem includes its own query embedding.',
      'build time excludes model load (reported apart); jev-mem builds write to a file store in a temporary folder.',
      'peers (orama, orama-tuned, minisearch-default): npm libraries used as their docs say, one document per turn; Orama gets the same GloVe-SIF vectors as dense/hybrid and the question text and vector (mode hybrid, limit 20); their latency includes embedding the question (minisearch-default does not need it).',
      'orama-tuned: hybridWeights and similarity chosen by a 36-point grid (text weight 0.1-0.9, similarity 0.8/0.5/0.2/-1) on the development split only (categories 1-4, settings.orama.tuned), then fixed; its dev-split figures are in-sample.',
      'flat-learned: trained on the development split only (categories 1-4); development conversations are scored by the model trained on the other four (leave one conversation out).',
    );
    if (quick) notes.push(`quick run: ${selection[0]?.conversation.sampleId} and the first questions with evidence of each category (${selection[0]?.questions.length} in all) only; not comparable with full runs.`);
    const sampled = rss.stop();
    const results: LocomoResults = {
      format: 'jev-mem/bench-locomo',
      version: 1,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      durationMs: round(performance.now() - t0),
      command: o.command ?? '',
      machine: machineInfo(),
      git: gitInfo(repoRoot()),
      settings: {
        data: { path: data.path, sha256: data.sha256 },
        split: quick ? 'quick' : split,
        quick,
        systems,
        ks: [...KS],
        questions: selection.reduce((a2, s) => a2 + s.questions.length, 0),
        systemOne: { name: systemOneName, modelId: configured?.modelId ?? null },
        encoder: encoder.fingerprint,
        vectorIndex,
        parameters: parameters ?? (JSON.parse(JSON.stringify(DEFAULT_PARAMETERS)) as Record<string, unknown>),
        flatLearned: { pool: { ...POOL }, l2: FLAT_L2, trainCategories: [...FLAT_TRAIN_CATEGORIES], features: [...FLAT_FEATURES] },
        ...(oramaSettings ? { orama: oramaSettings } : {}),
      },
      conversations: selection.map((s) => ({ sampleId: s.conversation.sampleId, split: s.split, turns: s.conversation.observations.length, questions: s.questions.length })),
      systems: out,
      efficiency: {
        modelLoadMs: { encoder: round(encoderMs), systemOne: systemOneMs === null ? null : round(systemOneMs), heuristic: heuristicMs === null ? null : round(heuristicMs) },
        baselineBuildMs: { lexical: round(baselineBuildMs.lexical), embed: round(baselineBuildMs.embed), ...(wantOrama ? { orama: round(peerBuildMs.orama) } : {}), ...(systems.includes('minisearch-default') ? { minisearch: round(peerBuildMs.minisearch) } : {}) },
        builds: efficiencyBuilds,
        ...(trainer ? { flatLearned: { poolsMs: round(flatTimes.poolsMs), trainMs: round(flatTimes.trainMs) } } : {}),
        peakRssBytes: { sampled, process: RssSampler.processPeakBytes() },
        heapUsedBytes: process.memoryUsage().heapUsed,
      },
      flatLearnedModels: (trainer?.models() ?? []).map((m) => ({
        trainedOn: m.trainedOn,
        rows: m.model.rows,
        positives: m.model.positives,
        bias: m.model.bias,
        weights: Object.fromEntries(m.model.features.map((f, i) => [f, m.model.weights[i] as number])),
      })),
      notes,
    };
    return results;
  } finally {
    rss.stop();
    await configured?.close().catch(() => undefined);
    await heuristic?.close().catch(() => undefined);
    await encoder?.close?.().catch(() => undefined);
    if (storeRoot) await rm(storeRoot, { recursive: true, force: true }).catch(() => undefined);
  }
}
