/**
 * Renders `results.json` of the LoCoMo benchmark as Markdown (`results.md`), as the README's
 * results section, and as SVG charts, and writes them to the output folder. Pure rendering
 * except {@link writeLocomoOutputs}.
 *
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCOMO_CATEGORIES } from '../../src/formats/locomo.js';
import { KS, type GroupScore } from '../lib/metrics.js';
import { BASELINES, SYSTEM_NAMES, type LocomoResults, type SystemName, type SystemResult } from './results.js';
import { groupedBarChart, histogram } from '../lib/svg.js';

/** File names written by {@link writeLocomoOutputs}. */
export const LOCOMO_OUTPUT_FILES = Object.freeze({
  json: 'results.json',
  markdown: 'results.md',
  recallChart: 'recall10-by-category.svg',
  ablationChart: 'ablations-recall10.svg',
  latencyChart: 'latency-jev-mem.svg',
});

/** The jev-mem read/backend ablations, in report order. */
const ABLATIONS: readonly SystemName[] = ['jev-mem', 'no-graph', 'no-routing', 'no-stop', 'no-hop', 'no-system-one'];

/** A fraction in [0,1] as a percentage with one decimal ("61.8"); "–" when absent. */
export function pct(x: number | undefined | null): string {
  return x === undefined || x === null || !Number.isFinite(x) ? '–' : (x * 100).toFixed(1);
}

function ms(x: number | undefined | null, digits = 1): string {
  return x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits);
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

/**
 * The split a summary leads with: `test` when the run has it (never tuned on), else `all`, else
 * the only split present.
 */
export function headlineSplit(results: LocomoResults): string {
  const present = new Set(Object.values(results.systems).flatMap((s) => Object.keys(s?.splits ?? {})));
  for (const s of ['test', 'all', 'dev']) if (present.has(s)) return s;
  return 'dev';
}

function ordered(results: LocomoResults): SystemResult[] {
  return SYSTEM_NAMES.map((n) => results.systems[n]).filter((s): s is SystemResult => s !== undefined);
}

function overallRow(s: SystemResult, split: string): string {
  if (s.status === 'failed' && !s.splits[split]?.overall.n) return `| ${s.name} | failed | ${'– | '.repeat(6).trim()}`;
  const o = s.splits[split]?.overall;
  const cells = o ? [String(o.n), ...KS.map((k) => pct(o.recall[k])), ...KS.map((k) => pct(o.hit[k]))] : ['0', '–', '–', '–', '–', '–', '–'];
  return `| ${s.name}${s.status === 'failed' ? ' (failed)' : ''} | ${cells.join(' | ')} |`;
}

function categoryCells(s: SystemResult, split: string, k: 5 | 10 | 20): string[] {
  const agg = s.splits[split];
  return [1, 2, 3, 4, 5].map((c) => pct(agg?.byCategory[String(c)]?.recall[k])).concat(pct(agg?.overall.recall[k]));
}

function categoryHeader(): string {
  const names = [1, 2, 3, 4, 5].map((c) => `${c} ${LOCOMO_CATEGORIES[c]}`);
  return `| system | ${names.join(' | ')} | overall 1-4 |\n|---|${'---:|'.repeat(6)}`;
}

function categoryCounts(results: LocomoResults, split: string): string {
  const any = ordered(results).find((s) => s.splits[split]);
  if (!any) return '';
  const agg = any.splits[split];
  return [1, 2, 3, 4, 5].map((c) => `${c}: ${agg?.byCategory[String(c)]?.n ?? 0}`).join(', ');
}

/** The whole `results.md`. */
export function renderResultsMarkdown(results: LocomoResults): string {
  const lines: string[] = [];
  const sys = ordered(results);
  const splits = [...new Set(sys.flatMap((s) => Object.keys(s.splits)))].sort((a, b) => ['dev', 'test', 'all'].indexOf(a) - ['dev', 'test', 'all'].indexOf(b));
  const m = results.machine;
  lines.push('# jev-mem: LoCoMo retrieval benchmark', '');
  lines.push(`- Run: ${results.startedAt} (${(results.durationMs / 1000).toFixed(1)} s)${results.command ? `, \`${results.command}\`` : ''}`);
  lines.push(`- Code: ${results.git.commit ?? 'no commit'}${results.git.dirty ? ' (uncommitted changes)' : ''}`);
  lines.push(`- Machine: ${m.cpuModel}, ${m.cores} cores, ${mib(m.totalMemoryBytes)} MiB, Node ${m.node} (${m.platform} ${m.arch})`);
  lines.push(`- Data: ${results.settings.data.path} (sha256 ${results.settings.data.sha256.slice(0, 12)}…), split ${results.settings.split}, ${results.settings.questions} questions with evidence`);
  lines.push(`- System One: ${results.settings.systemOne.name} (${results.settings.systemOne.modelId ?? 'not loaded'}); encoder ${results.settings.encoder}; vector index ${results.settings.vectorIndex}`);
  lines.push('');
  for (const split of splits) {
    lines.push(`## Evidence recall and all-evidence hit, categories 1-4, split \`${split}\` (%)`, '');
    lines.push(`Questions per category: ${categoryCounts(results, split)}.`, '');
    lines.push('| system | n | R@5 | R@10 | R@20 | hit@5 | hit@10 | hit@20 |', '|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const s of sys) lines.push(overallRow(s, split));
    lines.push('');
    for (const k of KS) {
      lines.push(`### Recall@${k} by category, split \`${split}\` (%)`, '', categoryHeader());
      for (const s of sys) lines.push(`| ${s.name} | ${categoryCells(s, split, k).join(' | ')} |`);
      lines.push('');
    }
  }
  const convIds = results.conversations.map((c) => c.sampleId);
  if (convIds.length > 1) {
    lines.push('## Recall@10 per conversation, categories 1-4 (%)', '');
    lines.push(`| system | ${convIds.map((c) => `${c} (${results.conversations.find((x) => x.sampleId === c)?.split})`).join(' | ')} |`, `|---|${'---:|'.repeat(convIds.length)}`);
    for (const s of sys) lines.push(`| ${s.name} | ${convIds.map((c) => pct(s.perConversation[c]?.recall[10])).join(' | ')} |`);
    lines.push('');
  }
  lines.push('## Efficiency', '');
  const e = results.efficiency;
  lines.push(`- Model load: encoder ${ms(e.modelLoadMs.encoder)} ms, System One ${ms(e.modelLoadMs.systemOne)} ms, heuristic stand-in ${ms(e.modelLoadMs.heuristic)} ms (not in build times).`);
  lines.push(`- Baseline indexes (all conversations): BM25 ${ms(e.baselineBuildMs.lexical)} ms, embedding the turns ${ms(e.baselineBuildMs.embed)} ms.`);
  if (e.baselineBuildMs.orama !== undefined || e.baselineBuildMs.minisearch !== undefined) lines.push(`- Peer indexes (all conversations): Orama inserts ${ms(e.baselineBuildMs.orama)} ms (vectors given), MiniSearch ${ms(e.baselineBuildMs.minisearch)} ms.`);
  if (e.flatLearned) lines.push(`- flat-learned: training pools ${ms(e.flatLearned.poolsMs, 0)} ms, fitting ${ms(e.flatLearned.trainMs, 0)} ms.`);
  lines.push(`- Peak RSS: ${mib(e.peakRssBytes.sampled)} MiB sampled during the run (${mib(e.peakRssBytes.process)} MiB process peak); heap used at the end ${mib(e.heapUsedBytes)} MiB.`);
  for (const [kind, b] of Object.entries(e.builds)) {
    if (!b) continue;
    lines.push('', `### Build with ${kind === 'configured' ? 'the configured System One' : 'the heuristic stand-in'} (${b.modelId})`, '');
    lines.push(`Total ${(b.totalMs / 1000).toFixed(2)} s for ${b.observations} turns; per write: ${b.perWrite.calls.toFixed(3)} System-One calls (${b.perWrite.requests.toFixed(2)} requests, ${b.perWrite.errors.toFixed(3)} failed), ${ms(b.perWrite.ms, 3)} ms System-One time; ${b.edgesPerNode.toFixed(1)} edges per node; ${b.storageBytesPerNode === null ? '–' : b.storageBytesPerNode.toFixed(0)} stored bytes per node (file store), ${b.exportBytesPerNode.toFixed(0)} bytes per node as JSON export.`, '');
    lines.push('| conversation | turns | build ms | turns/s | System-One calls | System-One ms | nodes | edges | stored bytes |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of b.perConversation) lines.push(`| ${r.sampleId} | ${r.observations} | ${r.ms.toFixed(0)} | ${r.perSecond.toFixed(0)} | ${r.systemOne.calls} | ${r.systemOne.ms.toFixed(0)} | ${r.nodes} | ${r.edges} | ${r.storageBytes ?? '–'} |`);
  }
  lines.push('', '### Recall latency and System One per query', '');
  lines.push('| system | n | mean ms | p50 ms | p95 ms | max ms | System-One calls | fallbacks | System-One ms | stop reasons |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const s of sys) {
    const l = s.latencyMs;
    const q = s.systemOnePerQuery;
    const stops = s.stopReasons ? Object.entries(s.stopReasons).map(([r, n]) => `${r} ${n}`).join(', ') : '';
    lines.push(`| ${s.name} | ${l?.n ?? 0} | ${ms(l?.mean, 2)} | ${ms(l?.p50, 2)} | ${ms(l?.p95, 2)} | ${ms(l?.max, 2)} | ${q ? q.calls.toFixed(2) : '–'} | ${q ? q.fallbacks.toFixed(2) : '–'} | ${q ? q.ms.toFixed(2) : '–'} | ${stops} |`);
  }
  lines.push(...oramaSettingsMarkdown(results));
  const failed = sys.filter((s) => s.status === 'failed');
  if (failed.length > 0) {
    lines.push('', '## Systems that failed', '');
    for (const s of failed) lines.push(`- ${s.name}: ${s.error}`);
  }
  lines.push('', '## Charts', '', `![recall@10 by category](${LOCOMO_OUTPUT_FILES.recallChart})`, '', `![ablations](${LOCOMO_OUTPUT_FILES.ablationChart})`, '', `![latency](${LOCOMO_OUTPUT_FILES.latencyChart})`, '');
  lines.push('## Notes', '', ...results.notes.map((n) => `- ${n}`), '');
  lines.push('## Systems', '', ...sys.map((s) => `- **${s.name}**: ${s.description}`), '');
  return lines.join('\n');
}

/**
 * The Orama rows' settings as Markdown: the defaults, and orama-tuned's dev grid (mean recall@10
 * per similarity × text weight, %) with the chosen point. Empty when Orama did not run.
 */
export function oramaSettingsMarkdown(results: LocomoResults): string[] {
  const o = results.settings.orama;
  if (!o) return [];
  const lines = ['', `### Orama settings (@orama/orama ${o.version})`, ''];
  lines.push(`- orama: Orama's defaults, similarity ${o.defaults.similarity}, hybridWeights text ${o.defaults.hybridWeights.text} / vector ${o.defaults.hybridWeights.vector}.`);
  const t = o.tuned;
  if (!t) return lines;
  lines.push(`- orama-tuned: similarity ${t.chosen.similarity}, hybridWeights text ${t.chosen.hybridWeights.text} / vector ${t.chosen.hybridWeights.vector}, chosen on ${t.questions} questions (categories 1-4) of ${t.tunedOn.join(', ')} (R@10 ${pct(t.chosen.recall10)} there; grid ${ms(t.ms / 1000)} s).`, '');
  const texts = [...new Set(t.grid.map((g) => g.hybridWeights.text))];
  const sims = [...new Set(t.grid.map((g) => g.similarity))];
  lines.push(`Tuning grid: mean R@10 on the tuning questions (%), rows similarity, columns text weight (vector = 1 − text):`, '');
  lines.push(`| similarity | ${texts.join(' | ')} |`, `|---:|${'---:|'.repeat(texts.length)}`);
  for (const sim of sims) {
    const cells = texts.map((tx) => {
      const g = t.grid.find((x) => x.similarity === sim && x.hybridWeights.text === tx);
      const v = pct(g?.recall10);
      return g && g.similarity === t.chosen.similarity && g.hybridWeights.text === t.chosen.hybridWeights.text ? `**${v}**` : v;
    });
    lines.push(`| ${sim} | ${cells.join(' | ')} |`);
  }
  return lines;
}

/** Options of {@link renderReadmeSection}. */
export interface ReadmeSectionOptions {
  /** Folder (relative to the README) that holds the charts. @default 'bench-out' */
  chartsDir?: string;
  /** Heading level of the section title. @default 2 */
  level?: number;
}

/**
 * The README's results section, from a results.json object: the headline split's recall table,
 * recall@10 per category, efficiency in one list, the charts and the command to reproduce.
 */
export function renderReadmeSection(results: LocomoResults, options: ReadmeSectionOptions = {}): string {
  const dir = (options.chartsDir ?? 'bench-out').replace(/\/+$/, '');
  const h = '#'.repeat(options.level ?? 2);
  const split = headlineSplit(results);
  const sys = ordered(results);
  const lines: string[] = [];
  lines.push(`${h} Results: LoCoMo evidence retrieval`, '');
  lines.push(
    `Turn-level evidence recall on LoCoMo (${split === 'test' ? 'test split: conv-44, 47, 48, 49, 50, never used for tuning' : `split \`${split}\``}; categories 1-4; ${results.settings.quick ? 'quick run, one conversation' : `${results.conversations.filter((c) => split === 'all' || c.split === split).length} conversations`}), retrieval within each conversation. R@K = share of a question's evidence turns in the top K; hit@10 = all of them in the top 10.`,
    '',
  );
  lines.push('| system | R@5 | R@10 | R@20 | hit@10 | p50 latency |', '|---|---:|---:|---:|---:|---:|');
  for (const s of sys) {
    const o: GroupScore | undefined = s.splits[split]?.overall;
    if (s.status === 'failed' && !o?.n) {
      lines.push(`| ${s.name} | failed | | | | |`);
      continue;
    }
    lines.push(`| ${s.name} | ${pct(o?.recall[5])} | ${pct(o?.recall[10])} | ${pct(o?.recall[20])} | ${pct(o?.hit[10])} | ${ms(s.latencyMs?.p50, 1)} ms |`);
  }
  lines.push('', `Recall@10 by category (%):`, '', categoryHeader());
  for (const s of sys) lines.push(`| ${s.name} | ${categoryCells(s, split, 10).join(' | ')} |`);
  const e = results.efficiency;
  const b = e.builds.configured;
  const j = results.systems['jev-mem'];
  lines.push('', 'Efficiency (same run):', '');
  if (b) {
    lines.push(`- Build: ${(b.totalMs / 1000).toFixed(1)} s for ${b.observations} turns (${((b.observations * 1000) / Math.max(1, b.totalMs)).toFixed(0)} turns/s), model load apart (${ms(e.modelLoadMs.systemOne, 0)} ms System One, ${ms(e.modelLoadMs.encoder, 0)} ms encoder).`);
    lines.push(`- System One per write: ${b.perWrite.calls.toFixed(2)} calls, ${b.perWrite.ms.toFixed(2)} ms.`);
    lines.push(`- Storage: ${b.storageBytesPerNode === null ? '–' : (b.storageBytesPerNode / 1024).toFixed(1)} KiB per node on disk, ${b.edgesPerNode.toFixed(1)} edges per node.`);
  }
  if (j?.latencyMs) lines.push(`- jev-mem recall latency: p50 ${ms(j.latencyMs.p50)} ms, p95 ${ms(j.latencyMs.p95)} ms, max ${ms(j.latencyMs.max)} ms; System One per query: ${j.systemOnePerQuery ? `${j.systemOnePerQuery.calls.toFixed(1)} calls, ${j.systemOnePerQuery.ms.toFixed(1)} ms` : '–'}.`);
  lines.push(`- Peak RSS: ${mib(e.peakRssBytes.sampled)} MiB. Machine: ${results.machine.cpuModel}, ${results.machine.cores} cores, Node ${results.machine.node}.`);
  lines.push('', `![recall@10 by category](${dir}/${LOCOMO_OUTPUT_FILES.recallChart})`, '', `![recall latency](${dir}/${LOCOMO_OUTPUT_FILES.latencyChart})`, '');
  lines.push(`Reproduce: \`${results.command || 'npm run bench -- locomo --split all'}\` (data: LoCoMo, CC BY-NC 4.0, not bundled; commit ${results.git.commit?.slice(0, 10) ?? 'uncommitted'}).`, '');
  return lines.join('\n');
}

/** The recall@10-by-category chart: jev-mem against the baselines, on the headline split. */
export function recallChart(results: LocomoResults, names: readonly SystemName[] = ['jev-mem', ...BASELINES], title?: string): string {
  const split = headlineSplit(results);
  const groups = [1, 2, 3, 4, 5].map((c) => `${c} ${LOCOMO_CATEGORIES[c]}`).concat('overall 1-4');
  const series = names
    .map((n) => results.systems[n])
    .filter((s): s is SystemResult => s !== undefined && s.splits[split] !== undefined && s.status === 'ok')
    .map((s) => ({ name: s.name, values: [1, 2, 3, 4, 5].map((c) => s.splits[split]?.byCategory[String(c)]?.recall[10] ?? null).concat(s.splits[split]?.overall.recall[10] ?? null) }));
  return groupedBarChart({ title: title ?? `LoCoMo evidence recall@10 by category (split ${split})`, groups, series, yLabel: 'recall@10 (%)', yMax: 1, format: (v) => (v * 100).toFixed(0), width: 980 });
}

/** Histogram of jev-mem's recall latencies (x cut at the 99th percentile, the rest in the last bin). */
export function latencyChart(results: LocomoResults, name: SystemName = 'jev-mem'): string {
  const s = results.systems[name];
  const values = s?.latencySamplesMs ?? [];
  const sorted = [...values].sort((a, b) => a - b);
  const p99 = sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? 1;
  const markers = s?.latencyMs ? [{ label: 'p50', value: s.latencyMs.p50 }, { label: 'p95', value: s.latencyMs.p95 }] : [];
  return histogram({ title: `${name} recall latency (${values.length} queries, max ${ms(s?.latencyMs?.max)} ms)`, values, xLabel: 'ms per recall (last bin: ≥ p99)', xMax: Math.max(p99, 1e-3), bins: 40, markers });
}

/**
 * Writes results.json, results.md and the charts into `outDir` (created when missing).
 * @returns the paths written.
 */
export async function writeLocomoOutputs(results: LocomoResults, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files: Array<[string, string]> = [
    [LOCOMO_OUTPUT_FILES.json, `${JSON.stringify(results, null, 2)}\n`],
    [LOCOMO_OUTPUT_FILES.markdown, renderResultsMarkdown(results)],
    [LOCOMO_OUTPUT_FILES.recallChart, recallChart(results)],
    [LOCOMO_OUTPUT_FILES.ablationChart, recallChart(results, ABLATIONS, `jev-mem ablations: recall@10 by category (split ${headlineSplit(results)})`)],
    [LOCOMO_OUTPUT_FILES.latencyChart, latencyChart(results)],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const p = join(outDir, name);
    await writeFile(p, text, 'utf8');
    written.push(p);
  }
  return written;
}
