/**
 * `jev-mem ingest <file>`: reads a JSONL, LoCoMo or MemoryBank file ({@link loadObservations}),
 * writes it with `addMany` (progress on stderr), and prints the summary (ingest-summary.ts). What
 * was committed is said on every way out: Ctrl-C (exit 130), a full disk (`QUOTA_EXCEEDED`),
 * another failure after the write began; a store this command made and nothing was committed to
 * is removed. Split out of main.ts (issue 22: modules under 400 lines).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { JevMemError, isJevMemError } from '../errors.js';
import { parseJsonlFields } from '../formats/jsonl.js';
import { locomoConversation, parseLocomo } from '../formats/locomo.js';
import { isLongMemEval, parseLongMemEval } from '../formats/longmemeval.js';
import { isMemoryBankHistory, parseMemoryBank } from '../formats/memorybank.js';
import type { Memory } from '../memory.js';
import type { Observation } from '../types.js';
import { splitLongObservations } from '../write/split-long.js';
import { UsageError, type OptionValues } from './commands.js';
import { bySource } from './error-words.js';
import { ingestSummary } from './ingest-summary.js';
import type { CliIO } from './io.js';
import { openMemory } from './open.js';
import { readUtf8File } from './read-text.js';
import { onStopSignal, signalWords } from './stop-signals.js';

type Values = OptionValues;

/**
 * The observations of `file` by `--format` (default: `jsonl`, or for a `.json` file MemoryBank,
 * LongMemEval or LoCoMo by its shape), with the namespace the file names (a LoCoMo sample, a
 * MemoryBank user, a LongMemEval question) and where each observation's text is in the file
 * (`textFields`: `line 7.content`, `file[0].haystack_sessions[1][1].content`).
 * @throws JevMemError `NOT_FOUND` (field `file`: unreadable; field `sample`: no such sample or
 *   user), `INVALID_OPTION` (field `sample`: several in the file and no `--sample`), the
 *   readers' `INVALID_INPUT`, `readUtf8File`'s (not UTF-8, UTF-16); UsageError on an unknown `--format`.
 */
export async function loadObservations(file: string, v: Values): Promise<{ observations: Observation[]; namespace?: string; textFields?: string[] | undefined }> {
  const text = await readUtf8File(file);
  const format = v.format ?? (file.endsWith('.json') ? detectJsonFormat(text) : 'jsonl');
  if (format === 'jsonl') return parseJsonlFields(text);
  if (format === 'memorybank') {
    const users = parseMemoryBank(text);
    const ids = users.map((u) => u.id).join(', ');
    if (v.sample === undefined && users.length > 1) {
      throw new JevMemError('INVALID_OPTION', `${file} holds ${users.length} users; choose one with --sample <user> (${ids})`, { field: 'sample' });
    }
    const user = v.sample === undefined ? users[0] : users.find((u) => u.id === v.sample?.trim());
    if (!user) throw new JevMemError('NOT_FOUND', `no user ${JSON.stringify(v.sample)} in ${file}; users: ${ids}`, { field: 'sample' });
    return { observations: user.observations, namespace: user.id, textFields: user.textFields };
  }
  if (format === 'longmemeval') {
    const questions = parseLongMemEval(text);
    if (v.sample === undefined && questions.length > 1) {
      throw new JevMemError('INVALID_OPTION', `${file} holds ${questions.length} questions, each with its own history; choose one with --sample <question_id> (${questions.slice(0, 5).map((q) => q.id).join(', ')}${questions.length > 5 ? ', …' : ''})`, { field: 'sample' });
    }
    const q = v.sample === undefined ? questions[0] : questions.find((x) => x.id === v.sample?.trim());
    if (!q) throw new JevMemError('NOT_FOUND', `no question ${JSON.stringify(v.sample)} in ${file} (${questions.length} questions)`, { field: 'sample' });
    return { observations: q.observations, namespace: q.id, textFields: q.textFields };
  }
  if (format !== 'locomo') throw new UsageError(`--format expects jsonl, locomo, memorybank or longmemeval, got ${JSON.stringify(format)}`);
  const samples = parseLocomo(text);
  // Several conversations and no --sample: refuse rather than silently take the first one.
  if (v.sample === undefined && samples.length > 1) {
    throw new JevMemError('INVALID_OPTION', `${file} holds ${samples.length} conversations; choose one with --sample <id> (${samples.map((s) => s.sample_id).join(', ')})`, { field: 'sample' });
  }
  const id = v.sample ?? samples[0]?.sample_id;
  const sample = samples.find((s) => s.sample_id === id);
  if (!sample) throw new JevMemError('NOT_FOUND', `no sample ${JSON.stringify(id)} in ${file}; samples: ${samples.map((s) => s.sample_id).join(', ')}`, { field: 'sample' });
  const conversation = locomoConversation(sample);
  const at = `file[${samples.indexOf(sample)}].`;
  return { observations: conversation.observations, namespace: sample.sample_id, textFields: conversation.textFields?.map((f) => at + f) };
}

/**
 * The format of a `.json` file: `memorybank` for an object of users with histories,
 * `longmemeval` for an array of questions with `haystack_sessions`, else `locomo` (whose reader
 * reports what is wrong).
 */
function detectJsonFormat(text: string): string {
  try {
    const data = JSON.parse(text) as unknown;
    return isMemoryBankHistory(data) ? 'memorybank' : isLongMemEval(data) ? 'longmemeval' : 'locomo';
  } catch {
    return 'locomo';
  }
}

/**
 * Runs `jev-mem ingest <file>` (see the module comment); returns the exit code (0, 1 after a full
 * disk, 130 after Ctrl-C, 143 after SIGTERM, 129 after SIGHUP).
 * @param hold - Told the memory this command opened, and `undefined` once it closed it itself:
 *   the caller closes a memory still held (after printing a failure).
 * @throws what `loadObservations`, opening the store and `addMany` throw (the cause after the
 *   committed count was printed; JSONL errors name their line).
 */
export async function runIngest(file: string, v: Values, io: CliIO, hold: (memory: Memory | undefined) => void): Promise<number> {
  // Ctrl-C (SIGTERM, SIGHUP) stops the write through its AbortSignal between chunks: what was
  // committed stays and is counted, the store is closed (its lock file removed), and the exit
  // code is 128 + the signal's number. A second signal finds no listener and ends the process.
  const interrupt = new AbortController();
  const signals = onStopSignal((s) => {
    io.err(`jev-mem: interrupted${s === 'SIGINT' ? '' : ` (${s})`}; stopping after the chunk being written (${signalWords(s)} again to kill at once)`);
    interrupt.abort(new Error(s));
  });
  try {
    const loaded = await loadObservations(file, v);
    const madeStore = v.store !== undefined && !existsSync(v.store);
    const ns = v.namespace ?? loaded.namespace;
    const opened = await openMemory({ ...v, ...(ns !== undefined ? { namespace: ns } : {}) }, false, true);
    hold(opened);
    // --split-long: a text over the memory's limit becomes its parts (write/split-long.ts); each
    // part keeps the file's field of the text it came from, for the errors.
    const split = v['split-long'] === true ? splitLongObservations(loaded.observations, opened.parameters.maxTextChars) : undefined;
    const observations = split?.observations ?? loaded.observations;
    const textFields = split === undefined ? loaded.textFields : loaded.textFields && split.from.map((i) => loaded.textFields?.[i] as string);
    const t0 = performance.now();
    let lastPrint = 0;
    let res;
    try {
      res = await opened.addMany(observations, {
        signal: interrupt.signal,
        onProgress: (p) => {
          const t = performance.now();
          if (t - lastPrint > 1000 || p.done === p.total) {
            lastPrint = t;
            io.err(`ingest: ${p.done}/${p.total} observations · ${p.perSecond.toFixed(0)} turns/s`);
          }
        },
      });
    } catch (e) {
      const committed = isJevMemError(e) && typeof e.details.committed === 'number' ? e.details.committed : undefined;
      // A store this command made and nothing was committed to (bad input is refused before
      // any write; an early Ctrl-C) is removed; a store holding committed chunks is kept.
      const removed = madeStore && (committed ?? (await opened.stats()).nodes) === 0;
      hold(undefined);
      await opened.close();
      if (removed) await rm(v.store as string, { recursive: true, force: true });
      if (interrupt.signal.aborted && isJevMemError(e, 'ABORTED')) {
        const n = committed ?? 0;
        const left = n < observations.length ? `; observations ${n + 1}-${observations.length} were not written` : '';
        io.err(
          `jev-mem: ingest interrupted${signals.signal === 'SIGINT' ? '' : ` by ${signals.signal}`}: ${n} of ${observations.length} observations committed to namespace ${JSON.stringify(opened.namespace)}${left}; ` +
            (removed ? `the new store ${v.store} was removed` : `store ${v.store} closed, lock released`),
        );
        return signals.exitCode;
      }
      if (isJevMemError(e, 'QUOTA_EXCEEDED')) {
        // Exactly what was committed: the chunks before the one the full disk refused.
        const n = committed ?? 0;
        const why = e.cause instanceof Error ? ` (${e.cause.message})` : '';
        io.err(
          `jev-mem: QUOTA_EXCEEDED: ingest stopped: disk full: ${n} of ${observations.length} observations written to namespace ${JSON.stringify(opened.namespace)}` +
            (removed ? `; the new store ${v.store} was removed` : `; they stay in store ${v.store}${n < observations.length ? `, observations ${n + 1}-${observations.length} were not written` : ''}`) +
            `; free some space and ingest the rest again${why}`,
        );
        return 1;
      }
      // Any other failure after the write began (another process holding the store's lock,
      // a storage error): what was committed stays, and is said, as for Ctrl-C and a full disk.
      if (committed !== undefined) {
        const code = isJevMemError(e) ? e.code : 'STORAGE_FAILED';
        io.err(
          `jev-mem: ${code}: ingest stopped: ${committed} of ${observations.length} observations committed to namespace ${JSON.stringify(opened.namespace)}` +
            (removed ? `; the new store ${v.store} was removed` : committed === 0 ? `; store ${v.store} was not changed` : `; they stay in store ${v.store}${committed < observations.length ? `, observations ${committed + 1}-${observations.length} were not written` : ''}`) +
            '; the cause follows',
        );
      }
      const named = bySource(e, textFields);
      // A text over the limit: say how to keep it anyway.
      if (isJevMemError(named, 'TOO_LARGE') && v['split-long'] !== true && /\.(text|content|query|response)$/.test(String(named.details.field))) {
        throw new JevMemError('TOO_LARGE', `${named.message}; or ingest again with --split-long to keep it in parts`, { ...named.details, cause: named });
      }
      throw named;
    }
    const secs = (performance.now() - t0) / 1000;
    io.out(JSON.stringify(ingestSummary(res, await opened.stats(), secs)));
    return 0;
  } finally {
    signals.off();
  }
}
