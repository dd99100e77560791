/**
 * The errno of node-sqlite3-wasm's file I/O (issue 22: a full disk is `QUOTA_EXCEEDED`, not a
 * plain I/O error). node-sqlite3-wasm's VFS (its JS glue, `_nodejsWrite` and siblings) calls
 * Node's synchronous `fs` functions through the `node:fs` module object and turns any exception
 * into an SQLite result code (`SQLITE_IOERR_WRITE`, …): the errno is lost, and ENOSPC reaches
 * the caller as "disk I/O error". {@link observeErrno} wraps a `Database` so that while one of
 * its calls runs (they are synchronous: SQLite calls the VFS inside them) the `fs` functions the
 * VFS uses are observed; when the call throws after one of them failed with `ENOSPC` or `EDQUOT`,
 * the error becomes SQLite's full-disk error (`database or disk is full (SQLITE_FULL: …)`), which
 * the store maps to `QUOTA_EXCEEDED` (`sql-errors.ts`). SQLite itself has rolled the statement or
 * transaction back by then (the driver's ROLLBACK follows), so nothing is half-written.
 *
 * The `fs` functions are replaced only for the duration of one synchronous call and restored
 * after it (nothing else can run in between), so nothing of this stays installed, and whatever
 * `fs` holds at the time (a test's fault injector too) is what is observed.
 *
 * Node only.
 *
 * @module
 */
import fs from 'node:fs';

/** The `fs` functions node-sqlite3-wasm's VFS calls that can fail for lack of space. */
const WATCHED = ['writeSync', 'fsyncSync', 'ftruncateSync', 'openSync', 'mkdirSync'] as const;
type Watched = (typeof WATCHED)[number];

/** Errno codes of a full device or an exhausted quota. */
const FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

/** The first failure of a watched call during the current observed call. */
let failed: { call: Watched; code: string } | undefined;
/** Depth of nested observed calls (only the outermost installs and restores). */
let depth = 0;
/** The `fs` module object the VFS calls through (`require('node:fs')`). */
const mod = fs as unknown as Record<Watched, (...a: unknown[]) => unknown>;
/** What `fs` held for each watched function when the outermost observed call began. */
const inner: Array<(...a: unknown[]) => unknown> = WATCHED.map((name) => mod[name]);
/** The observing stand-in of each watched function, made once: it calls {@link inner} and notes its errno. */
const watchers = WATCHED.map(
  (name, i) =>
    function watched(this: unknown, ...a: unknown[]): unknown {
      try {
        return (inner[i] as (...x: unknown[]) => unknown).apply(this, a);
      } catch (e) {
        const code = (e as { code?: unknown } | null)?.code;
        if (failed === undefined && typeof code === 'string') failed = { call: name, code };
        throw e;
      }
    },
);

/** Runs `fn` with the watched `fs` functions observed; `failed` holds their first errno failure. */
function observed<T>(fn: () => T): T {
  if (depth > 0) {
    depth++;
    try {
      return fn();
    } finally {
      depth--;
    }
  }
  for (let i = 0; i < WATCHED.length; i++) {
    const name = WATCHED[i] as Watched;
    inner[i] = mod[name];
    mod[name] = watchers[i] as (...a: unknown[]) => unknown;
  }
  failed = undefined;
  depth = 1;
  try {
    return fn();
  } catch (e) {
    throw fullDiskOf(e, failed);
  } finally {
    depth = 0;
    failed = undefined;
    for (let i = 0; i < WATCHED.length; i++) mod[WATCHED[i] as Watched] = inner[i] as (...a: unknown[]) => unknown;
  }
}

/**
 * SQLite's full-disk error for `e` when the file system answered ENOSPC or EDQUOT during the
 * call that threw it; else `e` as it is.
 */
export function fullDiskOf(e: unknown, cause: { call: string; code: string } | undefined): unknown {
  if (cause === undefined || !FULL_CODES.has(cause.code) || !(e instanceof Error)) return e;
  if (/SQLITE_FULL|database or disk is full/i.test(e.message)) return e;
  return new Error(`database or disk is full (SQLITE_FULL: ${e.message}; the file system answered ${cause.code} to ${cause.call})`, { cause: e });
}

/** Wraps every method of `target` in {@link observed}; a method's object result (a statement) is wrapped too. */
function wrap<T extends object>(target: T): T {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(t, key) {
      const value: unknown = Reflect.get(t, key, t);
      if (typeof value !== 'function') return value;
      let m = methods.get(key);
      if (m === undefined) {
        const f = value as (...a: unknown[]) => unknown;
        m = (...a: unknown[]): unknown => {
          const out = observed(() => f.apply(t, a));
          return key === 'prepare' && typeof out === 'object' && out !== null ? wrap(out) : out;
        };
        methods.set(key, m);
      }
      return m;
    },
  });
}

/**
 * `db` (a node-sqlite3-wasm `Database`) with the errno of its file I/O observed: a call that
 * fails after the file system answered ENOSPC or EDQUOT throws `database or disk is full
 * (SQLITE_FULL: …)` (its `cause` is the original error); every other outcome is unchanged. The
 * statements `prepare` returns are observed the same way. Only synchronous calls are observed
 * (`iterate`'s generator steps later, outside).
 */
export function observeErrno<T extends object>(db: T): T {
  return wrap(db);
}
