/**
 * The shape of `results.json` of `npm run bench -- locomo` (machine-readable, every figure of a
 * run) and the list of systems the harness knows. Units are in the field names or notes: ms for
 * times, bytes for sizes, recall and hit as fractions in [0,1].
 *
 * @module
 */
import { invalidOption } from '../../src/errors.js';
import type { BackendCounts } from '../lib/jev.js';
import type { Aggregate, GroupScore, LatencySummary } from '../lib/metrics.js';
import type { GitInfo, MachineInfo } from '../lib/resources.js';

/** Every system of the harness, in report order. */
export const SYSTEM_NAMES = Object.freeze(['jev-mem', 'bm25', 'dense', 'hybrid', 'flat-learned', 'orama', 'orama-tuned', 'minisearch-default', 'no-graph', 'no-routing', 'no-stop', 'no-hop', 'no-order', 'no-system-one'] as const);

/** One system name. */
export type SystemName = (typeof SYSTEM_NAMES)[number];

/** The peers: libraries from npm used as their docs say (bench/locomo/peers.ts, issue 16). */
export const PEERS: readonly SystemName[] = Object.freeze(['orama', 'orama-tuned', 'minisearch-default']);

/** The flat baselines (no memory graph): our own, then the peers. */
export const BASELINES: readonly SystemName[] = Object.freeze(['bm25', 'dense', 'hybrid', 'flat-learned', ...PEERS]);

/** One-line description of each system (for reports). */
export const SYSTEM_DESCRIPTIONS: Readonly<Record<SystemName, string>> = Object.freeze({
  'jev-mem': 'jev-mem, full read path (routing, graph expansion, stopping) with the configured System One',
  bm25: 'BM25+ (MiniSearch, Porter stemming, English stop words), one document per turn',
  dense: 'cosine over the memory encoder (GloVe-SIF 100-d), exact flat index',
  hybrid: 'reciprocal rank fusion of bm25 and dense, κ = 60',
  'flat-learned': 'logistic regression over BM25/dense/neighbour pool (SPEC 10), trained on the dev split only, leave-one-conversation-out on dev',
  orama: 'Orama 3 hybrid search (BM25 full text + cosine over the GloVe-SIF vectors) with its defaults: similarity 0.8, hybridWeights text 0.5 / vector 0.5, no stemming, no stop words',
  'orama-tuned': 'Orama 3 hybrid search with hybridWeights and similarity chosen by a 36-point grid on the dev split only (settings.orama.tuned)',
  'minisearch-default': 'MiniSearch with default options (field text, no stemming, no stop words, BM25+ k 1.2, b 0.7, d 0.5, OR of the terms)',
  'no-graph': 'jev-mem without graph expansion (anchors only)',
  'no-routing': 'jev-mem without routing (uniform view probabilities and budgets)',
  'no-stop': 'jev-mem without the stop rules (runs to depth, budget or limits)',
  'no-hop': 'jev-mem without the hop (one retrieval round; no second round seeded by the best evidence, issue 24)',
  'no-order': 'jev-mem without the before/after step (no states next in time to a question\'s anchor drawn or lifted, issue 24)',
  'no-system-one': 'jev-mem built and recalled with the heuristic stand-in only (no model)',
});

/**
 * Parses `--systems` (comma-separated names, or `all`).
 * @throws JevMemError `INVALID_OPTION` (field `systems`) naming the unknown system and listing the valid ones.
 */
export function parseSystems(value: string | undefined): SystemName[] {
  if (value === undefined || value.trim() === '' || value.trim() === 'all') return [...SYSTEM_NAMES];
  const wanted = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const s of wanted) {
    if (!(SYSTEM_NAMES as readonly string[]).includes(s)) throw invalidOption('systems', `unknown system ${JSON.stringify(s)}; valid ones are ${SYSTEM_NAMES.join(', ')} (or all)`);
  }
  return SYSTEM_NAMES.filter((s) => wanted.includes(s));
}

/** System-One use per recall (means over questions). */
export interface QuerySystemOne {
  /** Mean backend calls per query. */
  calls: number;
  /** Mean fallback answers per query. */
  fallbacks: number;
  /** Mean System-One time per query, ms (sum of the trace decisions' latencyMs). */
  ms: number;
}

/** Everything measured for one system. */
export interface SystemResult {
  name: SystemName;
  description: string;
  /** `failed` when the system could not run (see `error`); its figures are then absent. */
  status: 'ok' | 'failed';
  error?: string;
  /** Aggregates by split name (`dev`, `test`, `all`). */
  splits: Record<string, Aggregate>;
  /** Overall (categories 1-4) by conversation. */
  perConversation: Record<string, GroupScore>;
  /** Recall latency, ms, over every evaluated question. */
  latencyMs?: LatencySummary;
  /** Every latency sample, ms (rounded to 0.01), in evaluation order. */
  latencySamplesMs?: number[];
  /** jev-mem systems only. */
  systemOnePerQuery?: QuerySystemOne;
  /** jev-mem systems only: how many recalls ended with each stop reason. */
  stopReasons?: Record<string, number>;
}

/** One conversation built by one jev-mem backend. */
export interface BuildRecord {
  sampleId: string;
  observations: number;
  /** Wall time of addMany, ms. */
  ms: number;
  /** Observations per second. */
  perSecond: number;
  systemOne: BackendCounts;
  nodes: number;
  edges: number;
  /** File-store bytes (`stats().storageBytes`). */
  storageBytes: number | null;
  /** Bytes of the JSON export. */
  exportBytes: number;
}

/** Build figures of one backend over the run's conversations. */
export interface BuildSummary {
  /** `configured` (the System One of jev-mem) or `heuristic` (no-system-one). */
  backend: string;
  modelId: string;
  perConversation: BuildRecord[];
  /** Sum of the conversations' build times, ms. */
  totalMs: number;
  observations: number;
  /** Per write (observation): System-One calls (round trips), requests, and ms. */
  perWrite: { calls: number; requests: number; ms: number; errors: number };
  /** File-store bytes per node (null when unknown). */
  storageBytesPerNode: number | null;
  /** Export JSON bytes per node. */
  exportBytesPerNode: number;
  edgesPerNode: number;
}

/** The settings of a run. */
export interface RunSettings {
  data: { path: string; sha256: string };
  split: string;
  quick: boolean;
  systems: SystemName[];
  ks: number[];
  /** Questions with resolvable evidence evaluated (all categories 1-5). */
  questions: number;
  systemOne: { name: string; modelId: string | null };
  encoder: string;
  vectorIndex: string;
  /** The memory's resolved parameters (SPEC 8). */
  parameters: Record<string, unknown> | null;
  flatLearned: { pool: { bm25: number; dense: number; neighbourHits: number }; l2: number; trainCategories: number[]; features: string[] };
  /** Orama's settings (present when orama or orama-tuned ran). */
  orama?: OramaSettings;
}

/** The Orama rows' settings: its defaults, and the dev-split grid of orama-tuned with its choice. */
export interface OramaSettings {
  /** `@orama/orama` version. */
  version: string;
  /** Orama's documented defaults used by the `orama` row (similarity, hybridWeights). */
  defaults: { similarity: number; hybridWeights: { text: number; vector: number } };
  /** orama-tuned: the grid's mean recall@10 on the tuning questions and the chosen point. */
  tuned?: {
    /** Conversations whose questions (categories 1-4) it was tuned on. */
    tunedOn: string[];
    questions: number;
    chosen: { similarity: number; hybridWeights: { text: number; vector: number }; recall10: number };
    grid: Array<{ similarity: number; hybridWeights: { text: number; vector: number }; recall10: number }>;
    /** Wall time of the grid, ms. */
    ms: number;
  };
}

/** `results.json` of `npm run bench -- locomo`. */
export interface LocomoResults {
  format: 'jev-mem/bench-locomo';
  version: 1;
  startedAt: string;
  finishedAt: string;
  /** Wall time of the whole run, ms. */
  durationMs: number;
  /** The command that produced it, as typed (when known). */
  command: string;
  machine: MachineInfo;
  git: GitInfo;
  settings: RunSettings;
  conversations: Array<{ sampleId: string; split: 'dev' | 'test'; turns: number; questions: number }>;
  /** By system name; absent systems were not selected. */
  systems: Partial<Record<SystemName, SystemResult>>;
  efficiency: {
    /** Model loading, ms, apart from build times. */
    modelLoadMs: { encoder: number; systemOne: number | null; heuristic: number | null };
    /** Baseline indexes (BM25 + embedding the turns; the peers' Orama inserts and MiniSearch builds when they ran), ms over all conversations. */
    baselineBuildMs: { lexical: number; embed: number; orama?: number; minisearch?: number };
    /** jev-mem builds: `configured` for jev-mem and its read ablations, `heuristic` for no-system-one. */
    builds: { configured?: BuildSummary; heuristic?: BuildSummary };
    flatLearned?: { poolsMs: number; trainMs: number };
    /** Peak RSS, bytes: sampled during the run, and the kernel's process peak. */
    peakRssBytes: { sampled: number; process: number };
    /** Heap used at the end, bytes. */
    heapUsedBytes: number;
  };
  /** The flat learned models (weights on standardised features). */
  flatLearnedModels: Array<{ trainedOn: string[]; rows: number; positives: number; bias: number; weights: Record<string, number> }>;
  notes: string[];
}
