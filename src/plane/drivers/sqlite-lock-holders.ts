/**
 * Who may hold the lock directory `<file>.lock` of a node-sqlite3-wasm database: every open
 * connection registers itself in `<file>.holders/` (one file `{pid, host, since, folder}`, written
 * aside and renamed into place; removed at close and at process exit). The lock is taken over only
 * when its holder is gone (`sqlite-node.ts`).
 *
 * A registration belongs to the store folder it was written in: `folder` is that folder's
 * identity (device and inode). A store folder copied while a process holds its lock (`cp -r`)
 * carries the lock directory and the registration of that live process; in the copy the
 * registration names another folder, so it holds nothing there and the copied lock is taken
 * over at once (issue 22, h-break5: the copy waited for the live process and failed as locked).
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { rollBackHotJournal } from '../store/sqlite-hot-journal.js';

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/**
 * The identity of the folder holding `file` (`<dev>:<ino>`, which a copy of the folder does not
 * share and a rename keeps), or `undefined` when it cannot be read.
 */
export function folderIdentity(file: string): string | undefined {
  try {
    const s = statSync(dirname(file), { bigint: true });
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/** Registration files of this process's open connections (removed at process exit too). */
const registrations = new Set<string>();
const onExit = (): void => {
  for (const file of registrations) {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  }
};

/**
 * Registers a connection to `file` (call before its first statement); returns the registration
 * to pass to {@link unregisterHolder}, or `undefined` when the folder cannot be written (a
 * read-only store: its lock is then taken for one of an unregistered, live process).
 */
export function registerHolder(file: string): string | undefined {
  const dir = `${file}.holders`;
  const name = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const temp = join(dir, `.${name}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), folder: folderIdentity(file) }));
    renameSync(temp, join(dir, name));
    // Only once this connection is registered: an unregistered one takes a dead holder's lock
    // over only while the dead holder's registration is there (takeOverDeadHolder).
    sweepDeadHolders(dir);
    if (registrations.size === 0) process.once('exit', onExit);
    registrations.add(join(dir, name));
    return join(dir, name);
  } catch {
    // A full disk refuses the write after the file was made (issue 22): nothing stays behind.
    removeQuietly(temp);
    if (registrations.size === 0) removeFolderQuietly(dir);
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

function removeFolderQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (another connection is registered) or gone
  }
}

/**
 * Removes the registrations of processes of this host that are gone ({@link processAlive}), and
 * the half-written ones (`.<pid>-…`, written aside) a dead process left (before issue 22, a full
 * disk refused their write and they stayed): the next connection to the file cleans up after it.
 */
export function sweepDeadHolders(dir: string): void {
  const host = hostname();
  for (const h of holdersOf(dir)) if (h.host === host && !processAlive(h.pid, h.since)) removeQuietly(h.file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^\.(\d+)-/.exec(name);
    if (m !== null && !processAlive(Number(m[1]))) removeQuietly(join(dir, name));
  }
}

/** Removes a registration (and the folder once empty). Idempotent. */
export function unregisterHolder(registration: string | undefined): void {
  if (registration === undefined || !registrations.delete(registration)) return;
  if (registrations.size === 0) process.off('exit', onExit);
  try {
    unlinkSync(registration);
  } catch {
    // removed by a process that took the lock over
  }
  try {
    rmdirSync(join(registration, '..')); // the last connection to the file removes the folder
  } catch {
    // another connection is registered
  }
}

/** One registered connection: `<file>.holders/<name>` holds `{pid, host, since, folder}`. */
interface Holder {
  file: string;
  pid: number;
  host: string;
  since: string | undefined;
  /** {@link folderIdentity} of the store folder it registered in (absent: written by an older build, or unreadable then). */
  folder: string | undefined;
}

/** The connections registered for a database, unreadable registrations left out. */
function holdersOf(dir: string): Holder[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Holder[] = [];
  for (const name of names) {
    try {
      const h = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid?: unknown; host?: unknown; since?: unknown; folder?: unknown };
      if (typeof h.pid === 'number' && typeof h.host === 'string') {
        out.push({ file: join(dir, name), pid: h.pid, host: h.host, since: typeof h.since === 'string' ? h.since : undefined, folder: typeof h.folder === 'string' ? h.folder : undefined });
      }
    } catch {
      // a registration being written (rename makes it whole) or removed
    }
  }
  return out;
}

/**
 * When the process `pid` of this host started (ms since the epoch), from Linux's `/proc`
 * (`starttime` of `/proc/<pid>/stat`, in USER_HZ = 100 ticks a second, after `btime` of
 * `/proc/stat`); `undefined` elsewhere or when it cannot be read.
 */
export function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
    const ticks = Number(fields[19]); // field 22: starttime
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (!Number.isFinite(ticks) || boot === null) return undefined;
    return Number(boot[1]) * 1000 + ticks * 10;
  } catch {
    return undefined;
  }
}

/** A process that started this long (ms) after a registration's `since` cannot have written it. */
export const PID_REUSE_MARGIN_MS = 5_000;

/**
 * Whether the process `pid` of this host is alive (a process we may not signal is) and is the
 * one that registered at `since` (ISO time): a process with that pid that started well after it
 * (Linux: {@link processStartMs}) reuses the pid of a dead one.
 */
export function processAlive(pid: number, since?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
  const registered = since === undefined ? Number.NaN : Date.parse(since);
  const started = Number.isFinite(registered) ? processStartMs(pid) : undefined;
  return started === undefined || started <= registered + PID_REUSE_MARGIN_MS;
}

/**
 * Takes over the lock directory `<file>.lock` when its holder is gone: every connection
 * registered by another process is on this host and dead, or registered in another folder (the
 * lock and its registrations were copied with the folder: {@link folderIdentity}; the caller ended this process's own
 * leases first, so none of its connections holds the lock); `registered` is whether the caller's
 * connection is registered (without that, an empty registry proves nothing). The dead writer's
 * rollback journal is played back before anything reads the file (`sqlite-hot-journal.ts`).
 * Never by age. True when the lock was taken over (or is gone already): run the statement again.
 */
export function takeOverDeadHolder(file: string, registered: boolean): boolean {
  const lockDir = `${file}.lock`;
  const host = hostname();
  let before: number;
  try {
    before = statSync(lockDir).ino;
  } catch {
    return true; // released meanwhile
  }
  const here = folderIdentity(file);
  const listed = holdersOf(`${file}.holders`).filter((h) => !(h.pid === process.pid && h.host === host));
  // A registration written in another folder (this one is a copy) holds nothing here.
  const others = listed.filter((h) => h.folder === undefined || here === undefined || h.folder === here);
  if (others.some((h) => h.host !== host || processAlive(h.pid, h.since))) return false;
  if (others.length === 0 && !registered) return false; // cannot tell who holds it
  // While the dead holder's lock is still there no live connection touches the file: play
  // its journal back now (twice by two processes taking over at once is harmless).
  try {
    if (statSync(lockDir).ino !== before) return false;
  } catch {
    return true;
  }
  rollBackHotJournal(file);
  // Move the directory aside first and check it is the one judged: two processes taking over
  // at once must not remove a lock the other has just taken.
  const aside = `${lockDir}.gone-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    renameSync(lockDir, aside);
  } catch {
    return true; // another process took it over first
  }
  try {
    if (statSync(aside).ino !== before) {
      renameSync(aside, lockDir); // a fresh lock of a live process: put it back
      return false;
    }
    for (const h of listed) {
      try {
        unlinkSync(h.file);
      } catch {
        // removed by another process
      }
    }
  } finally {
    try {
      rmdirSync(aside);
    } catch {
      // put back, or removed
    }
  }
  return true;
}
