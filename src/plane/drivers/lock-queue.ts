/**
 * First come, first served at a lock that processes share by polling (issue 22: a reader, or a
 * second writer, looking every ≤ 10 ms at a lock that a process ingesting long turns gives back
 * for a few ms between holds of 0.5–1.3 s waited past 15 s and failed). A waiter joins the
 * lock's queue, a folder of empty marker files `<ms>-<pid>-<host>-<random>` (the time it joined,
 * epoch ms, 13 digits; its process; a tag of its host name); markers sort in the order their
 * waiters joined. A connection takes the lock only when no live marker of another waiter sorts
 * before its own (before it joins: when there is no live marker of another waiter at all), so a
 * holder that gives the lock back and wants it again queues behind whoever waits, and a holder
 * may end its hold early while someone waits ({@link someoneWaits}).
 *
 * A marker is live while its waiter still looks at the lock: it is touched at every look
 * ({@link LockQueue.join}), and one untouched for {@link QUEUE_STALE_MS} is passed over (kept: its
 * waiter takes its place again at its next look). A marker of a process of this host that is gone
 * (`processAlive`) is removed by whoever sees it, so a waiter that died never holds the queue up;
 * a live waiter that stops looking (stopped, or its event loop busy) holds it up for at most
 * {@link QUEUE_STALE_MS}. A waiter's marker goes when it takes the lock, gives up, closes, or its
 * process exits. A marker that cannot be written (a full disk, a read-only folder) leaves the
 * waiter waiting as before this queue: by looking.
 *
 * Used for node-sqlite3-wasm's lock directory (`<file>.waiting/`, sqlite-lock-waiters.ts) and the
 * Node store's writer lock (`<dir>/lock.waiting/`, store/store-lock.ts).
 *
 * @module
 */
import { mkdirSync, readdirSync, rmdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './sqlite-lock-holders.js';

/** A marker not touched for this long (ms) is passed over: its waiter has stopped looking. */
export const QUEUE_STALE_MS = 2_000;

/** A short tag of a host name (FNV-1a, 8 hex digits): markers of another host cannot be checked for a live process. */
function hostTag(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
const HOST = hostTag(hostname());
const MARKER = /^(\d{13})-(\d+)-([0-9a-f]{8})-[a-z0-9]+$/;

/** Markers of this process's waiters: removed at process exit (one listener for them all). */
const mine = new Set<string>();
const onExit = (): void => mine.forEach((path) => removeQuietly(path));

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/**
 * The live markers of the queue folder `dir`, oldest first, as file names: a marker of a dead
 * process of this host is removed; one untouched for {@link QUEUE_STALE_MS} is left out.
 */
function liveMarkers(dir: string, now: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const live: string[] = [];
  for (const name of names.sort()) {
    const m = MARKER.exec(name);
    if (m === null) continue;
    const path = join(dir, name);
    if (m[3] === HOST && !mine.has(path) && !processAlive(Number(m[2]), new Date(Number(m[1])).toISOString())) {
      removeQuietly(path);
      continue;
    }
    try {
      if (now - statSync(path).mtimeMs > QUEUE_STALE_MS) continue;
    } catch {
      continue; // left the queue meanwhile
    }
    live.push(name);
  }
  return live;
}

/** Whether a live waiter (of any process) is in the queue folder `dir`: a holder may give the lock back early. */
export function someoneWaits(dir: string): boolean {
  return liveMarkers(dir, Date.now()).length > 0;
}

/** One waiter's place in the queue of a lock (module note). */
export class LockQueue {
  readonly #dir: string;
  /** This waiter's marker file, while it is queued. */
  #marker: string | undefined;

  /** @param dir - The queue folder of the lock (made when the first waiter joins). */
  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Whether this waiter is queued (its marker is written). */
  get queued(): boolean {
    return this.#marker !== undefined;
  }

  /**
   * Whether it is another waiter's turn: a live marker of another waiter sorts before this
   * waiter's, or (not queued) any live marker of another waiter is there.
   */
  ahead(): boolean {
    const own = this.#marker === undefined ? undefined : this.#marker.slice(this.#dir.length + 1);
    for (const name of liveMarkers(this.#dir, Date.now())) {
      if (name === own) return false;
      if (own === undefined || name < own) return true;
    }
    return false;
  }

  /** Joins the queue (writes the marker), or, queued, says this waiter still looks (touches it). Never throws: unwritable, it waits unqueued. */
  join(): void {
    if (this.#marker !== undefined) {
      const now = new Date();
      try {
        utimesSync(this.#marker, now, now);
        return;
      } catch {
        this.#drop(); // removed by another process (it judged this one gone): join again
      }
    }
    const path = join(this.#dir, `${Date.now()}-${process.pid}-${HOST}-${Math.random().toString(36).slice(2, 10)}`);
    try {
      mkdirSync(this.#dir, { recursive: true });
      writeFileSync(path, '', { flag: 'wx' });
    } catch {
      removeQuietly(path);
      return;
    }
    if (mine.size === 0) process.once('exit', onExit);
    mine.add(path);
    this.#marker = path;
  }

  /** Leaves the queue (removes the marker, and the folder once empty). Idempotent. */
  leave(): void {
    if (this.#marker === undefined) return;
    removeQuietly(this.#marker);
    this.#drop();
    try {
      rmdirSync(this.#dir);
    } catch {
      // another waiter is queued
    }
  }

  #drop(): void {
    if (this.#marker !== undefined && mine.delete(this.#marker) && mine.size === 0) process.off('exit', onExit);
    this.#marker = undefined;
  }
}
