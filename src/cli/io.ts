/**
 * Where the CLI writes: lines on stdout (results) and stderr (progress, hints, errors). The
 * process version survives a reader that goes away: `jev-mem recall … | head -1` closes the pipe
 * after one line, and the next write fails with `EPIPE`; instead of Node's unhandled 'error'
 * event (a stack trace and exit 1) the CLI stops writing, fires {@link CliIO.outClosed} so long
 * commands stop early, and exits 0, as a Unix filter does when its reader has what it wanted.
 *
 * @module
 */

/** Output channels of {@link main}. Tests pass arrays; the command passes {@link processIO}. */
export interface CliIO {
  /** Writes one line of results (stdout). */
  out(line: string): void;
  /** Writes one line of progress, hints or errors (stderr). */
  err(line: string): void;
  /** Fires when the reader of `out` went away (a closed pipe); later `out` lines are dropped. */
  outClosed?: AbortSignal;
}

/** True for the errors of a write to a pipe whose reader went away. */
export function isClosedPipe(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

let shared: CliIO | undefined;

/**
 * The process's stdout and stderr, with closed pipes handled (one instance per process: its
 * listeners stay, since an `EPIPE` of the last write may arrive after the command returned).
 * `outClosed` fires with the write error as its reason; any error other than a closed pipe
 * (e.g. a full disk behind `> file`) is printed on stderr, and `main` then exits 1.
 */
export function processIO(): CliIO {
  if (shared) return shared;
  const closed = new AbortController();
  let errClosed = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (!isClosedPipe(e) && !errClosed && !closed.signal.aborted) process.stderr.write(`jev-mem: cannot write to stdout: ${e.code ?? e.message}\n`);
    closed.abort(e);
  });
  process.stderr.on('error', () => {
    errClosed = true;
  });
  shared = {
    out: (line) => {
      if (!closed.signal.aborted) process.stdout.write(`${line}\n`);
    },
    err: (line) => {
      if (!errClosed) process.stderr.write(`${line}\n`);
    },
    outClosed: closed.signal,
  };
  return shared;
}
