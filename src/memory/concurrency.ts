/**
 * Concurrency of the memory over its namespace caches (issue 7 item 6): one cached
 * {@link NamespaceState} per namespace, loaded once and rebuilt from the store when another
 * connection (a second tab) committed; a readers–writer gate so that a read never sees an
 * uncommitted or half-applied write; and the write queue: writes to one namespace run one at a
 * time in-process and, where `navigator.locks` exists, under the Web Lock `jev-mem:<namespace>`
 * across the tabs and workers of one origin.
 *
 * Knows the storage adapter (to read the generation) but nothing of the write or read paths.
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { StorageAdapter } from '../plane/store/storage.js';

/**
 * Meta key changed by every commit of a memory (a random token). A memory that finds another
 * value in the store than in its cache knows another connection (a second tab) wrote, and
 * rebuilds its caches from the store before going on.
 */
export const GENERATION_META_KEY = 'generation' as const;

/** Prefix of the Web Lock that serialises writes to one namespace across tabs: `jev-mem:<namespace>`. */
export const LOCK_PREFIX = 'jev-mem:' as const;

/** A new generation token (see {@link GENERATION_META_KEY}). */
export function newGeneration(): string {
  return globalThis.crypto.randomUUID();
}

/** The parts of the Web Locks API used here (`navigator.locks`). */
interface LockManagerLike {
  request<T>(name: string, options: { mode: 'exclusive'; signal?: AbortSignal }, callback: () => Promise<T>): Promise<T>;
}

function webLocks(): LockManagerLike | undefined {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks !== undefined && locks !== null && typeof locks.request === 'function' ? locks : undefined;
}

/** Readers–writer gate of one namespace. */
interface Gate {
  readers: number;
  writing: boolean;
  queue: Array<{ write: boolean; go: () => void }>;
}

/** Residency of the namespace caches (issue 22). */
export interface ResidencyOptions {
  /**
   * Most namespaces whose state is kept open; beyond it the least recently used idle one (no
   * write planned or queued, no read running) is checkpointed (`onEvict`) and released. A
   * namespace in use is never released, so the count can pass the bound while they all are.
   */
  maxOpen: number;
  /** Called under the namespace's write lock before its state is released (writes its checkpoint). Must not throw. */
  onEvict?: (ns: string, state: NamespaceState) => Promise<void>;
}

/**
 * The namespace caches of one memory and the rules for touching them. One per memory.
 */
export class NamespaceCaches {
  readonly #storage: StorageAdapter;
  readonly #build: (ns: string) => Promise<NamespaceState>;
  readonly #states = new Map<string, Promise<NamespaceState>>();
  /** Tail of each namespace's write queue. */
  readonly #locks = new Map<string, Promise<unknown>>();
  /** Locked operations in flight per namespace (reads do not refresh caches under them). */
  readonly #inFlight = new Map<string, number>();
  /** Readers of each state; a retired state is disposed when its last reader leaves. */
  readonly #users = new WeakMap<NamespaceState, { n: number; retired: boolean }>();
  readonly #disposed = new WeakSet<NamespaceState>();
  readonly #gates = new Map<string, Gate>();
  /** Writes in flight per namespace, from their plan (outside the lock) to their commit. */
  readonly #ops = new Map<string, number>();
  /** The tracked operations running (close waits for them). */
  readonly #running = new Set<Promise<unknown>>();
  /** Namespaces being released by {@link ResidencyOptions.maxOpen}. */
  readonly #evicting = new Set<string>();
  readonly #residency: ResidencyOptions;

  /**
   * @param storage The store (its optional `loadMeta` tells when another connection committed).
   * @param build Loads a namespace from the store and builds its state (migrations, indexes).
   * @param residency How many namespaces stay open (default: no bound).
   */
  constructor(storage: StorageAdapter, build: (ns: string) => Promise<NamespaceState>, residency: ResidencyOptions = { maxOpen: Number.POSITIVE_INFINITY }) {
    this.#storage = storage;
    this.#build = build;
    this.#residency = residency;
  }

  /**
   * The cached state of `ns`, loading it on first use (a failed load is retried by the next
   * call). Marks `ns` most recently used; a load beyond `maxOpen` releases the least recently
   * used idle namespaces before it resolves.
   */
  stateOf(ns: string): Promise<NamespaceState> {
    let s = this.#states.get(ns);
    if (s === undefined) {
      const p = this.#build(ns).then(async (st) => {
        await this.#makeRoom(ns);
        return st;
      });
      s = p;
      this.#states.set(ns, p);
      // The rejection reaches the caller through `p`; here only the failed entry is dropped.
      p.catch(() => {
        if (this.#states.get(ns) === p) this.#states.delete(ns);
      });
    } else {
      // Most recently used last: a Map keeps insertion order.
      this.#states.delete(ns);
      this.#states.set(ns, s);
    }
    return s;
  }

  /** Number of namespaces whose state is held (loaded or loading). */
  get openCount(): number {
    return this.#states.size;
  }

  /**
   * Runs one write of `ns` from its plan to its commit: while it runs the namespace is not
   * released, and {@link close} waits for it.
   */
  track<T>(ns: string, fn: () => Promise<T>): Promise<T> {
    this.#ops.set(ns, (this.#ops.get(ns) ?? 0) + 1);
    const run = (async () => {
      try {
        return await fn();
      } finally {
        const n = (this.#ops.get(ns) ?? 1) - 1;
        if (n === 0) this.#ops.delete(ns);
        else this.#ops.set(ns, n);
      }
    })();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(settled);
    void settled.then(() => {
      this.#running.delete(settled);
      void this.#makeRoom(undefined);
    });
    return run;
  }

  /**
   * Runs a plan over the state of `ns` WITHOUT the gate or the write lock (issue 22): it may
   * see another write's changes before their commit, so what it computes is only a plan that
   * the commit checks again under the lock. The state is not disposed while `fn` runs.
   */
  speculating<T>(ns: string, fn: (state: NamespaceState) => Promise<T>): Promise<T> {
    return this.#using(ns, fn);
  }

  /** Whether nothing uses `ns` now: no write planned, queued or running, no read, no release under way. */
  #idle(ns: string, insideLock: boolean): boolean {
    return (this.#ops.get(ns) ?? 0) === 0 && (insideLock || !this.#locks.has(ns)) && (this.#inFlight.get(ns) ?? 0) === (insideLock ? 1 : 0) && !this.#gates.has(ns);
  }

  /**
   * Releases least recently used idle namespaces while more than `maxOpen` are held (never
   * `keep`, the one just opened). Each is checkpointed under its write lock first.
   */
  async #makeRoom(keep: string | undefined): Promise<void> {
    const max = this.#residency.maxOpen;
    const victims: string[] = [];
    let over = this.#states.size - this.#evicting.size - max;
    for (const ns of this.#states.keys()) {
      if (over <= 0) break;
      if (ns === keep || this.#evicting.has(ns) || !this.#idle(ns, false)) continue;
      victims.push(ns);
      this.#evicting.add(ns);
      over--;
    }
    await Promise.all(victims.map((ns) => this.#evict(ns)));
  }

  async #evict(ns: string): Promise<void> {
    try {
      await this.exclusive(ns, async () => {
        const p = this.#states.get(ns);
        if (p === undefined || !this.#idle(ns, true)) return;
        const st = await p;
        await this.#residency.onEvict?.(ns, st);
        // A read or a write may have arrived during the checkpoint: then it stays.
        if (this.#states.get(ns) === p && this.#idle(ns, true)) this.drop(ns);
      });
    } catch {
      // A failed load or checkpoint: the namespace stays open; its error goes to its own callers.
    } finally {
      this.#evicting.delete(ns);
    }
  }

  /** Rebuilds a namespace's caches from the store (after a failed commit, or another tab's). */
  reload(ns: string): Promise<NamespaceState> {
    this.drop(ns);
    return this.stateOf(ns);
  }

  /** Forgets the cached state of `ns` (disposed once no read uses it). */
  drop(ns: string): void {
    const old = this.#states.get(ns);
    this.#states.delete(ns);
    this.#retireLater(old);
  }

  /** Makes `state` the cached state of `ns` (an import built it), retiring the one before. */
  install(ns: string, state: NamespaceState): void {
    const old = this.#states.get(ns);
    this.#states.set(ns, Promise.resolve(state));
    this.#retireLater(old);
  }

  /**
   * The namespace's state, rebuilt first when another connection committed since it was built
   * (its generation differs from the store's). Inside a lock (`locked`) this is exact; for reads
   * it is skipped while this memory has a write in flight on the namespace.
   */
  async fresh(ns: string, locked: boolean): Promise<NamespaceState> {
    const state = await this.stateOf(ns);
    if (!locked && this.#busy(ns)) return state;
    const meta = await this.#storage.loadMeta(ns);
    if ((meta[GENERATION_META_KEY] ?? null) === (state.meta[GENERATION_META_KEY] ?? null)) return state;
    if (!locked && this.#busy(ns)) return state;
    const current = await this.stateOf(ns);
    return current !== state ? current : this.reload(ns); // one rebuild when several reads notice at once
  }

  /**
   * Runs a read over a state that no write changes and no rebuild disposes under it: the read
   * holds the namespace's gate for its whole run, so it never sees a write that is not
   * committed, nor half of one.
   */
  async reading<T>(ns: string, fn: (state: NamespaceState) => Promise<T> | T): Promise<T> {
    const release = await this.gate(ns, false);
    try {
      return await this.#using(ns, fn);
    } finally {
      release();
    }
  }

  /** Runs `fn` over the fresh state of `ns`, counted as a user so no rebuild disposes it under `fn`. */
  async #using<T>(ns: string, fn: (state: NamespaceState) => Promise<T> | T): Promise<T> {
    {
      let state = await this.fresh(ns, false);
      // A rebuild may have retired it between the lookup and this line: take the current one.
      for (let i = 0; i < 3 && this.#disposed.has(state); i++) state = await this.stateOf(ns);
      const u = this.#users.get(state) ?? { n: 0, retired: false };
      this.#users.set(state, u);
      u.n++;
      try {
        const st = state;
        return await st.use(async () => fn(st));
      } finally {
        u.n--;
        if (u.n === 0 && u.retired) this.#dispose(state);
      }
    }
  }

  /**
   * Enters the readers–writer gate of `ns`; resolves with the function that leaves it. A write
   * holds it from the first change it makes to the caches until its commit is settled (or
   * rolled back by a rebuild). A waiting write goes before reads that arrive after it.
   */
  gate(ns: string, write: boolean): Promise<() => void> {
    return new Promise<() => void>((resolve) => {
      let g = this.#gates.get(ns);
      if (g === undefined) {
        g = { readers: 0, writing: false, queue: [] };
        this.#gates.set(ns, g);
      }
      let left = false;
      const leave = (): void => {
        if (left) return;
        left = true;
        this.#leave(ns, write);
      };
      g.queue.push({ write, go: () => resolve(leave) });
      this.#pump(ns);
    });
  }

  /**
   * Serialises writes per namespace: an in-process queue, and inside it the Web Lock
   * `jev-mem:<namespace>` where `navigator.locks` exists, so tabs and workers of one origin
   * write one at a time (issue 7 item 6).
   * @throws JevMemError `ABORTED` when `signal` fired while waiting for the lock; else `fn`'s error.
   */
  exclusive<T>(ns: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const counted = async (): Promise<T> => {
      this.#inFlight.set(ns, (this.#inFlight.get(ns) ?? 0) + 1);
      try {
        return await fn();
      } finally {
        const n = (this.#inFlight.get(ns) ?? 1) - 1;
        if (n === 0) this.#inFlight.delete(ns);
        else this.#inFlight.set(ns, n);
      }
    };
    const locked = (): Promise<T> => {
      const lm = webLocks();
      if (lm === undefined) return counted();
      return lm.request(`${LOCK_PREFIX}${ns}`, signal === undefined ? { mode: 'exclusive' } : { mode: 'exclusive', signal }, counted).catch((e: unknown) => {
        if (signal?.aborted && !isJevMemError(e)) throw new JevMemError('ABORTED', 'the operation was aborted by the caller while waiting for the write lock', { cause: signal.reason });
        throw e;
      });
    };
    const prev = this.#locks.get(ns) ?? Promise.resolve();
    const run = prev.then(locked, locked);
    // The queue's tail only orders the next write; `run` (returned) carries the error to its caller.
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(ns, tail);
    void tail.then(() => {
      if (this.#locks.get(ns) === tail) this.#locks.delete(ns);
    });
    return run;
  }

  /** Namespaces whose state is cached (loaded or loading), least recently used first. */
  loadedNamespaces(): string[] {
    return [...this.#states.keys()];
  }

  /** Waits until no tracked write ({@link track}) runs, planning or committing; errors go to their callers. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }

  /**
   * Waits for the writes in flight (their errors go to their callers) and disposes every state.
   */
  async close(): Promise<void> {
    await this.settle();
    await Promise.all(this.#locks.values()); // tails never reject
    for (const s of this.#states.values()) {
      // A state that failed to load has nothing to dispose; its error went to its caller.
      const st = await s.then(
        (x) => x,
        () => undefined,
      );
      if (st) this.#retire(st);
    }
    this.#states.clear();
  }

  #busy(ns: string): boolean {
    return (this.#inFlight.get(ns) ?? 0) > 0;
  }

  /** Retires a state once its promise settles (a failed load has nothing to retire). */
  #retireLater(s: Promise<NamespaceState> | undefined): void {
    if (s) s.then((st) => this.#retire(st), () => undefined);
  }

  #retire(s: NamespaceState): void {
    const u = this.#users.get(s);
    if (u === undefined || u.n === 0) this.#dispose(s);
    else u.retired = true;
  }

  #dispose(s: NamespaceState): void {
    this.#disposed.add(s);
    s.dispose();
  }

  #pump(ns: string): void {
    const g = this.#gates.get(ns);
    if (g === undefined) return;
    while (g.queue.length > 0) {
      const next = g.queue[0] as { write: boolean; go: () => void };
      if (next.write ? g.writing || g.readers > 0 : g.writing) break;
      g.queue.shift();
      if (next.write) g.writing = true;
      else g.readers++;
      next.go();
    }
    if (!g.writing && g.readers === 0 && g.queue.length === 0) this.#gates.delete(ns);
  }

  #leave(ns: string, write: boolean): void {
    const g = this.#gates.get(ns);
    if (g === undefined) return;
    if (write) g.writing = false;
    else g.readers--;
    this.#pump(ns);
  }
}
