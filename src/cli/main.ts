/**
 * The `jev-mem` command (Node). Commands: ingest, recall, answer, list, history (browse.ts),
 * decide, stats, export, import, delete, forget, maintain (maintain.ts), mcp (the MCP server over stdio: integrations/mcp/stdio.ts; the table and the help are in commands.ts). Results on stdout (JSON, or text),
 * progress, hints and errors on stderr. This module runs a command line: the parsing, usage and
 * help are in commands.ts, `ingest` in ingest.ts, opening the memory in open.ts, the recall output
 * in recall-output.ts, and a failed command's message and exit code in failure.ts.
 *
 * Exit codes (also in `jev-mem --help`):
 * - 0: success, also when the reader of stdout went away early (`jev-mem recall … | head -1`);
 * - 1: a JevMemError, printed with its code (an `ingest` it stopped after the write began, such
 *   as another process holding the store's lock, first prints how many observations were
 *   committed); also a failed write of stdout or stderr other than
 *   a closed pipe (`export > file` on a full disk: `ENOSPC`), printed on stderr. recall, answer, stats and export on a namespace that
 *   holds no memories fail with `NOT_FOUND` and list the store's namespaces with their counts: a
 *   script that mistyped the namespace stops instead of reading an empty result;
 * - 2: a usage error (unknown command or option, missing or malformed argument), and `bench`
 *   (benchmarks run from a checkout: `npm run bench -- …`);
 * - 3: the store is damaged (issue 22): `check` found damage, `export` met damaged records
 *   without `--skip-damaged`, or any command failed with `STORE_DAMAGED` (see `check.ts`);
 * - 130: `ingest` interrupted by SIGINT (Ctrl-C): the write stops through its AbortSignal, the
 *   chunks committed so far stay, their count is printed and the store's lock is released; also
 *   `import` interrupted before its one atomic commit (nothing written; import.ts);
 * - 143 and 129: the same after SIGTERM and SIGHUP (128 + the signal's number; stop-signals.ts).
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import { parseQuestions } from '../formats/jsonl.js';
import type { Memory } from '../memory.js';
import { quoteVisible } from '../util/invisible.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import { BENCH_MOVED, commandUsage, parseCommandLine, dateOption, positiveIntOption, unitOption, usage, UsageError, type CommandLine, type OptionValues } from './commands.js';
import { filterOption, runHistory, runList } from './browse.js';
import { isClosedPipe, processIO, type CliIO } from './io.js';
import { runCheck, runRepair, warnRepairBackups } from './check.js';
import { eraseByCopy, erasureRefused } from './erase-copy.js';
import { runExport } from './export-damaged.js';
import { findPackage } from './package-info.js';
import { runImport } from './import.js';
import { runIngest } from './ingest.js';
import { erasureOnFullDisk } from './error-words.js';
import { createSystemOneFromName } from '../system-one/from-name.js';
import { systemTwoFromEnv } from '../system-two/from-env.js';
import { loadMcpSdk, serveMcpStdio } from '../integrations/mcp/stdio.js';
import { checkToolScope } from '../integrations/tool-scope.js';
import { join } from 'node:path';
import { failureExit } from './failure.js';
import { runMaintain } from './maintain.js';
import { closeOpenedBackends, need, openForCleanup, openMemory, requireMemories } from './open.js';
import { printRecallText, recallJson } from './recall-output.js';
import { readUtf8File } from './read-text.js';

export type { CliIO } from './io.js';

type Values = OptionValues;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs the CLI; returns the exit code (see the module notes).
 * @param argv - The arguments after `node jev-mem.js`.
 * @param io - Where lines go. @default the process's stdout and stderr ({@link processIO})
 */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const code = await dispatch(argv, io);
  // A write error other than a closed pipe (say, a full disk behind `> file`) fails the run:
  // flush first, so that the error of the last line (a whole export) is known before the exit.
  const writeError: unknown = (await io.flush?.()) ?? (io.outClosed?.aborted ? io.outClosed.reason : undefined);
  return writeError !== undefined && !isClosedPipe(writeError) && code === 0 ? 1 : code;
}

async function dispatch(argv: string[], io: CliIO): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`jev-mem: ${e.message}`);
    io.err('(jev-mem --help lists the commands and options)');
    return 2;
  }
  const { command: cmd, positionals: pos, values: v } = line;
  if (cmd === 'bench') {
    io.err(BENCH_MOVED);
    return 2;
  }
  if (v.version) {
    const found = await findPackage().catch((e: unknown) => e as JevMemError);
    if (found instanceof Error) {
      io.err(`jev-mem: ${found.code}: ${found.message}`);
      return 1;
    }
    io.out(found.version);
    return 0;
  }
  if (v.help || cmd === 'help') {
    io.out(cmd === undefined || cmd === 'help' ? usage() : commandUsage(cmd));
    return 0;
  }
  if (cmd === undefined) {
    io.err(usage());
    return 2;
  }
  return run(cmd, pos, v, io);
}

async function run(cmd: Exclude<CommandLine['command'], undefined | 'bench' | 'help'>, pos: string[], v: Values, io: CliIO): Promise<number> {
  let memory: Memory | undefined;
  try {
    switch (cmd) {
      case 'ingest': {
        const file = pos[0];
        if (!file) throw new UsageError('ingest needs a file');
        return await runIngest(file, v, io, (opened) => (memory = opened));
      }
      case 'recall': {
        const k = positiveIntOption(v, 'k');
        const window: Parameters<Memory['recall']>[1] & object = {};
        const after = dateOption(v, 'after');
        if (after !== undefined) window.after = after;
        const before = dateOption(v, 'before');
        if (before !== undefined) window.before = before;
        const filter = filterOption(v);
        if (filter !== undefined) window.filter = filter;
        const minScore = unitOption(v, 'min-score');
        if (minScore !== undefined) window.minScore = minScore;
        const query = pos.join(' ');
        if (v.questions === undefined && query.trim() === '') throw new UsageError('recall needs a question (or --questions <file>)');
        if (v.questions !== undefined && query.trim() !== '') {
          throw new UsageError(`recall takes one question or --questions <file>, not both: got the question ${JSON.stringify(query)} and --questions ${JSON.stringify(v.questions)}`);
        }
        memory = await openMemory(v);
        await requireMemories(memory);
        if (v.questions !== undefined) {
          const qs = parseQuestions(await readUtf8File(v.questions, 'questions'));
          for (const q of qs) {
            if (io.outClosed?.aborted) break; // the reader has what it wanted (… | head)
            const r = await memory.recall(q.question, k === undefined ? window : { ...window, k });
            io.out(JSON.stringify({ question: q.question, ...(q.meta ? { meta: q.meta } : {}), ...(recallJson(r) as object) }));
          }
          return 0;
        }
        const r = await memory.recall(query, k === undefined ? window : { ...window, k });
        if (v.json) io.out(JSON.stringify(recallJson(r)));
        else printRecallText(r, io.out);
        return 0;
      }
      case 'answer': {
        const k = positiveIntOption(v, 'k');
        const query = pos.join(' ');
        if (query.trim() === '') throw new UsageError('answer needs a question');
        memory = await openMemory(v, true);
        await requireMemories(memory);
        const a = await memory.answer(query, k === undefined ? {} : { k });
        if (v.json) io.out(JSON.stringify({ answer: a.text, model: a.systemTwo.model, ...(recallJson(a) as object) }));
        else {
          io.out(a.text);
          io.err(`(${a.memories.length} memories, System Two ${a.systemTwo.model}, ${a.systemTwo.latencyMs.toFixed(0)} ms)`);
        }
        return 0;
      }
      case 'list': {
        positiveIntOption(v, 'limit'); // a usage error before the store is opened
        memory = await openMemory(v);
        await requireMemories(memory);
        await runList(memory, v, io);
        return 0;
      }
      case 'history': {
        const id = pos[0];
        if (!id) throw new UsageError('history needs a memory id');
        memory = await openMemory(v);
        await runHistory(memory, id, v, io);
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
        const opened = await openForCleanup(v);
        memory = opened.memory;
        await requireMemories(memory, opened.namespace);
        io.out(JSON.stringify(await memory.stats({ namespace: opened.namespace })));
        return 0;
      }
      case 'export':
        return await runExport(v, io, (opened) => (memory = opened));
      case 'import': {
        const file = pos[0];
        if (!file) throw new UsageError('import needs a file');
        return await runImport(file, v, io, (opened) => (memory = opened));
      }
      case 'delete': {
        const id = pos[0];
        if (!id) throw new UsageError('delete needs a node id');
        memory = await openMemory(v);
        const ns = memory.namespace;
        // As Memory.delete (false for an id the namespace does not hold) and forget: idempotent
        // (exit 0), with a warning, since an unknown id is most often a typo or another namespace.
        const deleted = await memory.delete(id).catch(async (e: unknown) => {
          if (!erasureRefused(e)) throw isJevMemError(e, 'QUOTA_EXCEEDED') ? erasureOnFullDisk('delete', need(v.store, 'store'), e) : e;
          await memory?.close();
          memory = undefined;
          await eraseByCopy(need(v.store, 'store'), { namespace: ns, ids: [id] }, io, (namespace) => openMemory({ ...v, namespace }));
          return true;
        });
        if (deleted) io.done?.(`node ${quoteVisible(id)} was erased from namespace ${quoteVisible(ns)} of store ${need(v.store, 'store')}`);
        io.out(JSON.stringify({ deleted, id }));
        if (!deleted) io.err(`jev-mem: warning: namespace ${quoteVisible(ns)} holds no node ${quoteVisible(id)}; nothing was deleted`);
        warnRepairBackups(need(v.store, 'store'), io);
        return 0;
      }
      case 'mcp': {
        // MCP clients (Claude Desktop, Cursor) start the command without a shell: parseCommandLine
        // expanded `~/` already.
        const store = need(v.store, 'store');
        const version = (await findPackage().catch(() => undefined))?.version ?? '0.0.0';
        await loadMcpSdk(); // DEPENDENCY_MISSING before a store is made
        const scope = { ...(v.user !== undefined ? { userId: v.user } : {}), ...(v.agent !== undefined ? { agentId: v.agent } : {}) };
        const toolScope = Object.keys(scope).length > 0 ? checkToolScope(scope) : undefined; // a bad --user before a store is made
        memory = await openMemory({ ...v, store: join(store) }, true, true);
        // stdout carries MCP messages only: the end of stdin (the client closed), SIGINT or
        // SIGTERM stop the server once every request read is answered (serveMcpStdio); the store is then closed.
        const stop = new AbortController();
        const onSignal = (): void => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          io.err(`jev-mem mcp: serving namespace ${JSON.stringify(memory.namespace)} of ${store} over stdio`);
          await serveMcpStdio(memory, { version, answer: systemTwoFromEnv(process.env) !== undefined, source: 'mcp', signal: stop.signal, ...(toolScope !== undefined ? { scope: toolScope } : {}) });
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
        return 0;
      }
      case 'maintain': {
        const opened = await openForCleanup(v);
        memory = opened.memory;
        return await runMaintain(memory, opened.namespace, io);
      }
      case 'check':
        return await runCheck(need(v.store, 'store'), v.namespace, io);
      case 'repair':
        return await runRepair(need(v.store, 'store'), io, (namespace) => openMemory({ ...v, namespace }), v['keep-backup'] === true);
      case 'forget': {
        const ns = need(v.namespace, 'namespace');
        memory = (await openForCleanup(v)).memory;
        // Forgetting is idempotent (exit 0), but a name the store does not hold is most often a
        // typo: say so, so that it is not mistaken for an erasure.
        const existed = (await memory.namespaces()).includes(ns);
        await memory.forget(ns).catch(async (e: unknown) => {
          if (!erasureRefused(e)) throw isJevMemError(e, 'QUOTA_EXCEEDED') ? erasureOnFullDisk('forget', need(v.store, 'store'), e) : e;
          await memory?.close();
          memory = undefined;
          await eraseByCopy(need(v.store, 'store'), { namespace: ns }, io, (namespace) => openMemory({ ...v, namespace }));
        });
        if (existed) io.done?.(`namespace ${quoteVisible(ns)} was erased from store ${need(v.store, 'store')}`);
        io.out(JSON.stringify({ forgotten: ns, existed }));
        if (!existed) io.err(`jev-mem: warning: the store held no namespace ${quoteVisible(ns)}; nothing was erased`);
        warnRepairBackups(need(v.store, 'store'), io);
        return 0;
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(cmd satisfies never)}`);
    }
  } catch (e) {
    return failureExit(e, cmd, v.store, io);
  } finally {
    await memory?.close();
    await closeOpenedBackends();
  }
}
