/**
 * The benchmark command of the repository (not part of the package): `npm run bench -- <sub> ...`,
 * i.e. `tsx bench/cli.ts <sub> ...`. Same sub-commands, flags and outputs as the former
 * `jev-mem bench`, so results stay comparable.
 *
 * - `npm run bench -- locomo [--data <path>] [--split dev|test|all] [--systems a,b] [--out <dir>] [--quick]`
 * - `npm run bench -- scale [--sizes 1000,10000,100000] [--browser] [--edge] [--peers | --peers-only] [--out <dir>]`
 * - `npm run bench -- scale-cli [--small 200] [--large 20000] [--runs 3] [--keep] [--out <dir>]` (issue 13 acceptance)
 * - `npm run bench -- system-one [--data <path>] [--browser] [--out <dir>]`
 * - `npm run bench -- time [--out <dir>]` (the time-and-change test set of issue 14, by kind)
 * - `npm run bench -- changes [--out <dir>]` (facts that change, issue 24: the MLP and logistic
 *   state-update heads by kind on held-out generated and hand-written pairs, and end to end)
 * - `npm run bench -- order [--part dev|heldout|kinds|all]` (recall@1 and @5 of before/after questions over
 *   generated histories; issue 24, docs/bench/ORDER.md)
 * - `npm run bench -- multilingual [--system-one <name>] [--out <dir>]` (recall@1 and @5 per language
 *   of test/fixtures/multilingual; issue 15)
 * - `npm run bench -- chats [--part dev|heldout|novel|all|prefdev|prefheld|prefs|wilddev|wildheld|wildlong|wild | --data <longmemeval.json> [--limit N]] [--systems jev-mem,bm25,hybrid] [--clock question|machine] [--trace <file>] [--out <dir>]`
 *   (generated user/assistant histories, recall of the evidence turns by question kind; issue 24)
 * - `npm run bench -- answers [--split test] [--systems a,b] [--k 10] [--limit N] [--out <dir>]`
 *   (needs JEV_MEM_LLM_BASE_URL / JEV_MEM_LLM_MODEL; see docs/bench/ANSWERS.md)
 *
 * locomo and scale take `--system-one <name>` (default `local`) and `--vector-index`. Node-only.
 *
 * @module
 */
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isJevMemError, JevMemError } from '../src/errors.js';
import { parseSplit } from './lib/data.js';
import { runLocomoBench } from './locomo/locomo.js';
import { JEV_STORES, type JevStore } from './lib/jev.js';
import { renderReadmeSection, writeLocomoOutputs } from './locomo/report.js';
import { parseSystems, SYSTEM_NAMES, type LocomoResults } from './locomo/results.js';
import { DEFAULT_SCALE_BROWSER_SIZES, parseSizes, runScaleBench, writeScaleOutputs, type ScaleBenchOptions } from './scale/scale.js';

/** Usage of the bench sub-commands. */
export const BENCH_USAGE = `Usage:
  npm run bench -- locomo [--data <path>] [--split dev|test|all] [--systems a,b] [--store <kind>] [--out <dir>] [--quick]
  npm run bench -- scale [--sizes 1000,10000,100000] [--browser [--browser-sizes …]] [--edge [--edge-sizes …]] [--peers | --peers-only] [--out <dir>]
  npm run bench -- scale-cli [--small 200] [--large 20000] [--runs 3] [--keep] [--out <dir>]
                                          (issue-13 acceptance: jev-mem recall of 20 questions as its own
                                          process on both stores; PASS when wall ≤ 1.5× and peak RSS
                                          ≤ +150 MiB; exit 1 on FAIL; --keep keeps and reuses the stores
                                          in <out>/scale-cli-stores)
  npm run bench -- system-one [--data <path>] [--browser] [--out <dir>]
                                          (System-One ms per write / per query for each backend)
  npm run bench -- readme [--out <dir>]      (prints the README results section of <dir>/results.json)
  npm run bench -- time [--out <dir>]        (issue-14 time-and-change test set: passes by kind;
                                          exit 1 when a case fails; --out writes time.json, time.md)
  npm run bench -- changes [--out <dir>]     (issue-24 facts that change: updates caught / false
                                          supersessions / AUC by kind, MLP vs logistic head, and
                                          the end-to-end recall check; --out writes changes.json, .md)
  npm run bench -- multilingual [--system-one <name>] [--no-language] [--out <dir>]
                                          (recall@1 and @5 per language of test/fixtures/multilingual
                                          and of the dev / held-out / held-out 2 person sets of
                                          multilingual-person,
                                          default Node encoder; writes <out>/multilingual.json)
  npm run bench -- chats [--part dev|heldout|novel|all|prefdev|prefheld|prefs|wilddev|wildheld|wildlong|wild | --data <longmemeval.json> [--limit N]] [--systems jev-mem,bm25,hybrid] [--clock question|machine] [--trace <file>] [--out <dir>]
                                          (issue-24 generated user/assistant histories: recall@5/10 of
                                          the evidence turns by question kind; writes <out>/chats.json,
                                          chats.md; --trace writes every question's rankings as JSON lines;
                                          --clock: jev-mem recalls at the question's date, the day after
                                          the last turn (default), or at the machine clock)
  npm run bench -- order [--part dev|heldout|kinds|all] [--trace <file>] [--out <dir>]
                                          (issue-24 before/after questions over generated histories:
                                          recall@1/@5 of jev-mem, its ablation no-order and bm25 by
                                          relation and style; writes <out>/order.json, order.md)
  npm run bench -- answers [--split test] [--systems jev-mem,bm25,hybrid] [--k 10] [--limit N] [--out <dir>]
                                          (answer accuracy by LLM-as-a-judge; needs JEV_MEM_LLM_BASE_URL,
                                          JEV_MEM_LLM_MODEL, optional JEV_MEM_LLM_API_KEY and
                                          JEV_MEM_JUDGE_MODEL; writes <out>/answers.json, answers.md)

  --data        LoCoMo file (default: <repo>/../shared/data/locomo10.json); for chats, a file in the
                LongMemEval layout (one history per question; abstention questions not scored)
  --limit       chats --data: the first N questions only
  --split       dev (conv-26,30,41,42,43), test (conv-44,47,48,49,50) or all (default)
  --systems     comma list of ${SYSTEM_NAMES.join(', ')} (default: all)
  --out         output folder (default: bench-out, or bench-out/scale for scale)
  --browser     system-one: also replay in headless Chromium (Web Worker and page; needs the
                repository checkout with its dev dependencies, and Chromium: CHROMIUM_PATH or
                /usr/bin/chromium); writes <out>/system-one.json either way
                scale: also grow the namespace in headless Chromium (IndexedDB, System One in a
                Web Worker) at the same sizes, into results.json under "browser"; the sizes
                then default to 1000,10000 (100k in IndexedDB takes far too long)
  --edge        scale: also grow the namespace in the edge Worker's Durable Object (workerd through
                Miniflare, SQLite storage persisted to a folder) at the same sizes, into results.json
                under "edge"; the sizes then default to 1000,10000
  --peers       scale: also grow the same corpus in Orama (@orama/orama, hybrid search, saved and
                restored with @orama/plugin-data-persistence) in Node, next to jev-mem, and with
                --browser in the Chromium page too (saved into IndexedDB)
  --peers-only  scale: grow only the peers (Orama), no jev-mem namespace: in Node at --sizes and,
                with --browser, in the Chromium page at --browser-sizes (no System One either);
                e.g. --peers-only --browser --sizes 1000 --browser-sizes 1000,10000,100000
  --quick       conv-26 only, the first 6 questions with evidence of each category (30)
  --sizes       namespace sizes of the scale run (default 1000,10000,100000)
  --system-one  System-One backend of jev-mem (default: local)
  --vector-index  flat, hnsw or auto (default: auto)
  --store       locomo: jev-mem's store, sqlite-minisearch (SQLite file, MiniSearch lexical index),
                sqlite-fts5 (SQLite file, FTS5 kept by the store) or memory (in-memory store,
                MiniSearch) (default: createNodeMemory's default store)
  --base-url    URL of the remote System One (with --system-one remote)
  --k, --limit  answers: evidence items per question (default 10), questions at most
`;

type Io = { out(s: string): void; err(s: string): void };

function str(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** One-screen summary of a LoCoMo run (overall recall per system on each split). */
export function summaryLines(results: LocomoResults): string[] {
  const lines: string[] = [];
  for (const s of Object.values(results.systems)) {
    if (!s) continue;
    const parts = Object.entries(s.splits).map(([sp, a]) => `${sp} R@5/10/20 ${(a.overall.recall[5] * 100).toFixed(1)}/${(a.overall.recall[10] * 100).toFixed(1)}/${(a.overall.recall[20] * 100).toFixed(1)} (n=${a.overall.n})`);
    const lat = s.latencyMs ? ` · p50 ${s.latencyMs.p50.toFixed(2)} ms p95 ${s.latencyMs.p95.toFixed(2)} ms` : '';
    lines.push(`${s.name.padEnd(14)} ${s.status === 'failed' ? `FAILED ${s.error} ` : ''}${parts.join(' · ')}${lat}`);
  }
  return lines;
}

/**
 * Runs `npm run bench -- <positionals>` with the CLI's parsed flags; returns the exit code
 * (0 ok, 1 a JevMemError, 2 a usage error). Progress goes to `io.err`, the summary to `io.out`.
 */
export async function runBenchCommand(positionals: string[], values: Record<string, string | boolean | undefined>, io: Io): Promise<number> {
  const [sub, ...rest] = positionals;
  const vectorIndex = str(values['vector-index']) as 'flat' | 'hnsw' | 'auto' | undefined;
  const systemOne = str(values['system-one']);
  try {
    if (sub === 'locomo') {
      if (rest.length > 0) {
        io.err(`bench locomo: unexpected argument ${JSON.stringify(rest[0])}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const out = resolve(str(values.out) ?? 'bench-out');
      const o: Parameters<typeof runLocomoBench>[0] = {
        split: parseSplit(str(values.split)),
        quick: values.quick === true,
        systems: parseSystems(str(values.systems)),
        log: (l) => io.err(l),
        command: ['npm', 'run', 'bench', '--', ...positionals, ...Object.entries(values).filter(([, v]) => v !== undefined && v !== false).map(([k, v]) => (v === true ? `--${k}` : `--${k} ${v}`))].join(' '),
      };
      const data = str(values.data);
      if (data !== undefined) o.dataPath = data;
      if (systemOne !== undefined) o.systemOne = systemOne;
      const base = str(values['base-url']);
      if (base !== undefined) o.systemOneBaseURL = base;
      if (vectorIndex !== undefined) o.vectorIndex = vectorIndex;
      const store = str(values.store);
      if (store !== undefined) {
        if (!(JEV_STORES as readonly string[]).includes(store)) {
          io.err(`bench locomo: --store must be one of ${JEV_STORES.join(', ')}, got ${JSON.stringify(store)}\n\n${BENCH_USAGE}`);
          return 2;
        }
        o.store = store as JevStore;
      }
      const results = await runLocomoBench(o);
      const files = await writeLocomoOutputs(results, out);
      for (const l of summaryLines(results)) io.out(l);
      io.err(`bench: wrote ${files.join(', ')}`);
      return Object.values(results.systems).some((s) => s?.status === 'failed') ? 1 : 0;
    }
    if (sub === 'scale') {
      const out = resolve(str(values.out) ?? 'bench-out/scale');
      const results = await runScaleBench({ ...scaleBenchOptions(rest, values), log: (l) => io.err(l) });
      const files = await writeScaleOutputs(results, out);
      for (const p of results.points) {
        const f = p.fresh;
        io.out(
          `${String(p.size).padStart(7)} nodes · write ${p.write.perSecond.toFixed(0)} obs/s (System One ${p.write.systemOneMsPerWrite.toFixed(2)} ms/write) · recall p50 ${p.recall.p50.toFixed(1)} ms p95 ${p.recall.p95.toFixed(1)} ms · rss ${(p.memory.rssBytes / 2 ** 20).toFixed(0)} MiB · stored ${(p.storage.bytes / 2 ** 20).toFixed(1)} MiB (${p.storage.bytesPerNode.toFixed(0)} B/node) · reopen ${p.reopen.ms.toFixed(0)} ms` +
            (f ? ` · fresh process: open to first recall ${f.openToFirstRecallMs.toFixed(0)} ms, heap ${(f.after.heapUsedBytes / 2 ** 20).toFixed(0)} MiB, RSS ${(f.after.rssBytes / 2 ** 20).toFixed(0)} MiB (peak ${(f.peakRssBytes / 2 ** 20).toFixed(0)})` : p.freshError !== undefined ? ` · fresh process FAILED: ${p.freshError}` : ''),
        );
      }
      const ed = results.edge;
      if (ed?.status === 'done') {
        for (const p of ed.points) {
          const m = (b: number | null): string => (b === null ? '?' : (b / 2 ** 20).toFixed(0));
          io.out(
            `${String(p.size).padStart(7)} nodes (workerd) · write ${p.write.perSecond.toFixed(0)} obs/s · recall p50 ${p.recall.p50.toFixed(1)} ms p95 ${p.recall.p95.toFixed(1)} ms · open to first recall ${p.open.openToFirstRecallMs.toFixed(0)} ms · workerd RSS ${m(p.memory.baseline.rssBytes)} → ${m(p.memory.after.rssBytes)} MiB (isolate heap not observable) · stored ${(p.storage.bytes / 2 ** 20).toFixed(1)} MiB (${p.storage.bytesPerNode.toFixed(0)} B/node)`,
          );
        }
      } else if (ed) io.out(`workerd: ${ed.note}`);
      const orama = results.peers?.orama;
      if (orama?.status === 'done') {
        for (const p of orama.points) {
          io.out(
            `${String(p.size).padStart(7)} docs (Orama) · insert ${p.insert.perSecond.toFixed(0)}/s (${p.insert.perSecondWithEmbedding.toFixed(0)}/s with embedding) · hybrid search p50 ${p.search.p50.toFixed(1)} ms p95 ${p.search.p95.toFixed(1)} ms · heap ${(p.memory.heapUsedBytes / 2 ** 20).toFixed(0)} MiB · saved ${(p.persist.bytes / 2 ** 20).toFixed(1)} MiB in ${p.persist.saveMs.toFixed(0)} ms · restore ${p.persist.restoreMs.toFixed(0)} ms`,
          );
        }
      } else if (orama) io.out(`Orama: ${orama.note}`);
      if (results.browser.status === 'done') {
        for (const p of results.browser.points) {
          io.out(
            `${String(p.size).padStart(7)} nodes (Chromium) · write ${p.write.perSecond.toFixed(0)} obs/s (System One ${p.write.systemOneMsPerWrite.toFixed(2)} ms/write) · recall p50 ${p.recall.p50.toFixed(1)} ms p95 ${p.recall.p95.toFixed(1)} ms · heap ${p.heapUsedBytes === undefined ? '?' : (p.heapUsedBytes / 2 ** 20).toFixed(0)} MiB · stored ${(p.storage.bytes / 2 ** 20).toFixed(1)} MiB · reopen ${p.reopen.ms.toFixed(0)} ms`,
          );
        }
        const bo = results.browser.peers?.orama;
        if (bo?.status === 'done') {
          for (const p of bo.points) {
            io.out(
              `${String(p.size).padStart(7)} docs (Orama, Chromium) · insert ${p.insert.perSecond.toFixed(0)}/s (${p.insert.perSecondWithEmbedding.toFixed(0)}/s with embedding) · hybrid search p50 ${p.search.p50.toFixed(1)} ms p95 ${p.search.p95.toFixed(1)} ms · heap ${(p.memory.heapUsedBytes / 2 ** 20).toFixed(0)} MiB · saved ${(p.persist.bytes / 2 ** 20).toFixed(1)} MiB to IndexedDB in ${p.persist.saveMs.toFixed(0)} ms · restore ${p.persist.restoreMs.toFixed(0)} ms`,
            );
          }
        } else if (bo) io.out(`Orama (Chromium): ${bo.note}`);
      }
      io.err(`bench: wrote ${files.join(', ')}`);
      return 0;
    }
    if (sub === 'scale-cli') {
      // Issue 13 acceptance: the CLI on a 200- and a 20,000-observation store; exit 1 on FAIL.
      const { renderCliCheck, runCliCheck } = await import('./scale/cli-check.js');
      const { mkdir, writeFile } = await import('node:fs/promises');
      const int = (name: string): number | undefined => {
        const v = str(values[name]);
        if (v === undefined) return undefined;
        const n = parseSizes(v)[0] as number;
        if (parseSizes(v).length !== 1) throw new JevMemError('INVALID_OPTION', `--${name} expects one integer ≥ 1, got ${JSON.stringify(v)}`, { field: name });
        return n;
      };
      const out = resolve(str(values.out) ?? 'bench-out/scale');
      const o: Parameters<typeof runCliCheck>[0] = { log: (l) => io.err(l) };
      const small = int('small');
      const large = int('large');
      const runs = int('runs');
      if (small !== undefined) o.small = small;
      if (large !== undefined) o.large = large;
      if (runs !== undefined) o.runs = runs;
      if (values.keep === true) o.keepDir = resolve(out, 'scale-cli-stores');
      const data = str(values.data);
      if (data !== undefined) o.dataPath = data;
      const results = await runCliCheck(o);
      const lines = renderCliCheck(results);
      for (const l of lines.slice(-1)) io.out(l);
      await mkdir(out, { recursive: true });
      await writeFile(resolve(out, 'scale-cli.json'), `${JSON.stringify(results, null, 2)}\n`);
      await writeFile(resolve(out, 'scale-cli.md'), `${lines.join('\n')}\n`);
      io.err(`bench: wrote ${resolve(out, 'scale-cli.json')}, ${resolve(out, 'scale-cli.md')}`);
      return results.verdict.pass ? 0 : 1;
    }
    if (sub === 'system-one') {
      if (rest.length > 0) {
        io.err(`bench system-one: unexpected argument ${JSON.stringify(rest[0])}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const { recordSystemOneOperations, runSystemOneBench, runSystemOneBrowserBench, renderSystemOneTable } = await import('./system-one/system-one.js');
      const { machineInfo, gitInfo } = await import('./lib/resources.js');
      const { repoRoot } = await import('./lib/data.js');
      const { mkdir, writeFile } = await import('node:fs/promises');
      const out = resolve(str(values.out) ?? 'bench-out');
      const browser = values.browser === true;
      const o: Parameters<typeof recordSystemOneOperations>[0] = { log: (l) => io.err(l) };
      const data = str(values.data);
      if (data !== undefined) o.dataPath = data;
      const started = new Date();
      const recording = await recordSystemOneOperations(o);
      const node = await runSystemOneBench({ ...o, recording });
      const chromium = browser ? await runSystemOneBrowserBench(recording.ops, { log: (l) => io.err(l) }) : undefined;
      const rows = [...node.rows, ...(chromium?.rows ?? [])];
      io.out(renderSystemOneTable({ source: recording.source, rows }));
      const file = resolve(out, 'system-one.json');
      await mkdir(out, { recursive: true });
      const json = {
        format: 'jev-mem/bench-system-one',
        createdAt: started.toISOString(),
        command: ['npm', 'run', 'bench', '--', ...positionals, ...Object.entries(values).filter(([, v]) => v !== undefined && v !== false).map(([k, v]) => (v === true ? `--${k}` : `--${k} ${v}`))].join(' '),
        git: gitInfo(repoRoot()),
        machine: machineInfo(),
        source: recording.source,
        writes: recording.writes,
        queries: recording.queries,
        ...(chromium ? { chromium: { version: chromium.chromium, crossOriginIsolated: chromium.crossOriginIsolated } } : {}),
        rows,
      };
      await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
      io.err(`bench: wrote ${file}`);
      return 0;
    }
    if (sub === 'multilingual') {
      if (rest.length > 0) {
        io.err(`bench multilingual: unexpected argument ${JSON.stringify(rest[0])}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const { loadMultilingualSets, loadPersonSets, multilingualTable, personTable, runMultilingualBench } = await import('./multilingual/multilingual.js');
      const { createDefaultNodeEncoder } = await import('../src/encoder/default-node.js');
      const { createSystemOneFromName } = await import('../src/system-one/from-name.js');
      const { mkdir, writeFile } = await import('node:fs/promises');
      const out = resolve(str(values.out) ?? 'bench-out');
      const encoder = await createDefaultNodeEncoder();
      const backend = await createSystemOneFromName(systemOne ?? 'local', { env: process.env });
      try {
        // --no-language: the namespaces without their `language` option (issue 24's before).
        const opts = { language: values['no-language'] !== true };
        const results = await runMultilingualBench(loadMultilingualSets(), encoder, backend, opts);
        io.out(multilingualTable(results));
        for (const r of results) for (const m of r.misses) io.err(`bench: ${r.language} miss@5: ${m.question} (expected ${m.expected}, got ${m.got.join(', ')})`);
        const dev = await runMultilingualBench(loadPersonSets('dev'), encoder, backend, opts);
        const heldout = await runMultilingualBench(loadPersonSets('heldout'), encoder, backend, opts);
        const heldout2 = await runMultilingualBench(loadPersonSets('heldout2'), encoder, backend, opts);
        io.out(`\nSecond person set (test/fixtures/multilingual-person; dev tuned on, held-out and held-out 2 only measured):\n\n${personTable(dev, heldout, heldout2)}`);
        for (const [split, rs] of [['dev', dev], ['heldout', heldout], ['heldout2', heldout2]] as const) {
          for (const r of rs) for (const m of [...(r.person?.misses1 ?? []), ...(r.short?.misses1 ?? [])]) io.err(`bench: ${split} ${r.language} miss@1: ${m.question} (expected ${m.expected}, got ${m.got.join(', ')})`);
        }
        await mkdir(out, { recursive: true });
        const file = resolve(out, 'multilingual.json');
        await writeFile(file, `${JSON.stringify({ format: 'jev-mem/bench-multilingual', encoder: encoder.fingerprint, systemOne: backend.modelId, results, person: { dev, heldout, heldout2 } }, null, 2)}\n`);
        io.err(`bench: wrote ${file}`);
      } finally {
        await encoder.close?.();
        await backend.close();
      }
      return 0;
    }
    if (sub === 'chats') {
      if (rest.length > 0) {
        io.err(`bench chats: unexpected argument ${JSON.stringify(rest[0])}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const { chatsTables, parseChatSystems, runChatsBench } = await import('./chats/chats.js');
      const { mkdir, writeFile, appendFile } = await import('node:fs/promises');
      const part = str(values.part) ?? 'all';
      if (!['dev', 'heldout', 'novel', 'all', 'prefdev', 'prefheld', 'prefs', 'wilddev', 'wildheld', 'wildlong', 'wild'].includes(part)) {
        io.err(`bench chats: --part must be dev, heldout, novel, all, prefdev, prefheld, prefs, wilddev, wildheld, wildlong or wild, got ${JSON.stringify(part)}\n\n${BENCH_USAGE}`);
        return 2;
      }
      let systems;
      try {
        systems = parseChatSystems(str(values.systems));
      } catch (e) {
        io.err(`bench chats: ${(e as Error).message}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const clock = str(values.clock) ?? 'question';
      if (clock !== 'question' && clock !== 'machine') {
        io.err(`bench chats: --clock must be question or machine, got ${JSON.stringify(clock)}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const trace = str(values.trace);
      const dataFile = str(values.data);
      const limit = str(values.limit);
      if (limit !== undefined && !/^[1-9]\d*$/.test(limit)) {
        io.err(`bench chats: --limit must be a positive integer, got ${JSON.stringify(limit)}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const { readDataPart } = await import('./chats/data.js');
      const data = dataFile !== undefined ? await readDataPart(resolve(dataFile), limit === undefined ? undefined : Number(limit)) : undefined;
      if (trace !== undefined) await writeFile(resolve(trace), '');
      const results = await runChatsBench({
        ...(data !== undefined ? { data } : {}),
        parts: part === 'all' ? ['dev', 'heldout', 'novel'] : part === 'prefs' ? ['prefdev', 'prefheld'] : part === 'wild' ? ['wilddev', 'wildheld'] : [part as 'dev' | 'heldout' | 'novel' | 'prefdev' | 'prefheld' | 'wilddev' | 'wildheld' | 'wildlong'],
        systems,
        clock,
        ...(systemOne !== undefined ? { systemOne } : {}),
        log: (l) => io.err(l),
        ...(trace !== undefined ? { onQuestion: (x) => void appendFile(resolve(trace), `${JSON.stringify(x)}\n`) } : {}),
      });
      const lines = chatsTables(results);
      for (const l of lines) io.out(l);
      const out = resolve(str(values.out) ?? 'bench-out');
      await mkdir(out, { recursive: true });
      await writeFile(resolve(out, 'chats.json'), `${JSON.stringify(results, null, 2)}\n`);
      await writeFile(resolve(out, 'chats.md'), `${lines.join('\n')}\n`);
      io.err(`bench: wrote ${resolve(out, 'chats.json')}, ${resolve(out, 'chats.md')}`);
      return 0;
    }
    if (sub === 'order') {
      const { orderTables, runOrderBench } = await import('./order/order.js');
      const { mkdir, writeFile, appendFile } = await import('node:fs/promises');
      const part = str(values.part) ?? 'all';
      if (!['dev', 'heldout', 'kinds', 'all'].includes(part)) {
        io.err(`bench order: --part must be dev, heldout, kinds or all, got ${JSON.stringify(part)}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const trace = str(values.trace);
      if (trace !== undefined) await writeFile(resolve(trace), '');
      const results = await runOrderBench({
        parts: part === 'all' ? ['dev', 'heldout', 'kinds'] : [part as 'dev' | 'heldout' | 'kinds'],
        log: (l) => io.err(l),
        ...(trace !== undefined ? { onQuestion: (x: object) => void appendFile(resolve(trace), `${JSON.stringify(x)}\n`) } : {}),
      });
      const lines = orderTables(results);
      for (const l of lines) io.out(l);
      const out = resolve(str(values.out) ?? 'bench-out');
      await mkdir(out, { recursive: true });
      await writeFile(resolve(out, 'order.json'), `${JSON.stringify(results, null, 2)}\n`);
      await writeFile(resolve(out, 'order.md'), `${lines.join('\n')}\n`);
      io.err(`bench: wrote ${resolve(out, 'order.json')}, ${resolve(out, 'order.md')}`);
      return 0;
    }
    if (sub === 'answers') {
      if (rest.length > 0) {
        io.err(`bench answers: unexpected argument ${JSON.stringify(rest[0])}\n\n${BENCH_USAGE}`);
        return 2;
      }
      const { systemTwoFromEnv } = await import('../src/system-two/from-env.js');
      const systemTwo = systemTwoFromEnv(process.env);
      if (!systemTwo) {
        io.err('bench answers: no System Two configured: set JEV_MEM_LLM_BASE_URL (e.g. http://127.0.0.1:8080/v1) and JEV_MEM_LLM_MODEL (JEV_MEM_LLM_API_KEY when the endpoint needs one); see docs/bench/ANSWERS.md');
        return 2;
      }
      const { runAnswerEval, writeAnswerOutputs } = await import('./locomo/answers.js');
      const int = (name: string): number | undefined => {
        const v = str(values[name]);
        if (v === undefined) return undefined;
        if (!/^\d+$/.test(v) || Number(v) < 1) throw new JevMemError('INVALID_OPTION', `--${name} expects an integer ≥ 1, got ${JSON.stringify(v)}`, { field: name });
        return Number(v);
      };
      const o: Parameters<typeof runAnswerEval>[0] = {
        systemTwo,
        split: parseSplit(str(values.split) ?? 'test'),
        systems: str(values.systems) === undefined ? ['jev-mem', 'bm25', 'hybrid'] : parseSystems(str(values.systems)),
        log: (l) => io.err(l),
        command: ['npm', 'run', 'bench', '--', ...positionals, ...Object.entries(values).filter(([, v]) => v !== undefined && v !== false).map(([k, v]) => (v === true ? `--${k}` : `--${k} ${v}`))].join(' '),
      };
      const judgeModel = process.env.JEV_MEM_JUDGE_MODEL;
      if (judgeModel) o.judge = { ...systemTwo, model: judgeModel };
      const k = int('k');
      if (k !== undefined) o.k = k;
      const limit = int('limit');
      if (limit !== undefined) o.limit = limit;
      const data = str(values.data);
      if (data !== undefined) o.dataPath = data;
      if (systemOne !== undefined) o.systemOne = systemOne;
      const results = await runAnswerEval(o);
      const files = await writeAnswerOutputs(results, resolve(str(values.out) ?? 'bench-out'));
      for (const s of Object.values(results.systems)) {
        if (s) io.out(`${s.name.padEnd(14)} ${s.status === 'failed' ? `FAILED ${s.error} ` : ''}overall ${(s.overall.accuracy * 100).toFixed(1)}% (n=${s.overall.n}) · adversarial ${(s.byCategory['5']!.accuracy * 100).toFixed(1)}% (n=${s.byCategory['5']!.n})`);
      }
      io.err(`bench: wrote ${files.join(', ')}`);
      return Object.values(results.systems).some((s) => s?.status === 'failed') ? 1 : 0;
    }
    if (sub === 'time') {
      // The issue-14 test set (bench/time/cases.ts) by kind; `--out <dir>` also writes time.json and time.md.
      const { runTimeBench } = await import('./time/time.js');
      const { lines, results, stateAuc } = runTimeBench();
      for (const l of lines) io.out(l);
      const outDir = str(values.out);
      if (outDir !== undefined) {
        const { mkdir, writeFile } = await import('node:fs/promises');
        const dir = resolve(outDir);
        await mkdir(dir, { recursive: true });
        await writeFile(resolve(dir, 'time.json'), `${JSON.stringify({ stateAuc, results: results.map((r) => ({ ...r.case, ok: r.ok, got: r.got })) }, null, 2)}\n`);
        await writeFile(resolve(dir, 'time.md'), `${lines.join('\n')}\n`);
        io.err(`bench: wrote ${resolve(dir, 'time.json')}, ${resolve(dir, 'time.md')}`);
      }
      return results.every((r) => r.ok) ? 0 : 1;
    }
    if (sub === 'changes') {
      // Issue 24: facts that change, by kind, the MLP head beside the logistic one, plus the
      // end-to-end recall check; `--out <dir>` also writes changes.json and changes.md.
      const { runChangesBench } = await import('./changes/changes.js');
      const report = await runChangesBench();
      for (const l of report.lines) io.out(l);
      const outDir = str(values.out);
      if (outDir !== undefined) {
        const { mkdir, writeFile } = await import('node:fs/promises');
        const dir = resolve(outDir);
        await mkdir(dir, { recursive: true });
        const { lines, ...json } = report;
        await writeFile(resolve(dir, 'changes.json'), `${JSON.stringify(json, null, 2)}\n`);
        await writeFile(resolve(dir, 'changes.md'), `${lines.join('\n')}\n`);
        io.err(`bench: wrote ${resolve(dir, 'changes.json')}, ${resolve(dir, 'changes.md')}`);
      }
      return 0;
    }
    if (sub === 'readme') {
      // Renders the README results section from a results.json (`npm run bench -- readme [--out dir]`).
      const { readFile } = await import('node:fs/promises');
      const dir = resolve(str(values.out) ?? 'bench-out');
      const results = JSON.parse(await readFile(resolve(dir, 'results.json'), 'utf8')) as LocomoResults;
      // Charts are linked where this run wrote them, relative to the folder the README lives in.
      io.out(renderReadmeSection(results, { chartsDir: relative(process.cwd(), dir).split(sep).join('/') || '.' }));
      return 0;
    }
    io.err(`bench: ${sub === undefined ? 'missing sub-command' : `unknown sub-command ${JSON.stringify(sub)}`}\n\n${BENCH_USAGE}`);
    return 2;
  } catch (e) {
    if (isJevMemError(e)) {
      io.err(`bench: ${e.code}: ${e.message}`);
      return e.code === 'INVALID_OPTION' ? 2 : 1;
    }
    throw e;
  }
}

/** The flags {@link main} accepts (the former CLI's bench flags plus `--sizes`). */
const BENCH_OPTIONS = {
  data: { type: 'string' },
  split: { type: 'string' },
  systems: { type: 'string' },
  out: { type: 'string' },
  quick: { type: 'boolean' },
  'no-language': { type: 'boolean' },
  browser: { type: 'boolean' },
  edge: { type: 'boolean' },
  small: { type: 'string' },
  large: { type: 'string' },
  runs: { type: 'string' },
  keep: { type: 'boolean' },
  sizes: { type: 'string' },
  'browser-sizes': { type: 'string' },
  'edge-sizes': { type: 'string' },
  peers: { type: 'boolean' },
  'peers-only': { type: 'boolean' },
  k: { type: 'string' },
  limit: { type: 'string' },
  'system-one': { type: 'string' },
  'vector-index': { type: 'string' },
  store: { type: 'string' },
  part: { type: 'string' },
  clock: { type: 'string' },
  trace: { type: 'string' },
  'base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * The options of `bench scale` from its flags (`rest`: the positionals after `scale`, a size list
 * in place of `--sizes`).
 * @throws JevMemError `INVALID_OPTION` on a bad size list, or `--peers-only` with `--edge` (the
 *   workerd half grows jev-mem only).
 */
export function scaleBenchOptions(rest: readonly string[], values: Record<string, string | boolean | undefined>): ScaleBenchOptions {
  const browser = values.browser === true;
  const edge = values.edge === true;
  const peersOnly = values['peers-only'] === true;
  if (peersOnly && edge) throw new JevMemError('INVALID_OPTION', '--peers-only grows no jev-mem namespace; it does not go with --edge', { field: 'peers-only' });
  const given = str(values.sizes) ?? rest[0];
  // with --browser or --edge every half defaults to 1k and 10k (100k in IndexedDB is too slow for a session)
  const sizes = given === undefined && (browser || edge) ? [...DEFAULT_SCALE_BROWSER_SIZES] : parseSizes(given);
  // --browser-sizes / --edge-sizes give a half its own sizes (e.g. the Chromium half at 100k
  // while the Node half runs 1k only).
  const browserSizes = str(values['browser-sizes']) !== undefined ? parseSizes(str(values['browser-sizes'])) : sizes;
  const edgeSizes = str(values['edge-sizes']) !== undefined ? parseSizes(str(values['edge-sizes'])) : sizes;
  const data = str(values.data);
  const systemOne = str(values['system-one']);
  const vectorIndex = str(values['vector-index']) as ScaleBenchOptions['vectorIndex'];
  return {
    sizes,
    ...(browser ? { browser: { sizes: browserSizes } } : {}),
    ...(edge ? { edge: { sizes: edgeSizes } } : {}),
    ...(values.peers === true || peersOnly ? { peers: true } : {}),
    ...(peersOnly ? { peersOnly: true } : {}),
    ...(data !== undefined ? { dataPath: data } : {}),
    ...(systemOne !== undefined ? { systemOne } : {}),
    ...(vectorIndex !== undefined ? { vectorIndex } : {}),
  };
}

/**
 * Parses `argv` (without node and the script) and runs {@link runBenchCommand}; returns the exit
 * code (2 for an unknown flag, with the usage on `io.err`).
 */
export async function main(argv: string[], io: Io = { out: (s) => process.stdout.write(`${s}\n`), err: (s) => process.stderr.write(`${s}\n`) }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: BENCH_OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    io.err(`bench: ${(e as Error).message}\n\n${BENCH_USAGE}`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.out(BENCH_USAGE);
    return 0;
  }
  return runBenchCommand(parsed.positionals, parsed.values, io);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
