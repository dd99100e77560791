/**
 * The `jev-mem` command (Node). Sub-commands: ingest, recall, answer, decide, stats, export,
 * import, delete, forget, bench. Prints JSON or text on stdout, progress and errors on stderr;
 * exit code 0 on success, 1 on a JevMemError (its code is printed), 2 on a usage error.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { JevMemError, isJevMemError } from '../errors.js';
import { parseJsonl, parseQuestions } from '../formats/jsonl.js';
import { locomoConversation, parseLocomo } from '../formats/locomo.js';
import { isMemoryBankHistory, parseMemoryBank } from '../formats/memorybank.js';
import type { Memory, RecallResult } from '../memory.js';
import { createNodeMemory } from '../node.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import type { SystemTwoOptions } from '../system-two/types.js';
import type { Observation } from '../types.js';
import { createSystemOneFromName, SYSTEM_ONE_NAMES } from './system-one.js';

const USAGE = `jev-mem — client-side long-term memory for AI agents

Usage:
  jev-mem ingest <file> --store <dir> [--namespace <ns>] [--format jsonl|locomo|memorybank] [--sample <id>]
  jev-mem recall "<question>" --store <dir> [--namespace <ns>] [--k N] [--json]
  jev-mem recall --questions <file> --store <dir> [--namespace <ns>] [--k N] --json
  jev-mem answer "<question>" --store <dir> [--namespace <ns>] [--k N] [--json]
  jev-mem decide [--backend local|heuristic|remote] [--base-url URL]   (request JSON on stdin)
  jev-mem stats --store <dir> [--namespace <ns>]
  jev-mem export --store <dir> [--namespace <ns>] > file.json
  jev-mem import <file.json> --store <dir> [--namespace <ns>] [--reembed]
  jev-mem delete <id> --store <dir> [--namespace <ns>]
  jev-mem forget --store <dir> --namespace <ns>
  jev-mem bench locomo [--data <path>] [--split dev|test|all] [--systems a,b] [--out <dir>] [--quick]
  jev-mem bench scale 1000,10000,100000 [--browser] [--out <dir>]
  jev-mem bench system-one [--browser] [--out <dir>]
  jev-mem bench answers [--split test] [--systems a,b] [--k 10] [--limit N] [--out <dir>]

recall --questions reads one question a line: plain text, or JSON with a "question" field (its
other fields come back as "meta"). Only ingest and import create a missing --store.

Common options:
  --system-one <${SYSTEM_ONE_NAMES.join('|')}>  System-One backend (default: local)
  --vector-index <flat|hnsw|auto>             vector index (default: auto)

System Two (for 'answer') comes from the environment:
  JEV_MEM_LLM_BASE_URL  OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1
  JEV_MEM_LLM_API_KEY   bearer key (optional)
  JEV_MEM_LLM_MODEL     model name (required with the base URL)

System One 'remote' comes from JEV_MEM_SYSTEM_ONE_URL and JEV_MEM_SYSTEM_ONE_KEY (or --base-url).
`;

class UsageError extends Error {}

/** System-One backends opened by this run (closed at the end). */
const openedBackends: SystemOneBackend[] = [];

const OPTIONS = {
  store: { type: 'string' },
  namespace: { type: 'string' },
  format: { type: 'string' },
  sample: { type: 'string' },
  k: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  questions: { type: 'string' },
  backend: { type: 'string' },
  'base-url': { type: 'string' },
  'system-one': { type: 'string' },
  'vector-index': { type: 'string' },
  reembed: { type: 'boolean' },
  data: { type: 'string' },
  split: { type: 'string' },
  systems: { type: 'string' },
  out: { type: 'string' },
  quick: { type: 'boolean' },
  browser: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

function need(v: string | undefined, name: string): string {
  if (v === undefined || v === '') throw new UsageError(`missing --${name}`);
  return v;
}

function parseK(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const k = Number(v);
  if (!Number.isInteger(k) || k < 1) throw new UsageError(`--k expects a positive integer, got ${JSON.stringify(v)}`);
  return k;
}

/** System Two options from the environment, or undefined when not configured. */
export function systemTwoFromEnv(env: NodeJS.ProcessEnv): SystemTwoOptions | undefined {
  const base = env.JEV_MEM_LLM_BASE_URL;
  if (!base) return undefined;
  const model = env.JEV_MEM_LLM_MODEL;
  if (!model) throw new JevMemError('INVALID_OPTION', 'JEV_MEM_LLM_MODEL must name the model when JEV_MEM_LLM_BASE_URL is set', { field: 'JEV_MEM_LLM_MODEL' });
  const o: SystemTwoOptions = { url: `${base.replace(/\/+$/, '')}/chat/completions`, model };
  if (env.JEV_MEM_LLM_API_KEY) o.apiKey = env.JEV_MEM_LLM_API_KEY;
  return o;
}

async function openMemory(v: Values, withSystemTwo = false, create = false): Promise<Memory> {
  const store = need(v.store, 'store');
  // Only the commands that write into a new store (ingest, import) may create it: a mistyped
  // --store elsewhere is STORE_MISSING, not an empty memory.
  const systemOne: SystemOneBackend = await createSystemOneFromName(v['system-one'] ?? 'local', { baseURL: v['base-url'], env: process.env });
  openedBackends.push(systemOne);
  const opts: Parameters<typeof createNodeMemory>[0] = { store, systemOne, create };
  if (v.namespace !== undefined) opts.namespace = v.namespace;
  if (v['vector-index'] !== undefined) opts.vectorIndex = v['vector-index'] as 'flat' | 'hnsw' | 'auto';
  if (withSystemTwo) {
    const s2 = systemTwoFromEnv(process.env);
    if (s2) opts.systemTwo = s2;
  }
  return createNodeMemory(opts);
}

function recallJson(r: RecallResult): unknown {
  return {
    memories: r.memories.map((m) => ({ id: m.id, text: m.text, observedAt: m.observedAt, score: Math.round(m.score * 1e4) / 1e4, status: m.status, provenance: m.provenance })),
    trace: r.trace,
  };
}

function printRecallText(r: RecallResult, out: (s: string) => void): void {
  r.memories.forEach((m, i) => {
    const when = m.observedAt ? m.observedAt.slice(0, 10) : '----------';
    const turn = m.provenance.turnId ? ` (${m.provenance.turnId})` : '';
    out(`${String(i + 1).padStart(2)}. [${m.score.toFixed(3)}] ${when}${turn} ${m.text}`);
  });
  const t = r.trace;
  out(
    `\nviews ${t.routing.active.join(',')} · depth ${t.depth.reached}/${t.depth.max} · stop: ${t.stopReason} · visited ${t.limits.visited} · System-One calls ${t.limits.controllerCalls} (fallbacks ${t.fallbacks}) · ${t.timings.totalMs.toFixed(1)} ms`,
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function loadObservations(file: string, v: Values): Promise<{ observations: Observation[]; namespace?: string }> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new JevMemError('NOT_FOUND', `cannot read ${file}: ${e.code ?? e.message}`, { field: 'file', cause: e });
  });
  const format = v.format ?? (file.endsWith('.json') ? detectJsonFormat(text) : 'jsonl');
  if (format === 'jsonl') return { observations: parseJsonl(text) };
  if (format === 'memorybank') {
    const users = parseMemoryBank(text);
    const ids = users.map((u) => u.id).join(', ');
    if (v.sample === undefined && users.length > 1) {
      throw new JevMemError('INVALID_OPTION', `${file} holds ${users.length} users; choose one with --sample <user> (${ids})`, { field: 'sample' });
    }
    const user = v.sample === undefined ? users[0] : users.find((u) => u.id === v.sample?.trim());
    if (!user) throw new JevMemError('NOT_FOUND', `no user ${JSON.stringify(v.sample)} in ${file}; users: ${ids}`, { field: 'sample' });
    return { observations: user.observations, namespace: user.id };
  }
  if (format !== 'locomo') throw new UsageError(`--format expects jsonl, locomo or memorybank, got ${JSON.stringify(format)}`);
  const samples = parseLocomo(text);
  // Several conversations and no --sample: refuse rather than silently take the first one.
  if (v.sample === undefined && samples.length > 1) {
    throw new JevMemError('INVALID_OPTION', `${file} holds ${samples.length} conversations; choose one with --sample <id> (${samples.map((s) => s.sample_id).join(', ')})`, { field: 'sample' });
  }
  const id = v.sample ?? samples[0]?.sample_id;
  const sample = samples.find((s) => s.sample_id === id);
  if (!sample) throw new JevMemError('NOT_FOUND', `no sample ${JSON.stringify(id)} in ${file}; samples: ${samples.map((s) => s.sample_id).join(', ')}`, { field: 'sample' });
  return { observations: locomoConversation(sample).observations, namespace: sample.sample_id };
}

/** The format of a `.json` file: `memorybank` for an object of users with histories, else `locomo` (whose reader reports what is wrong). */
function detectJsonFormat(text: string): string {
  try {
    return isMemoryBankHistory(JSON.parse(text)) ? 'memorybank' : 'locomo';
  } catch {
    return 'locomo';
  }
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: { out: (s: string) => void; err: (s: string) => void } = { out: (s) => process.stdout.write(`${s}\n`), err: (s) => process.stderr.write(`${s}\n`) }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    io.err(`jev-mem: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values as Values;
  const [cmd, ...pos] = parsed.positionals;
  if (v.help || cmd === undefined || cmd === 'help') {
    io.out(USAGE);
    return cmd === undefined && !v.help ? 2 : 0;
  }
  let memory: Memory | undefined;
  try {
    switch (cmd) {
      case 'ingest': {
        const file = pos[0];
        if (!file) throw new UsageError('ingest needs a file');
        const { observations, namespace } = await loadObservations(file, v);
        const madeStore = v.store !== undefined && !existsSync(v.store);
        const ns = v.namespace ?? namespace;
        memory = await openMemory({ ...v, ...(ns !== undefined ? { namespace: ns } : {}) }, false, true);
        const opened = memory;
        const t0 = performance.now();
        let lastPrint = 0;
        const res = await opened.addMany(observations, {
          onProgress: (p) => {
            const t = performance.now();
            if (t - lastPrint > 1000 || p.done === p.total) {
              lastPrint = t;
              io.err(`ingest: ${p.done}/${p.total} observations · ${p.perSecond.toFixed(0)} turns/s`);
            }
          },
        }).catch(async (e: unknown) => {
          // Bad input is refused before anything is written: a store this command made for it
          // would stay empty, so remove it (a store holding committed chunks is kept).
          if (madeStore && (await opened.stats()).nodes === 0) {
            memory = undefined;
            await opened.close();
            await rm(v.store as string, { recursive: true, force: true });
          }
          throw e;
        });
        const s = await memory.stats();
        const secs = (performance.now() - t0) / 1000;
        io.out(
          JSON.stringify({
            namespace: s.namespace,
            ingested: res.length,
            deduplicated: res.filter((r) => r.deduplicated).length,
            nodes: s.nodes,
            edges: s.edges,
            edgesByView: s.edgesByView,
            seconds: Math.round(secs * 1000) / 1000,
            turnsPerSecond: Math.round(res.length / secs),
            systemOne: s.systemOne,
            encoder: s.encoder,
          }),
        );
        return 0;
      }
      case 'recall': {
        memory = await openMemory(v);
        const k = parseK(v.k);
        if (v.questions !== undefined) {
          const qs = parseQuestions(
            await readFile(v.questions, 'utf8').catch((e: NodeJS.ErrnoException) => {
              throw new JevMemError('NOT_FOUND', `cannot read ${v.questions}: ${e.code ?? e.message}`, { field: 'questions', cause: e });
            }),
          );
          for (const q of qs) {
            const r = await memory.recall(q.question, k === undefined ? {} : { k });
            io.out(JSON.stringify({ question: q.question, ...(q.meta ? { meta: q.meta } : {}), ...(recallJson(r) as object) }));
          }
          return 0;
        }
        const query = pos.join(' ');
        const r = await memory.recall(query, k === undefined ? {} : { k });
        if (v.json) io.out(JSON.stringify(recallJson(r)));
        else printRecallText(r, io.out);
        return 0;
      }
      case 'answer': {
        memory = await openMemory(v, true);
        const k = parseK(v.k);
        const a = await memory.answer(pos.join(' '), k === undefined ? {} : { k });
        if (v.json) io.out(JSON.stringify({ answer: a.text, model: a.systemTwo.model, ...(recallJson(a) as object) }));
        else {
          io.out(a.text);
          io.err(`(${a.memories.length} memories, System Two ${a.systemTwo.model}, ${a.systemTwo.latencyMs.toFixed(0)} ms)`);
        }
        return 0;
      }
      case 'decide': {
        const backend = await createSystemOneFromName(v.backend ?? 'local', { baseURL: v['base-url'], env: process.env });
        try {
          const text = await readStdin();
          let req: unknown;
          try {
            req = JSON.parse(text);
          } catch (e) {
            throw new JevMemError('SYSTEM_ONE_INVALID_REQUEST', `stdin is not JSON: ${(e as Error).message}`, { field: 'stdin' });
          }
          const res = await backend.decide(req as Parameters<SystemOneBackend['decide']>[0]);
          io.out(JSON.stringify(res));
        } finally {
          await backend.close();
        }
        return 0;
      }
      case 'stats': {
        memory = await openMemory(v);
        io.out(JSON.stringify(await memory.stats()));
        return 0;
      }
      case 'export': {
        memory = await openMemory(v);
        io.out(JSON.stringify(await memory.export()));
        return 0;
      }
      case 'import': {
        const file = pos[0];
        if (!file) throw new UsageError('import needs a file');
        const raw = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
          throw new JevMemError('NOT_FOUND', `cannot read ${file}: ${e.code ?? e.message}`, { field: 'file', cause: e });
        });
        let data: unknown;
        try {
          data = JSON.parse(raw);
        } catch (e) {
          throw new JevMemError('INVALID_INPUT', `${file} is not JSON (${(e as Error).message}); expected a jev-mem export`, { field: 'file' });
        }
        memory = await openMemory(v, false, true);
        const o: Parameters<Memory['import']>[1] = { reembed: v.reembed === true };
        if (v.namespace !== undefined) o.namespace = v.namespace;
        io.out(JSON.stringify(await memory.import(data, o)));
        return 0;
      }
      case 'delete': {
        const id = pos[0];
        if (!id) throw new UsageError('delete needs a node id');
        memory = await openMemory(v);
        const ok = await memory.delete(id);
        if (!ok) throw new JevMemError('NOT_FOUND', `no node ${JSON.stringify(id)} in namespace ${JSON.stringify(memory.namespace)}`, { field: 'id' });
        io.out(JSON.stringify({ deleted: id }));
        return 0;
      }
      case 'forget': {
        const ns = need(v.namespace, 'namespace');
        memory = await openMemory(v);
        await memory.forget(ns);
        io.out(JSON.stringify({ forgotten: ns }));
        return 0;
      }
      case 'bench': {
        const { runBenchCommand } = await import('../bench/cli.js');
        return await runBenchCommand(pos, v as Record<string, string | boolean | undefined>, io);
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(cmd)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`jev-mem: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (isJevMemError(e)) {
      const hint = e.code === 'SYSTEM_TWO_NOT_CONFIGURED' ? ' (CLI: set JEV_MEM_LLM_BASE_URL and JEV_MEM_LLM_MODEL, and JEV_MEM_LLM_API_KEY if the endpoint needs one)' : '';
      io.err(`jev-mem: ${e.code}: ${e.message}${hint}`);
      return 1;
    }
    io.err(`jev-mem: unexpected error: ${(e as Error)?.stack ?? String(e)}`);
    return 1;
  } finally {
    await memory?.close();
    for (const b of openedBackends.splice(0)) await b.close();
  }
}
