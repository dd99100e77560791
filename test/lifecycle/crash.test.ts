/**
 * Issue 22 "Our crash tests run on the wrong store": crashes of Node's SQLite file store. A
 * writer killed at every file call of its commits (copies of the files at each point, see
 * crash-harness.ts) and by real SIGKILLs (at a chosen call, and at seeded moments), torn
 * rollback journals, two writer processes, a reader process during an ingest, and flipped bytes.
 * After each: the store opens, every acknowledged write is there, nothing is half-written, recall
 * works and the next write lands. The check ages a dead writer's SQLite lock directory as the
 * stale-lock rule finds it after 10 s; that first read waiting out the lock is h-conc's case.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, truncateSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { type Acked, type Child, captureCrashPoints, checkStore, copyAsCrashed, type CrashPoint, killChildren, outcome, startChild, buildChild } from './crash-harness.js';
import { crashEncoder } from './fixtures/crash-encoder.js';
import { parseTurn, turnText } from './fixtures/crash-turns.js';
import { quietLogger } from './stores.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'jev-mem-crash-')));
let counter = 0;
const newDir = (name: string): string => join(root, `${name}-${++counter}`);
let child = '';
beforeAll(async () => {
  child = await buildChild(mkdtempSync(join(root, 'child-')));
});
afterAll(() => {
  killChildren();
  rmSync(root, { recursive: true, force: true });
});

const turn = (run: string, n: number) => ({ text: turnText(run, n), observedAt: new Date(Date.UTC(2023, 0, 1, 0, n)).toISOString(), turnId: `${run}:${n}`, source: 'crash-test' });

/** Writes `count` turns of run `run` into a new store, copying the store at file calls `take` picks. */
async function writeWithCrashPoints(count: number, take: (call: string, file: string, write: number) => boolean): Promise<{ dir: string; acked: Acked[]; points: CrashPoint[] }> {
  const dir = newDir('live');
  const memory = await createMemory({ encoder: crashEncoder, storage: await createSqliteFileStorage({ dir, logger: quietLogger }), logger: quietLogger, parameters: { maintenanceInterval: 3 } });
  const acked: Acked[] = [];
  const points: CrashPoint[] = [];
  let dbWritten = false; // database pages written since the journal was created
  const capture = captureCrashPoints(dir, (call, file) => {
    if (take(call, file, acked.length + 1)) {
      const at = newDir('point');
      copyAsCrashed(dir, at);
      points.push({ call, file, dir: at, acked: acked.length, hot: dbWritten && existsSync(join(dir, `${SQLITE_FILE_NAME}-journal`)) });
    }
    if (file === SQLITE_FILE_NAME && (call === 'writeSync' || call === 'ftruncateSync')) dbWritten = true;
    if (file === `${SQLITE_FILE_NAME}-journal` && call === 'unlinkSync') dbWritten = false;
  });
  try {
    for (let n = 1; n <= count; n++) {
      const { id } = await memory.add(turn('a', n));
      acked.push({ run: 'a', n, id });
    }
  } finally {
    capture.stop();
    await memory.close();
  }
  return { dir, acked, points };
}

/** Checks each crash point: the store opens with every acknowledged write, and at most the one in flight more. */
async function checkPoints(points: CrashPoint[], acked: Acked[]): Promise<void> {
  for (const [i, p] of points.entries()) {
    const label = `point ${i} (before ${p.call} of ${p.file}, ${p.acked} acknowledged)`;
    const full = i % 8 === 0;
    const found = await checkStore(p.dir, acked.slice(0, p.acked), { label, full });
    const nodes = found.nodes - (full ? 1 : 0);
    expect(nodes, label).toBeGreaterThanOrEqual(p.acked);
    expect(nodes, label).toBeLessThanOrEqual(p.acked + 1);
  }
}

describe('a writer killed at any file call of a commit', () => {
  // Six writes (maintenance runs after the third); the store copied at every file call of write 3
  // and at every 8th call of the others.
  let run: Awaited<ReturnType<typeof writeWithCrashPoints>> | undefined;
  const crashRun = async (): Promise<NonNullable<typeof run>> => {
    let seen = 0;
    run ??= await writeWithCrashPoints(6, (_call, _file, write) => write === 3 || ++seen % 8 === 0);
    return run;
  };

  it('opens with every acknowledged write and nothing half-written, at every point outside a hot journal', async () => {
    const { acked, points } = await crashRun();
    expect(acked).toHaveLength(6);
    const cold = points.filter((p) => !p.hot);
    expect(cold.length).toBeGreaterThan(20);
    expect(new Set(cold.map((p) => p.call))).toEqual(new Set(['writeSync', 'fsyncSync']));
    expect(new Set(cold.map((p) => p.file))).toEqual(new Set([SQLITE_FILE_NAME, `${SQLITE_FILE_NAME}-journal`]));
    await checkPoints(cold, acked);
  }, 60_000);

  // Was skipped until the lock and journal work (issue 22): node-sqlite3-wasm does not play back a hot journal, so a crash after a commit
  // wrote database pages and before it deleted its journal leaves "database disk image is
  // malformed" (issue 22, hot-journal rollback).
  it('opens with every acknowledged write and nothing half-written, at every point with a hot journal', async () => {
    const { acked, points } = await crashRun();
    const hot = points.filter((p) => p.hot);
    expect(hot.length).toBeGreaterThan(10);
    expect(hot.some((p) => p.call === 'unlinkSync')).toBe(true);
    await checkPoints(hot, acked);
  }, 60_000);
});

describe('torn rollback journals', () => {
  it('a journal cut at any offset, or with garbage after it, while the database is untouched leaves the last commit', async () => {
    const { acked, points } = await writeWithCrashPoints(4, (call, file, write) => write === 3 && call === 'fsyncSync' && file.endsWith('-journal'));
    const journaled = points.filter((p) => !p.hot);
    expect(journaled.length).toBeGreaterThan(0);
    for (const p of journaled) {
      const journal = readFileSync(join(p.dir, `${SQLITE_FILE_NAME}-journal`));
      expect(journal.length).toBeGreaterThan(512);
      const whole = newDir('torn-whole');
      copyAsCrashed(p.dir, whole);
      const expected = (await checkStore(whole, acked.slice(0, p.acked), { label: 'the whole journal' })).nodes; // the crash point itself
      expect(expected - p.acked).toBeGreaterThanOrEqual(0);
      expect(expected - p.acked).toBeLessThanOrEqual(1);
      const cuts = [0, 1, 27, 28, 511, 512, 513, Math.floor(journal.length / 2), journal.length - 1];
      for (const cut of [...cuts, -1]) {
        const dir = newDir('torn');
        copyAsCrashed(p.dir, dir);
        if (cut >= 0) truncateSync(join(dir, `${SQLITE_FILE_NAME}-journal`), cut);
        else appendFileSync(join(dir, `${SQLITE_FILE_NAME}-journal`), Buffer.alloc(700, 0xa5));
        const label = `journal of write 3 ${cut >= 0 ? `cut at ${cut}` : 'with 700 bytes of garbage after it'}`;
        const found = await checkStore(dir, acked.slice(0, p.acked), { label, full: cut === 512 || cut === -1 });
        expect(found.nodes - (cut === 512 || cut === -1 ? 1 : 0), label).toBe(expected);
      }
    }
  }, 60_000);
});

describe('real processes', () => {
  it('a writer SIGKILLed inside a commit (journal write, journal sync) loses no acknowledged write; the next writer takes over', async () => {
    const dir = newDir('sigkill');
    const acked: Acked[] = [];
    // Write calls to the journal from the child's start: the schema, then a few commits.
    for (const [run, killAt] of [
      ['a', { fn: 'writeSync', file: 'journal', n: 40 }],
      ['b', { fn: 'fsyncSync', file: 'journal', n: 12 }],
    ] as const) {
      const c = startChild(child, { dir, role: 'writer', run, from: 1, killAt });
      const end = await c.ended;
      expect(end.signal, end.stderr).toBe('SIGKILL');
      expect(c.lines).toContain('READY');
      expect(c.acked.length, `run ${run} acknowledged writes before its kill`).toBeGreaterThan(0);
      acked.push(...c.acked);
      const found = await checkStore(dir, acked, { label: `after the kill of run ${run}`, full: true });
      expect(found.nodes - 1).toBeGreaterThanOrEqual(acked.length);
    }
  }, 60_000);

  // Was skipped until the lock and journal work (issue 22): a kill at a random moment can land after a commit wrote database pages and
  // before it deleted its journal, which node-sqlite3-wasm does not play back (see the hot-journal
  // case above).
  it('a writer SIGKILLed at seeded random moments loses no acknowledged write', async () => {
    for (const seed of [1, 2, 3]) {
      const dir = newDir('random-kill');
      const c = startChild(child, { dir, role: 'writer', run: 'a', from: 1 });
      await c.waitFor((l) => l.startsWith(`ACK ${2 + seed} `));
      await new Promise((r) => setTimeout(r, (seed * 37) % 50));
      c.kill();
      await c.ended;
      await checkStore(dir, c.acked, { label: `seed ${seed}`, full: true });
    }
  }, 60_000);

  /** A writer's end: every write acknowledged (`DONE`), or a JevMemError reported (`FAIL <code>`), never anything else. */
  const endedCleanly = (c: Child, end: { code: number | null; stderr: string }): boolean => {
    const last = c.lines.at(-1) ?? '';
    expect(last === 'DONE' ? 0 : 3, `${last}\n${end.stderr}`).toBe(end.code);
    if (last !== 'DONE') expect(last, end.stderr).toMatch(/^FAIL [A-Z_]+ /);
    return last === 'DONE';
  };

  /** Two writers (a memory opened per write) of four turns each on one new store. */
  async function twoWriters(): Promise<{ dir: string; a: Child; b: Child; done: boolean[] }> {
    const dir = newDir('two-writers');
    const a = startChild(child, { dir, role: 'writer', run: 'a', from: 1, count: 4, reopenEach: true });
    const b = startChild(child, { dir, role: 'writer', run: 'b', from: 1, count: 4, reopenEach: true });
    const [ea, eb] = await Promise.all([a.ended, b.ended]);
    return { dir, a, b, done: [endedCleanly(a, ea), endedCleanly(b, eb)] };
  }

  // Was an open defect (issue 22, found at the 2026-12-02 stop): two writer processes that each
  // reopen the store per write could both give a node the same seq (seen: [1,2,3,4,4,5,6,7]).
  // Fixed at the cause: every commit carries the generation its writer loaded (WriteBatch
  // expectMeta), the store refuses it under the writer lock when another process committed
  // since, and the writer plans again over the store as it is (two-writers-seq.test.ts).
  it('two writer processes: every acknowledged write of both lands, with no corruption; a failure is a JevMemError', async () => {
    const { dir, a, b } = await twoWriters();
    await checkStore(dir, [...a.acked, ...b.acked], { label: 'two writers', full: true });
  }, 60_000);

  it('two writer processes both land every write', async () => {
    const { dir, a, b, done } = await twoWriters();
    expect(done).toEqual([true, true]);
    expect((await checkStore(dir, [...a.acked, ...b.acked], { label: 'two writers' })).nodes).toBe(8);
  }, 60_000);

  /** A store of two turns, then a reader process recalling while a writer process adds six. */
  async function readDuringIngest(): Promise<{ dir: string; acked: Acked[]; reads: string[]; done: boolean }> {
    const dir = newDir('reader');
    const seed = startChild(child, { dir, role: 'writer', run: 'a', from: 1, count: 2 });
    expect((await seed.ended).code).toBe(0);
    const reader = startChild(child, { dir, role: 'reader', run: 'r', from: 1 });
    await reader.waitFor((l) => l === 'READY');
    const writer = startChild(child, { dir, role: 'writer', run: 'b', from: 1, count: 6 });
    const end = await writer.ended;
    reader.kill();
    await reader.ended;
    return { dir, acked: [...seed.acked, ...writer.acked], reads: reader.lines.filter((l) => l.startsWith('READ ')), done: endedCleanly(writer, end) };
  }

  it('a reader process during an ingest never sees a half-written or foreign memory; failures on either side are JevMemErrors', async () => {
    const { dir, acked, reads } = await readDuringIngest();
    expect(reads.filter((l) => l.startsWith('READ ok ')).length).toBeGreaterThan(0);
    expect(reads.filter((l) => l.startsWith('READ bad '))).toEqual([]);
    expect(reads.filter((l) => l.startsWith('READ err - '))).toEqual([]);
    await checkStore(dir, acked, { label: 'after the ingest', full: true });
  }, 60_000);

  // Was skipped until the lock and journal work (issue 22): reads and writes can fail while another process commits (issue 22: 2 of 37 CLI
  // reads failed with "vtable constructor failed"; the writer's own FTS5 search fails the same way).
  it('a reader process during an ingest never fails, nor does the writer', async () => {
    const { reads, done } = await readDuringIngest();
    expect(done).toBe(true);
    expect(reads.filter((l) => l.startsWith('READ err '))).toEqual([]);
  }, 60_000);
});

describe('flipped bytes', () => {
  /** A closed store of eight turns and 16 seeded offsets spread over its database file. */
  async function flipped(): Promise<Array<{ dir: string; offset: number }>> {
    const dir = newDir('flip-source');
    const memory = await createMemory({ encoder: crashEncoder, storage: await createSqliteFileStorage({ dir, logger: quietLogger }), logger: quietLogger });
    for (let n = 1; n <= 8; n++) await memory.add(turn('a', n));
    await memory.close();
    const size = statSync(join(dir, SQLITE_FILE_NAME)).size;
    // One byte of turn 5's stored text ('harbour' becomes 'harcour'), one of the header, the rest seeded.
    const text = readFileSync(join(dir, SQLITE_FILE_NAME)).indexOf(Buffer.from(turnText('a', 5), 'utf8'));
    expect(text).toBeGreaterThan(0);
    const out: Array<{ dir: string; offset: number }> = [];
    let x = 7;
    for (let i = 0; i < 16; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0; // seeded LCG
      const offset = i === 0 ? text + turnText('a', 5).indexOf('harbour') + 3 : i === 1 ? 100 : x % size;
      const copy = newDir('flip');
      copyAsCrashed(dir, copy);
      const file = join(copy, SQLITE_FILE_NAME);
      const bytes = readFileSync(file);
      bytes[offset] = (bytes[offset] as number) ^ (i === 0 ? 0x01 : 0x5a);
      writeFileSync(file, bytes);
      out.push({ dir: copy, offset });
    }
    return out;
  }

  it('a store with a flipped byte opens or fails with a JevMemError at every call, and never hangs', async () => {
    for (const { dir, offset } of await flipped()) {
      const opened = await createSqliteFileStorage({ dir, create: false, logger: quietLogger }).then(
        (s) => s,
        (e: unknown) => e,
      );
      if (!('load' in (opened as object))) {
        expect(await outcome(Promise.reject(opened)), `offset ${offset}: open`).not.toMatch(/^not a JevMemError/);
        continue;
      }
      const memory = await createMemory({ encoder: crashEncoder, storage: opened as Awaited<ReturnType<typeof createSqliteFileStorage>>, logger: quietLogger });
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['stats', () => memory.stats()],
        ['recall', () => memory.recall('keeper logged ships', { k: 5 })],
        ['export', () => memory.export()],
        ['add', () => memory.add(turn('z', 99))],
      ];
      for (const [name, call] of calls) expect(await outcome(call()), `offset ${offset}: ${name}`).not.toMatch(/^not a JevMemError/);
      await memory.close().catch(() => undefined);
    }
  }, 60_000);

  // Was skipped until record checksums (issue 22): no record checksums yet, so a changed byte of stored text is served as if
  // it were what was written (issue 22 "A changed byte of stored text is served silently").
  it('a flipped byte is never served silently: every text read is a written turn, whole', async () => {
    for (const { dir, offset } of await flipped()) {
      const storage = await createSqliteFileStorage({ dir, create: false, logger: quietLogger }).catch(() => undefined);
      if (storage === undefined) continue;
      const memory = await createMemory({ encoder: crashEncoder, storage, logger: quietLogger });
      const file = await memory.export().catch(() => undefined);
      for (const n of file?.nodes ?? []) expect(parseTurn(n.text), `offset ${offset}`).toBeDefined();
      await memory.close().catch(() => undefined);
    }
  }, 60_000);
});
