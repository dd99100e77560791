/**
 * The crash suite's harness (crash.test.ts, issue 22): child processes that write or read a
 * SQLite file store (fixtures/crash-child.ts, bundled once with esbuild so a child starts in
 * well under a second), crash points taken in-process, and the check of a store after a crash.
 *
 * A crash point in-process: node-sqlite3-wasm writes through synchronous `fs` calls with no
 * buffer of its own, so what a process killed just before one of these calls leaves on disk is
 * the store's files as they are at that moment. {@link captureCrashPoints} copies them there
 * (not the writer lock, which a dead holder loses to the next writer; SQLite's lock directory is
 * kept, aged as the stale-lock rule would find it once its holder is gone). A few real SIGKILLs
 * in the suite check that the copies stand for real crashes.
 */
import { spawn } from 'node:child_process';
import fs, { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, vi } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { crashEncoder } from './fixtures/crash-encoder.js';
import { type ChildConfig, parseTurn, turnText, turnWord } from './fixtures/crash-turns.js';
import { quietLogger } from './stores.js';

/** A write the child (or the test) saw resolve: turn `n` of run `run`, stored as node `id`. */
export interface Acked {
  run: string;
  n: number;
  id: string;
}

/** Bundles fixtures/crash-child.ts into `dir` (beside a link to node_modules) and returns its path. */
export async function buildChild(dir: string): Promise<string> {
  const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  symlinkSync(realpathSync(join(repo, 'node_modules')), join(dir, 'node_modules'));
  const outfile = join(dir, 'crash-child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/** A running child (see fixtures/crash-child.ts for its lines). */
export interface Child {
  /** Every line printed so far. */
  readonly lines: string[];
  /** Writes acknowledged so far, in order. */
  readonly acked: Acked[];
  /** Resolves at the first line for which `pred` holds (rejects if the child ends first). */
  waitFor(pred: (line: string) => boolean): Promise<string>;
  /** Resolves when the process has ended. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(): void;
}

/** Children started and not yet ended (see {@link killChildren}). */
const running = new Set<{ kill(): void }>();

/** Kills every child still running (a test that failed before it could). Call in afterAll. */
export function killChildren(): void {
  for (const c of running) c.kill();
}

/** Starts the bundled child `script` with `config` (it ends when this process closes its stdin). */
export function startChild(script: string, config: ChildConfig): Child {
  const proc = spawn(process.execPath, [script, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const handle = { kill: (): void => void proc.kill('SIGKILL') };
  running.add(handle);
  proc.once('close', () => running.delete(handle));
  const lines: string[] = [];
  const acked: Acked[] = [];
  const waiters: Array<{ pred: (l: string) => boolean; resolve: (l: string) => void }> = [];
  let stderr = '';
  let buf = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  proc.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.push(line);
      const ack = /^ACK (\d+) (\S+)$/.exec(line);
      if (ack !== null) acked.push({ run: config.run, n: Number(ack[1]), id: ack[2] as string });
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) => proc.once('close', (code, signal) => done({ code, signal, stderr })));
  return {
    lines,
    acked,
    ended,
    waitFor: (pred) => {
      const seen = lines.find(pred);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((res, rej) => {
        waiters.push({ pred, resolve: res });
        void ended.then((e) => rej(new Error(`child ended (code ${e.code}, signal ${e.signal}) before the line awaited: ${e.stderr}`)));
      });
    },
    kill: () => {
      proc.kill('SIGKILL');
    },
  };
}

/** Makes SQLite's lock directory, if a dead process left one, as old as the stale-lock rule needs. */
export function ageSqliteLock(dir: string): void {
  const lockDir = join(dir, `${SQLITE_FILE_NAME}.lock`);
  if (!existsSync(lockDir)) return;
  const past = new Date(Date.now() - 60_000);
  utimesSync(lockDir, past, past);
}

/** Copies the store files of `from` into the new folder `to` as a crash would leave them (module comment). */
export function copyAsCrashed(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (e.name === 'lock') continue;
    if (e.isDirectory()) mkdirSync(join(to, e.name));
    else copyFileSync(join(from, e.name), join(to, e.name));
  }
  ageSqliteLock(to);
}

/** One crash point: the store's files copied just before a file call of the writer. */
export interface CrashPoint {
  /** The call about to run (`writeSync`, `fsyncSync`, `ftruncateSync`, `unlinkSync`) and on which file. */
  call: string;
  file: string;
  /** The folder holding the copy. */
  dir: string;
  /** Writes acknowledged before this point (how many of the test's list). */
  acked: number;
  /**
   * The copy holds a hot journal: the open transaction already wrote database pages, so the
   * journal must be played back at the next open (not so while the journal is being written,
   * nor once it is deleted, which commits).
   */
  hot: boolean;
}

/**
 * Calls `take(call, file)` before every synchronous file call on a file under `dir` (which must
 * be a real path) until the returned `stop()`; `take` decides whether to copy the store there.
 */
export function captureCrashPoints(dir: string, take: (call: string, file: string) => void): { stop(): void } {
  const calls = ['writeSync', 'fsyncSync', 'ftruncateSync', 'unlinkSync'] as const;
  let busy = false;
  const pathOf = (call: string, target: unknown): string | undefined => {
    if (call === 'unlinkSync') return typeof target === 'string' ? target : undefined;
    if (typeof target !== 'number') return undefined;
    try {
      return fs.readlinkSync(`/proc/self/fd/${target}`);
    } catch {
      return undefined;
    }
  };
  for (const call of calls) {
    const real = fs[call] as (...a: unknown[]) => unknown;
    vi.spyOn(fs, call).mockImplementation(((...a: unknown[]) => {
      if (!busy) {
        const path = pathOf(call, a[0]);
        if (path !== undefined && path.startsWith(`${dir}/`)) {
          busy = true;
          try {
            take(call, path.slice(dir.length + 1));
          } finally {
            busy = false;
          }
        }
      }
      return real.apply(fs, a);
    }) as never);
  }
  return {
    stop: () => {
      for (const call of calls) (fs[call] as unknown as { mockRestore(): void }).mockRestore();
    },
  };
}

/** What {@link checkStore} found. */
export interface StoreCheck {
  /** Nodes in the store. */
  nodes: number;
}

/**
 * Checks a store after a crash and returns what it holds. The store opens (a new process would
 * find it so); every acknowledged write is there, whole; every node is the whole text of a turn
 * some writer wrote (nothing half-written), `seq` runs 1..n with no gap or repeat, every edge
 * joins two stored nodes, and the store's counts and the memory's agree. With `full`, recall
 * finds the last node by its own word, and a new write lands as node n + 1 and reads back after
 * another reopen.
 */
export async function checkStore(dir: string, acked: readonly Acked[], options: { full?: boolean; label?: string } = {}): Promise<StoreCheck> {
  const label = options.label ?? dir;
  ageSqliteLock(dir);
  const storage = await createSqliteFileStorage({ dir, create: false, logger: quietLogger });
  const memory = await createMemory({ encoder: crashEncoder, storage, logger: quietLogger });
  try {
    const snap = await storage.load('default');
    const byId = new Map(snap.nodes.map((n) => [n.id, n]));
    for (const node of snap.nodes) expect(parseTurn(node.text), `${label}: a node that is no whole turn`).toBeDefined();
    for (const a of acked) expect(byId.get(a.id)?.text, `${label}: acknowledged turn ${a.run}:${a.n}`).toBe(turnText(a.run, a.n));
    expect(snap.nodes.map((n) => n.seq), `${label}: seq`).toEqual(snap.nodes.map((_n, i) => i + 1));
    for (const e of snap.edges) expect(byId.has(e.from) && byId.has(e.to), `${label}: edge ${e.id} joins stored nodes`).toBe(true);
    expect(await storage.counts?.('default'), `${label}: counts`).toMatchObject({ nodes: snap.nodes.length, edges: snap.edges.length });
    expect((await memory.stats()).nodes, `${label}: the memory's count`).toBe(snap.nodes.length);
    if (options.full === true) {
      const last = snap.nodes.at(-1);
      if (last !== undefined) {
        const turn = parseTurn(last.text) as { run: string; n: number };
        const r = await memory.recall(turnWord(turn.run, turn.n), { k: 3 });
        expect(r.memories[0]?.id, `${label}: recall of the last node's word`).toBe(last.id);
      }
      const added = await memory.add({ text: turnText('after', snap.nodes.length + 1), source: 'crash-test' });
      expect((await memory.get(added.id))?.seq, `${label}: the next write`).toBe(snap.nodes.length + 1);
    }
    return { nodes: snap.nodes.length + (options.full === true ? 1 : 0) };
  } finally {
    await memory.close();
  }
}

/** The JevMemError code of a call's failure, `'ok'` when it resolved, or `'not a JevMemError: …'`. */
export async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return isJevMemError(e) ? e.code : `not a JevMemError: ${String(e)}`;
  }
}
