/**
 * `jev-mem import <file.json>`: reads an export and imports it into an empty namespace
 * (`Memory.import`: one atomic commit), with progress on stderr as `ingest` has (issue 22: a
 * 50,000-node file takes minutes). Ctrl-C stops it through its AbortSignal: before the commit
 * nothing is written (said, with the command to run again); during the commit, which cannot be
 * cut, the import completes and says so. A store this command made and left empty (an
 * interrupt, a refused file) is removed; a store that existed before is never removed.
 * Split out of main.ts (modules under 400 lines).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { JevMemError, isJevMemError } from '../errors.js';
import type { ImportProgress, Memory } from '../memory.js';
import { showInvisible } from '../util/invisible.js';
import type { OptionValues } from './commands.js';
import type { CliIO } from './io.js';
import { openMemory } from './open.js';
import { readUtf8File } from './read-text.js';
import { onStopSignal, signalWords } from './stop-signals.js';

/** What each step of an import does, for its progress line. */
const STEP_WORDS: Record<ImportProgress['phase'], string> = {
  checking: 'checking every record',
  embedding: 'embedding texts again',
  indexing: 'building the indexes (nothing written yet)',
  committing: 'committing (one atomic commit; Ctrl-C no longer stops it)',
  opening: 'committed; reopening the namespace from the store',
};

/**
 * The parsed export in `file`. In a function of its own so that the file's text (as large as the
 * file) is garbage as soon as it is parsed, not held while the import runs.
 * @throws JevMemError `NOT_FOUND` (field `file`, unreadable), `INVALID_INPUT` (field `file`, not
 *   UTF-8 or not JSON).
 */
async function readExport(file: string): Promise<unknown> {
  const raw = await readUtf8File(file);
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new JevMemError('INVALID_INPUT', `${file} is not JSON (${showInvisible((e as Error).message)}); expected a jev-mem export`, { field: 'file' });
  }
}

/** The command line that runs the same import again (for the interrupt message). */
function againCommand(file: string, v: OptionValues): string {
  const q = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return ['jev-mem import', q(file), '--store', q(v.store as string), ...(v.namespace !== undefined ? ['--namespace', q(v.namespace)] : []), ...(v.reembed === true ? ['--reembed'] : [])].join(' ');
}

/**
 * Runs `jev-mem import <file>` (see the module comment); returns the exit code (0; 130, 143 or
 * 129 after a Ctrl-C, SIGTERM or SIGHUP that stopped it before its commit).
 * @param hold - Told the memory this command opened, and `undefined` once it closed it itself.
 * @throws what reading the file, opening the store and `Memory.import` throw (after removing a
 *   store this command made and left empty).
 */
export async function runImport(file: string, v: OptionValues, io: CliIO, hold: (memory: Memory | undefined) => void): Promise<number> {
  const interrupt = new AbortController();
  let committing = false;
  // Ctrl-C, SIGTERM and SIGHUP alike (stop-signals.ts); a second signal kills at once.
  const signals = onStopSignal((s) => {
    const by = s === 'SIGINT' ? '' : ` (${s})`;
    io.err(committing ? `jev-mem: interrupted${by} during the commit, which cannot be cut: the import completes (${signalWords(s)} again to kill at once)` : `jev-mem: interrupted${by}; stopping the import before anything is written (${signalWords(s)} again to kill at once)`);
    interrupt.abort(new Error(s));
  });
  try {
    const t0 = performance.now();
    const bytes = await stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    if (bytes !== undefined && bytes > 1 << 20) io.err(`import: reading ${file} (${(bytes / (1 << 20)).toFixed(0)} MiB)`);
    const data = await readExport(file);
    const madeStore = v.store !== undefined && !existsSync(v.store);
    const opened = await openMemory(v, false, true);
    hold(opened);
    const secs = (): string => ((performance.now() - t0) / 1000).toFixed(1);
    const o: Parameters<Memory['import']>[1] = {
      reembed: v.reembed === true,
      signal: interrupt.signal,
      onProgress: (p) => {
        if (p.phase === 'committing') committing = true;
        io.err(`import: ${p.nodes} nodes, ${p.edges} edges · ${STEP_WORDS[p.phase]} · ${secs()} s`);
      },
    };
    if (v.namespace !== undefined) o.namespace = v.namespace;
    try {
      const result = await opened.import(data, o);
      io.err(`import: done: ${result.nodes} nodes, ${result.edges} edges committed to namespace ${JSON.stringify(result.namespace)} in ${secs()} s`);
      return printResult(result, file, io);
    } catch (e) {
      // An import writes nothing when it fails (one atomic commit; a bad export is refused before
      // any write): a store this command made is removed, as ingest does, unless it holds any namespace.
      const empty = madeStore && (await opened.namespaces().catch(() => ['?'])).length === 0;
      hold(undefined);
      await opened.close();
      if (empty) await rm(v.store as string, { recursive: true, force: true });
      if (interrupt.signal.aborted && isJevMemError(e, 'ABORTED')) {
        io.err(
          `jev-mem: import interrupted${signals.signal === 'SIGINT' ? '' : ` by ${signals.signal}`}: nothing was committed (the import is one atomic commit); ` +
            (empty ? `the new store ${v.store} was removed` : `store ${v.store} unchanged, closed, lock released`) +
            `; to import the file, run again: ${againCommand(file, v)}`,
        );
        return signals.exitCode;
      }
      throw e;
    }
  } finally {
    signals.off();
  }
}

/** Prints the import's result on stdout and its notes on stderr; 0. */
function printResult(result: Awaited<ReturnType<Memory['import']>>, file: string, io: CliIO): number {
  io.out(JSON.stringify(result));
  // Texts edited in the file since the export were embedded again (memory/text-edits.ts).
  const edited = result.textEdited ?? 0;
  if (edited > 0) {
    io.err(`jev-mem: note: ${edited} node(s) of ${file} were edited since the export (their text differs from the export's textHashes); their embeddings, keywords, entities and time references were derived again from the new text (no --reembed needed); their memory types and edges were kept`);
  }
  // What the import rebuilt across records (memory/import-repair.ts), said, not only counted.
  const rebuilt = [
    result.seqRenumbered ? `${result.seqShared ?? result.seqRenumbered} node(s) shared a seq with another node; ${result.seqRenumbered} node(s) were given the next free seq (file order kept)` : '',
    result.successorsDropped ? `${result.successorsDropped} node(s) named a newer version the file does not hold in supersededBy (dropped; a superseded node left without one was imported active)` : '',
    result.edgesDropped ? `${result.edgesDropped} edge(s) joined a node the file does not hold and were left out` : '',
  ].filter((x) => x !== '');
  if (rebuilt.length > 0) io.err(`jev-mem: note: ${file}: ${rebuilt.join('; ')}`);
  return 0;
}
