/**
 * Where the CLI writes: lines on stdout (results) and stderr (progress, hints, errors). The
 * process version survives a reader that goes away: `jev-mem recall … | head -1` closes the pipe
 * after one line, and the next write fails with `EPIPE`; instead of Node's unhandled 'error'
 * event (a stack trace and exit 1) the CLI stops writing, fires {@link CliIO.outClosed} so long
 * commands stop early, and exits 0, as a Unix filter does when its reader has what it wanted.
 *
 * Any other write error (`ENOSPC` of `> backup.json` on a full disk, `EIO`, …) is a failed run:
 * it is printed on stderr and {@link CliIO.flush} returns it, so `main` exits 1 and
 * `jev-mem export … > backup.json && jev-mem forget …` never destroys the only copy.
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
  /**
   * Waits until every line written so far has reached the operating system (or failed), and
   * returns the first write error of stdout or stderr that is not a closed pipe (`undefined`
   * when all went well). `main` calls it before it returns its exit code.
   */
  flush?(): Promise<unknown>;
  /**
   * Records what the command has already done to the store (`node "x" erased from namespace
   * "y"`), before it prints its result: a failed write of stdout then says that only the output
   * failed and the work is done, instead of leaving the user to guess (issue 22: `jev-mem delete
   * … > /dev/full` still exits 1, with a truthful message).
   */
  done?(what: string): void;
}

/** True for the errors of a write to a pipe whose reader went away. */
export function isClosedPipe(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/** Resolves once what `stream` was given is written (or failed): an empty write's callback runs after the ones before it. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => {
    if (stream.destroyed || stream.writableEnded) {
      done();
      return;
    }
    try {
      stream.write('', () => done());
    } catch {
      done();
    }
  });
}

let shared: CliIO | undefined;

/**
 * The process's stdout and stderr, with closed pipes handled (one instance per process: its
 * listeners stay, since an `EPIPE` of the last write may arrive after the command returned).
 * `outClosed` fires with the write error as its reason; any error other than a closed pipe
 * (e.g. a full disk behind `> file`) is printed on stderr, and `flush` returns it (`main` then
 * exits 1). A failed stderr (`2> /dev/full`) cannot say so, but it fails the run the same way.
 */
export function processIO(): CliIO {
  if (shared) return shared;
  const closed = new AbortController();
  let errClosed = false;
  /** The first write error that is not a closed pipe. */
  let failure: unknown;
  /** What the command did before printing ({@link CliIO.done}). */
  let did: string | undefined;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (!isClosedPipe(e)) {
      failure ??= e;
      const what = did === undefined ? 'the output is incomplete' : `only the output failed: ${did} (that is done; the result line was not written)`;
      if (!errClosed && !closed.signal.aborted) process.stderr.write(`jev-mem: cannot write to stdout: ${e.code ?? e.message}; ${what}\n`);
    }
    closed.abort(e);
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (!isClosedPipe(e)) failure ??= e;
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
    done: (what) => {
      did = what;
    },
    flush: async () => {
      await Promise.all([drained(process.stdout), drained(process.stderr)]);
      // A failed write reports through an 'error' event, emitted on a later tick than its callback.
      await new Promise<void>((done) => setImmediate(done));
      return failure;
    },
  };
  return shared;
}
