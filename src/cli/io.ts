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
 * Every line is written whole or fails. Behind `> file` (a regular file or a character device
 * such as `/dev/full`) Node's stdout is a `SyncWriteStream`, which calls `fs.writeSync` once and
 * ignores a short count: on a nearly full disk a one-line export of 137,759 bytes left 65,536
 * bytes, exit 0, nothing on stderr (hostile review h-break13). There the CLI writes the file
 * descriptor itself ({@link writeAll}): it writes the rest until every byte is written, and the
 * write after a short one fails with the disk's error (`ENOSPC`, `EFBIG` past `ulimit -f`),
 * which is then reported as above. Pipes and TTYs go through Node's stream, whose writes
 * (libuv's) complete every byte or fail with an 'error' event.
 *
 * @module
 */
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

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
  /**
   * The words for a failed write of stdout in place of "the output is incomplete", when stdout
   * carries more than a result line (export: `the export of namespace "x" is incomplete: what
   * was written is not a usable backup`).
   */
  output?(ifCut: string): void;
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

/** `fs.writeSync`'s shape for a byte range: returns how many bytes were written. */
export type WriteBytes = (fd: number, data: Uint8Array, offset: number, length: number) => number;

/**
 * Writes every byte of `data` to the file descriptor `fd`, or throws. A write may take fewer bytes
 * than it was given (a disk with less room left than the text); the rest is written again, and
 * on a full disk that next write throws (`ENOSPC`). A write that takes no bytes twice in a row
 * throws `EIO`.
 * @param write - @default fs.writeSync (tests pass one that writes short)
 * @throws the write's error (`NodeJS.ErrnoException`, with its `code`).
 */
export function writeAll(fd: number, data: Uint8Array, write: WriteBytes = writeSync): void {
  let at = 0;
  let idle = 0;
  while (at < data.length) {
    const n = write(fd, data, at, data.length - at);
    if (n > 0) {
      at += n;
      idle = 0;
    } else if (++idle >= 2) {
      throw Object.assign(new Error(`write to file descriptor ${fd} took no bytes (${at} of ${data.length} written)`), { code: 'EIO' });
    }
  }
}

/** True when Node's stream for `fd` is a `SyncWriteStream` (a regular file or a character device that is not a TTY), whose short writes go unnoticed. */
function isFileTarget(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return (st.isFile() || st.isCharacterDevice() || st.isBlockDevice()) && !isatty(fd);
  } catch {
    return false; // a closed descriptor: Node's stream reports it
  }
}

/**
 * A line writer for `stream` (file descriptor `fd`): {@link writeAll} on the descriptor when it
 * is a file, the stream otherwise. A failed direct write calls `failed`, as the stream's 'error'
 * event does.
 */
function lineWriter(stream: NodeJS.WriteStream, fd: number, failed: (e: NodeJS.ErrnoException) => void): (text: string) => void {
  if (!isFileTarget(fd)) return (text) => void stream.write(text);
  return (text) => {
    try {
      writeAll(fd, Buffer.from(text, 'utf8'));
    } catch (e) {
      failed(e as NodeJS.ErrnoException);
    }
  };
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
  shared ??= streamIO();
  return shared;
}

function streamIO(): CliIO {
  const closed = new AbortController();
  let errClosed = false;
  /** The first write error that is not a closed pipe. */
  let failure: unknown;
  /** What the command did before printing ({@link CliIO.done}). */
  let did: string | undefined;
  /** What a cut output leaves ({@link CliIO.output}). */
  let ifCut = 'the output is incomplete';
  const outFailed = (e: NodeJS.ErrnoException): void => {
    if (!isClosedPipe(e)) {
      failure ??= e;
      const what = did === undefined ? ifCut : `only the output failed: ${did} (that is done; the result line was not written)`;
      if (!errClosed && !closed.signal.aborted) writeErr(`jev-mem: cannot write to stdout: ${e.code ?? e.message}; ${what}\n`);
    }
    closed.abort(e);
  };
  const errFailed = (e: NodeJS.ErrnoException): void => {
    if (!isClosedPipe(e)) failure ??= e;
    errClosed = true;
  };
  const writeOut = lineWriter(process.stdout, 1, outFailed);
  const writeErr = lineWriter(process.stderr, 2, errFailed);
  process.stdout.on('error', outFailed);
  process.stderr.on('error', errFailed);
  return {
    out: (line) => {
      if (!closed.signal.aborted) writeOut(`${line}\n`);
    },
    err: (line) => {
      if (!errClosed) writeErr(`${line}\n`);
    },
    outClosed: closed.signal,
    done: (what) => {
      did = what;
    },
    output: (words) => {
      ifCut = words;
    },
    flush: async () => {
      await Promise.all([drained(process.stdout), drained(process.stderr)]);
      // A failed write reports through an 'error' event, emitted on a later tick than its callback.
      await new Promise<void>((done) => setImmediate(done));
      return failure;
    },
  };
}
