/**
 * `npm run bench -- scale-cli`: the acceptance check of issue 13. A CLI process that opens a
 * 20,000-observation store and answers 20 questions must cost at most
 * {@link CLI_MAX_WALL_RATIO}× the wall time and at most {@link CLI_MAX_RSS_EXTRA_MIB} MiB more
 * peak RSS than the same on a 200-observation store.
 *
 * Both stores are written with `createNodeMemory` as `jev-mem ingest` writes them (file store,
 * default encoder, the local System One), from the scale recipe ({@link scaleObservations}).
 * Then `jev-mem recall --questions <file> --json` runs as its own process (from the sources,
 * src/cli/main.ts through tsx, started with `node -e`) on each, `runs` times, under `/usr/bin/time -v` (else
 * polling `/proc/<pid>/status` VmHWM); the medians of wall time and peak RSS are compared.
 * Recall only: no System Two, no network.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { invalidOption, JevMemError } from '../../src/errors.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import type { Observation } from '../../src/types.js';
import { defaultLocomoPath, loadLocomo, repoRoot } from '../lib/data.js';
import { percentile } from '../lib/metrics.js';
import { gitInfo, machineInfo, type GitInfo, type MachineInfo } from '../lib/resources.js';
import { runMeasured } from '../lib/proc.js';
import { scaleObservations, scaleQuestions } from './scale.js';

/** Most wall time of the large store's run, as a multiple of the small one's (issue 13 acceptance). */
export const CLI_MAX_WALL_RATIO = 1.5;
/** Most extra peak RSS of the large store's run over the small one's, MiB (issue 13 acceptance). */
export const CLI_MAX_RSS_EXTRA_MIB = 150;
/** Observations in the small and the large store (issue 13 acceptance). */
export const CLI_SMALL = 200;
export const CLI_LARGE = 20_000;
/** Questions each CLI process answers. */
export const CLI_QUESTIONS = 20;
/** Namespace of both stores. */
export const CLI_NAMESPACE = 'scale-cli';

/** Wall time and peak RSS of one store's runs (medians). */
export interface CliRunFigures {
  observations: number;
  /** Median wall time, ms. */
  wallMs: number;
  /** Median peak RSS, bytes. */
  peakRssBytes: number;
  /** Every run: wall ms and peak RSS bytes. */
  runs: Array<{ wallMs: number; peakRssBytes: number }>;
}

/** The verdict of {@link cliAcceptance}. */
export interface CliVerdict {
  /** wall(large) / wall(small). */
  wallRatio: number;
  /** (peak RSS(large) − peak RSS(small)) / 2^20. */
  rssExtraMiB: number;
  wallOk: boolean;
  rssOk: boolean;
  pass: boolean;
}

/**
 * Compares the large store's run with the small one's against the acceptance: the wall ratio at
 * most {@link CLI_MAX_WALL_RATIO}, the extra peak RSS at most {@link CLI_MAX_RSS_EXTRA_MIB} MiB
 * (both bounds inclusive).
 * @throws JevMemError `INVALID_INPUT` (field `small`) when the small run's wall time is not positive.
 */
export function cliAcceptance(small: { wallMs: number; peakRssBytes: number }, large: { wallMs: number; peakRssBytes: number }): CliVerdict {
  if (!(small.wallMs > 0)) throw new JevMemError('INVALID_INPUT', `the small store's wall time must be positive, got ${small.wallMs}`, { field: 'small' });
  const wallRatio = large.wallMs / small.wallMs;
  const rssExtraMiB = (large.peakRssBytes - small.peakRssBytes) / 2 ** 20;
  const wallOk = wallRatio <= CLI_MAX_WALL_RATIO;
  const rssOk = rssExtraMiB <= CLI_MAX_RSS_EXTRA_MIB;
  return { wallRatio, rssExtraMiB, wallOk, rssOk, pass: wallOk && rssOk };
}

/** Median wall and median peak RSS of several runs (each figure's own median). */
export function medianRun(runs: ReadonlyArray<{ wallMs: number; peakRssBytes: number }>): { wallMs: number; peakRssBytes: number } {
  return { wallMs: percentile(runs.map((r) => r.wallMs), 50), peakRssBytes: percentile(runs.map((r) => r.peakRssBytes), 50) };
}

/** `scale-cli.json`. */
export interface CliCheckResults {
  format: 'jev-mem/bench-scale-cli';
  startedAt: string;
  machine: MachineInfo;
  git: GitInfo;
  command: string;
  /** How peak RSS was read. */
  peakFrom: string;
  questions: number;
  small: CliRunFigures;
  large: CliRunFigures;
  verdict: CliVerdict;
  /** Build of each store, ms (0 when a kept store was reused). */
  buildMs: { small: number; large: number };
}

/** Options of {@link runCliCheck}. */
export interface CliCheckOptions {
  /** @default {@link CLI_SMALL} */
  small?: number;
  /** @default {@link CLI_LARGE} */
  large?: number;
  /** CLI runs per store (medians are compared). @default 3 */
  runs?: number;
  /** Keep the stores in `<keepDir>/obs-<n>` and reuse them when they hold `n` memories. @default temporary, removed */
  keepDir?: string;
  /** @default `<repo>/../shared/data/locomo10.json` */
  dataPath?: string;
  log?: (line: string) => void;
}

/** Writes the first `n` observations of the scale recipe into a file store as the CLI's ingest does; returns ms (0 when a kept store already held them). */
async function buildStore(store: string, observations: Observation[], log: (l: string) => void): Promise<number> {
  const systemOne = await createSystemOneFromName('local', { env: process.env });
  const encoder = await createDefaultNodeEncoder();
  try {
    if (existsSync(store)) {
      const m = await createNodeMemory({ store, namespace: CLI_NAMESPACE, create: false, encoder, systemOne });
      const nodes = (await m.stats()).nodes;
      await m.close();
      if (nodes === observations.length) {
        log(`scale-cli: reusing ${store} (${nodes} memories)`);
        return 0;
      }
      await rm(store, { recursive: true, force: true });
    }
    const t = performance.now();
    const memory = await createNodeMemory({ store, namespace: CLI_NAMESPACE, encoder, systemOne });
    let last = 0;
    await memory.addMany(observations, {
      onProgress: (p) => {
        if (performance.now() - last > 10_000) {
          last = performance.now();
          log(`scale-cli: ${p.done}/${observations.length} written into ${store} (${p.perSecond.toFixed(0)}/s)`);
        }
      },
    });
    await memory.close();
    return performance.now() - t;
  } finally {
    await systemOne.close();
    await encoder.close?.();
  }
}

/**
 * Runs the acceptance check (module comment).
 * @throws JevMemError `INVALID_OPTION` (fields `small`, `large`, `runs`), `STORAGE_FAILED` when a
 *   CLI run exits non-zero (its stderr in the message), and the memory's errors while building.
 */
export async function runCliCheck(o: CliCheckOptions = {}): Promise<CliCheckResults> {
  const log = o.log ?? (() => undefined);
  const small = o.small ?? CLI_SMALL;
  const large = o.large ?? CLI_LARGE;
  const runs = o.runs ?? 3;
  if (!(Number.isInteger(small) && small >= 1)) throw invalidOption('small', `expected a positive integer, got ${small}`);
  if (!(Number.isInteger(large) && large > small)) throw invalidOption('large', `expected an integer larger than --small (${small}), got ${large}`);
  if (!(Number.isInteger(runs) && runs >= 1)) throw invalidOption('runs', `expected a positive integer, got ${runs}`);
  const startedAt = new Date();
  const data = await loadLocomo(o.dataPath ?? defaultLocomoPath());
  const observations = scaleObservations(data.conversations, large);
  const questions = scaleQuestions(data.conversations, CLI_QUESTIONS);
  const work = await mkdtemp(join(tmpdir(), 'jev-mem-scale-cli-'));
  const storesDir = o.keepDir ?? work;
  await mkdir(storesDir, { recursive: true });
  const questionsFile = join(work, 'questions.txt');
  await writeFile(questionsFile, `${questions.join('\n')}\n`, 'utf8');
  // The CLI of this checkout's sources (what bin/jev-mem.js runs without dist/), never a stale
  // build; started with -e so the bench imports no CLI module itself (architecture test).
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const entry = `const { main } = await import(${JSON.stringify(pathToFileURL(main).href)}); process.exitCode = await main(process.argv.slice(1));`;
  const args = (store: string): string[] => ['--import', 'tsx', '--input-type=module', '-e', entry, 'recall', '--store', store, '--namespace', CLI_NAMESPACE, '--questions', questionsFile, '--json'];
  try {
    const stores = { small: join(storesDir, `obs-${small}`), large: join(storesDir, `obs-${large}`) };
    const buildMs = { small: await buildStore(stores.small, observations.slice(0, small), log), large: await buildStore(stores.large, observations, log) };
    let peakFrom = '';
    const once = async (store: string, n: number, i: number): Promise<{ wallMs: number; peakRssBytes: number }> => {
      const r = await runMeasured(process.execPath, args(store), { cwd: repoRoot() });
      if (r.code !== 0) throw new JevMemError('STORAGE_FAILED', `jev-mem recall exited ${r.code} on ${store}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      const answered = r.stdout.split('\n').filter((l) => l.trim() !== '').length;
      if (answered !== questions.length) throw new JevMemError('STORAGE_FAILED', `jev-mem recall printed ${answered} lines for ${questions.length} questions on ${store}`);
      peakFrom = r.peakFrom;
      log(`scale-cli: ${n} observations, run ${i + 1}/${runs}: ${r.wallMs.toFixed(0)} ms, peak RSS ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
      return { wallMs: r.wallMs, peakRssBytes: r.peakRssBytes };
    };
    // Small and large alternate, so drift in the machine's load touches both alike.
    const runsSmall: Array<{ wallMs: number; peakRssBytes: number }> = [];
    const runsLarge: Array<{ wallMs: number; peakRssBytes: number }> = [];
    for (let i = 0; i < runs; i++) {
      runsSmall.push(await once(stores.small, small, i));
      runsLarge.push(await once(stores.large, large, i));
    }
    const smallFig: CliRunFigures = { observations: small, ...medianRun(runsSmall), runs: runsSmall };
    const largeFig: CliRunFigures = { observations: large, ...medianRun(runsLarge), runs: runsLarge };
    return {
      format: 'jev-mem/bench-scale-cli',
      startedAt: startedAt.toISOString(),
      machine: machineInfo(),
      git: gitInfo(repoRoot()),
      command: `node --import tsx -e <src/cli/main.ts main()> recall --store <store> --namespace ${CLI_NAMESPACE} --questions <${questions.length} questions> --json`,
      peakFrom,
      questions: questions.length,
      small: smallFig,
      large: largeFig,
      verdict: cliAcceptance(smallFig, largeFig),
      buildMs,
    };
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The lines `bench scale-cli` prints (and writes into scale-cli.md). */
export function renderCliCheck(r: CliCheckResults): string[] {
  const v = r.verdict;
  const mib = (b: number): string => (b / 2 ** 20).toFixed(0);
  return [
    `# Issue 13 acceptance: the CLI on a ${r.small.observations}- and a ${r.large.observations}-observation store`,
    '',
    `- Run ${r.startedAt}; code ${r.git.commit ?? 'no commit'}${r.git.dirty ? ' (uncommitted changes)' : ''}; ${r.machine.cpuModel}, ${r.machine.cores} cores, Node ${r.machine.node}`,
    `- \`${r.command}\`, ${r.small.runs.length} run(s) per store, medians; peak RSS from ${r.peakFrom}`,
    '',
    '| store | wall ms (median) | peak RSS MiB (median) | runs (ms / MiB) |',
    '|---:|---:|---:|---|',
    ...[r.small, r.large].map((f) => `| ${f.observations} | ${f.wallMs.toFixed(0)} | ${mib(f.peakRssBytes)} | ${f.runs.map((x) => `${x.wallMs.toFixed(0)} / ${mib(x.peakRssBytes)}`).join(', ')} |`),
    '',
    `wall ${r.large.observations}/${r.small.observations} = ${v.wallRatio.toFixed(3)}× (≤ ${CLI_MAX_WALL_RATIO}×: ${v.wallOk ? 'ok' : 'over'}); peak RSS +${v.rssExtraMiB.toFixed(0)} MiB (≤ ${CLI_MAX_RSS_EXTRA_MIB} MiB: ${v.rssOk ? 'ok' : 'over'}) → ${v.pass ? 'PASS' : 'FAIL'}`,
  ];
}
