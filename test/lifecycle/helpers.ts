/**
 * Shared fixtures of the lifecycle tests (issue 7): a small conversation, storage wrappers that
 * inject faults or outlive a memory, a System One that forces chosen answers, the CLI runner, and
 * a store file of long turns for the damage tests to damage.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import type { Memory } from '../../src/memory.js';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import type { NamespaceSnapshot, StorageAdapter, WriteBatch } from '../../src/plane/store/storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend, SystemOneRequest, SystemOneResponse } from '../../src/system-one/wire.js';
import type { Observation } from '../../src/types.js';

/** Ten turns of two sessions about distinct topics (so recall can tell them apart). */
export const TURNS: Observation[] = [
  { text: 'Maya: I started a pottery class at the community studio.', observedAt: '2023-03-01T10:00:00Z', speaker: 'Maya', sessionId: 's1', turnId: 'S1:1', source: 'chat' },
  { text: 'Theo: Nice! I replaced the chain on my bike this weekend.', observedAt: '2023-03-01T10:01:00Z', speaker: 'Theo', sessionId: 's1', turnId: 'S1:2', source: 'chat' },
  { text: 'Maya: My teacher Ines explains glazing really clearly.', observedAt: '2023-03-01T10:02:00Z', speaker: 'Maya', sessionId: 's1', turnId: 'S1:3', source: 'chat' },
  { text: 'Theo: My dog Biscuit chewed the old bike chain.', observedAt: '2023-03-01T10:03:00Z', speaker: 'Theo', sessionId: 's1', turnId: 'S1:4', source: 'chat' },
  { text: 'Maya: I am saving money for a trip to Japan in autumn.', observedAt: '2023-03-01T10:04:00Z', speaker: 'Maya', sessionId: 's1', turnId: 'S1:5', source: 'chat' },
  { text: 'Theo: I finished reading a novel about lighthouse keepers.', observedAt: '2023-04-12T18:00:00Z', speaker: 'Theo', sessionId: 's2', turnId: 'S2:1', source: 'chat' },
  { text: 'Maya: The pottery studio raised its fees, so I joined a cheaper one.', observedAt: '2023-04-12T18:01:00Z', speaker: 'Maya', sessionId: 's2', turnId: 'S2:2', source: 'chat' },
  { text: 'Theo: Biscuit learned to fetch the newspaper.', observedAt: '2023-04-12T18:02:00Z', speaker: 'Theo', sessionId: 's2', turnId: 'S2:3', source: 'chat' },
  { text: 'Maya: I booked flights to Osaka for October.', observedAt: '2023-04-12T18:03:00Z', speaker: 'Maya', sessionId: 's2', turnId: 'S2:4', source: 'chat' },
  { text: 'Theo: I want to learn to bake sourdough bread.', observedAt: '2023-04-12T18:04:00Z', speaker: 'Theo', sessionId: 's2', turnId: 'S2:5', source: 'chat' },
];

/**
 * Registers a test file's shared setup: the default Node encoder, made before the file's first
 * test and handed to `onEncoder`, closed after its last; and temporary folders (`tempDir()`, named
 * `jev-mem-<name>-…`) removed after its last test. Call once, at the top level of a test file.
 */
export function lifecycleFixture(name: string, onEncoder: (encoder: Encoder) => void): { tempDir: () => string } {
  let encoder: Encoder | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    encoder = await createDefaultNodeEncoder();
    onEncoder(encoder);
  });
  afterAll(async () => {
    await encoder?.close?.();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    tempDir: () => {
      const d = mkdtempSync(join(tmpdir(), `jev-mem-${name}-`));
      dirs.push(d);
      return d;
    },
  };
}

/** Questions used to compare recalls. */
export const QUESTIONS = ['What did Theo replace on his bike?', 'Where is Maya travelling?', 'Who teaches Maya glazing?', 'What did Biscuit do?'];

/** The JevMemError code of a rejected promise (or `'resolved'` / `'not a JevMemError: …'`). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isJevMemError(e) ? e.code : `not a JevMemError: ${String(e)}`;
  }
}

/** The error a promise rejects with. */
export async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** Ids and texts of a recall, best first (what a user sees). */
export async function recallView(memory: Memory, query: string, namespace?: string): Promise<Array<{ id: string; text: string; score: number }>> {
  const r = await memory.recall(query, namespace === undefined ? { k: 5 } : { k: 5, namespace });
  return r.memories.map((m) => ({ id: m.id, text: m.text, score: Math.round(m.score * 1e9) / 1e9 }));
}

/**
 * Every member name of a storage adapter: own and inherited (up to `Object.prototype`), methods
 * and properties alike, so a wrapper can forward what an adapter offers today and whatever the
 * port gains later (a store's `lexicalIndex`, an IDB store's `persistence`).
 */
export function portMembers(inner: StorageAdapter): string[] {
  const names = new Set<string>();
  for (let o: object | null = inner; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const k of Object.getOwnPropertyNames(o)) if (k !== 'constructor') names.add(k);
  }
  return [...names].sort();
}

/**
 * A wrapper of `inner` that forwards the whole storage port (issue 22): every method bound to
 * `inner`, every property read live from it, then `overrides` defined on top (plain values,
 * writable). So a test that injects a fault or keeps a store open never hides a port method and
 * never moves the memory onto a fallback path no shipped store takes.
 */
export function forwardPort<T extends object>(inner: StorageAdapter, overrides: T): StorageAdapter & T {
  const out: Record<string, unknown> = {};
  for (const key of portMembers(inner)) {
    const member = (inner as unknown as Record<string, unknown>)[key];
    if (typeof member === 'function') {
      Object.defineProperty(out, key, { value: (...a: unknown[]) => (member as (...a: unknown[]) => unknown).apply(inner, a), writable: true, enumerable: true, configurable: true });
    } else {
      Object.defineProperty(out, key, { get: () => (inner as unknown as Record<string, unknown>)[key], enumerable: true, configurable: true });
    }
  }
  for (const key of Object.keys(overrides)) {
    Object.defineProperty(out, key, { value: (overrides as Record<string, unknown>)[key], writable: true, enumerable: true, configurable: true });
  }
  return out as unknown as StorageAdapter & T;
}

/** The whole port of `inner`, with a `close()` that does nothing (so a second memory can reopen it). */
export function keepOpen(inner: StorageAdapter): StorageAdapter & { reallyClose(): Promise<void> } {
  return forwardPort(inner, { close: async (): Promise<void> => undefined, reallyClose: () => inner.close() });
}

/** The whole port of a store, with commits that fail when `failIf` says so (before the store sees them). */
export interface FaultyStorage extends StorageAdapter {
  /** Batches the inner adapter accepted. */
  readonly committed: WriteBatch[];
  /** Decides, per commit, whether it fails (and with what). */
  failIf: ((batch: WriteBatch, n: number) => Error | undefined) | undefined;
}

/** Wraps `inner` with a fault injector (see {@link FaultyStorage}); every other member is forwarded ({@link forwardPort}). */
export function faulty(inner: StorageAdapter): FaultyStorage {
  let n = 0;
  const committed: WriteBatch[] = [];
  const s: FaultyStorage = forwardPort(inner, {
    committed,
    failIf: undefined as FaultyStorage['failIf'],
    async commit(ns: string, b: WriteBatch): Promise<void> {
      n++;
      const err = s.failIf?.(b, n);
      if (err) throw err;
      await inner.commit(ns, b);
      committed.push(b);
    },
  });
  return s;
}

/** The stored records of a namespace without the bookkeeping that changes on every commit. */
export async function stored(storage: StorageAdapter, ns: string): Promise<NamespaceSnapshot> {
  const snap = await storage.load(ns);
  const { generation: _g, ...meta } = snap.meta;
  return { ...snap, meta };
}

/**
 * The heuristic System One with some noul answers forced: `force(questionKey)` returns the
 * probability to answer, or undefined to keep the heuristic's.
 */
export function forcing(force: (key: string) => number | undefined): SystemOneBackend {
  const base = createHeuristicSystemOne();
  const patch = (req: SystemOneRequest, res: SystemOneResponse): SystemOneResponse => {
    const answers = { ...res.answers };
    for (const key of Object.keys(req.questions)) {
      const p = force(key);
      if (p !== undefined) answers[key] = { type: 'noul', noul: p };
    }
    return { ...res, model: 'test/forcing@1', answers };
  };
  return {
    kind: 'test',
    modelId: 'test/forcing@1',
    async decide(r, o) {
      return patch(r, await base.decide(r, o));
    },
    async decideMany(rs, o) {
      const out = await base.decideMany(rs, o);
      return out.map((res, i) => patch(rs[i] as SystemOneRequest, res));
    },
    close: () => base.close(),
  };
}

/** Runs the CLI in-process; returns its exit code and printed lines. */
export async function cli(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out, err };
}

/** The places the damage tests' long turns name, in turn. */
const PLACES = ['harbour', 'orchard', 'library', 'bakery', 'station', 'market', 'garden', 'museum'];

/**
 * `count` chat turns by Maya of distinct, long text, so that their records fill many pages of a
 * store file: turn i says `text(i, place)` (the places taken in turn), at `startMs` + i minutes,
 * in session `s⌊i / perSession⌋`, with turn id `<turnPrefix>:<i>`.
 */
export function longTurns(count: number, o: { text: (i: number, place: string) => string; startMs: number; perSession: number; turnPrefix: string }): Observation[] {
  return Array.from({ length: count }, (_, i) => ({
    text: o.text(i, PLACES[i % PLACES.length] as string),
    observedAt: new Date(o.startMs + i * 60_000).toISOString(),
    speaker: 'Maya',
    sessionId: `s${Math.floor(i / o.perSession)}`,
    turnId: `${o.turnPrefix}:${i}`,
    source: 'chat',
  }));
}

/**
 * Writes `turns` with one `addMany` into a memory on the SQLite store file in `dir` (`open(dir)`),
 * closes it and reads the file back, for a test to damage: the export before the damage (every
 * turn in it, checked), the file's path, its bytes and its page size (header offset 16).
 */
export async function writtenStoreFile(dir: string, open: (dir: string) => Promise<Memory>, turns: Observation[]): Promise<{ before: MemoryExport; path: string; file: Buffer; pageSize: number }> {
  const m = await open(dir);
  await m.addMany(turns);
  const before = await m.export();
  await m.close();
  expect(before.nodes).toHaveLength(turns.length);
  const path = join(dir, SQLITE_FILE_NAME);
  const file = readFileSync(path);
  return { before, path, file, pageSize: file.readUInt16BE(16) };
}

/** What a request is about: `relation`, `typing`, `maintenance`... */
export function kindOf(r: SystemOneRequest): string {
  return (r.state as { kind?: string }).kind ?? '';
}

/**
 * The heuristic System One, where the next request of an armed kind blocks until released;
 * every request's kind is logged.
 */
export function holdingSystemOne(): {
  backend: SystemOneBackend;
  seen: SystemOneRequest[];
  hold(kind: string): { entered: Promise<void>; release: () => void };
} {
  const inner = createHeuristicSystemOne();
  const seen: SystemOneRequest[] = [];
  let armed: { kind: string; enter: () => void; gate: Promise<void> } | undefined;
  const backend: SystemOneBackend = {
    kind: 'stub',
    modelId: inner.modelId,
    decide: async (r, o) => (await backend.decideMany([r], o))[0] as never,
    decideMany: async (requests, o) => {
      seen.push(...requests);
      const a = armed;
      if (a !== undefined && requests.some((r) => kindOf(r) === a.kind)) {
        armed = undefined;
        a.enter();
        await a.gate;
      }
      return inner.decideMany(requests, o);
    },
    close: () => inner.close(),
  };
  return {
    backend,
    seen,
    hold(kind) {
      let enter!: () => void;
      let release!: () => void;
      const entered = new Promise<void>((r) => (enter = r));
      const gate = new Promise<void>((r) => (release = r));
      armed = { kind, enter, gate };
      return { entered, release };
    },
  };
}

/**
 * Resolves with `p`'s value, or with 'stalled' when it has not settled after 20 s: a watchdog
 * for a call that would wait forever behind the held one (20 s is far above any real run).
 */
export function orStalled<T>(p: Promise<T>): Promise<T | 'stalled'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchdog = new Promise<'stalled'>((r) => (timer = setTimeout(() => r('stalled'), 20_000)));
  return Promise.race([p, watchdog]).finally(() => clearTimeout(timer));
}

