/**
 * A context's own report of what went wrong and what it fetched, so that a test (or a developer
 * in the popup) can check every context of the extension, the service worker and the offscreen
 * document included, which a page-level browser driver does not see.
 *
 * Recorded: uncaught errors, unhandled promise rejections, Content-Security-Policy violations
 * (a blocked `eval`, wasm compile or remote fetch shows up here), `console.error` and
 * `console.warn` lines, and every URL the context fetched (Resource Timing entries).
 *
 * @module
 */
import type { ContextReport } from './messages.js';

/** Most lines kept per list (older lines are dropped first). */
const MAX_LINES = 200;

/** BroadcastChannel on which the System-One worker sends its report lines to the offscreen document. */
export const WORKER_DIAGNOSTICS_CHANNEL = 'jev-mem-extension-diagnostics';

/** One line the worker sends on {@link WORKER_DIAGNOSTICS_CHANNEL}. */
export interface DiagnosticLine {
  list: 'errors' | 'warnings' | 'resources';
  line: string;
}

/** The live report of one context. */
export interface Diagnostics {
  /** A copy of the report so far (resource URLs read at call time). */
  report(): ContextReport;
  /** Adds a line by hand (e.g. a failure the code caught but must not hide). */
  record(list: DiagnosticLine['list'], line: string): void;
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Appends a line to a report list, cut to 2,000 characters, keeping the last {@link MAX_LINES}. */
export function pushLine(list: string[], line: string): void {
  list.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
  if (list.length > MAX_LINES) list.shift();
}

/**
 * Starts recording in this context (call it first, before other code runs). `onLine` also gets
 * every line as it is recorded (the worker forwards them to the offscreen document).
 */
export function installDiagnostics(context: ContextReport['context'], onLine?: (l: DiagnosticLine) => void): Diagnostics {
  const lists: Record<DiagnosticLine['list'], string[]> = { errors: [], warnings: [], resources: [] };
  const record = (list: DiagnosticLine['list'], line: string): void => {
    pushLine(lists[list], line);
    onLine?.({ list, line });
  };
  const scope = globalThis as unknown as EventTarget;
  scope.addEventListener('error', (e) => {
    const ev = e as ErrorEvent;
    record('errors', `uncaught ${describe(ev.error ?? ev.message)}${ev.filename ? ` (${ev.filename}:${ev.lineno})` : ''}`);
  });
  scope.addEventListener('unhandledrejection', (e) => record('errors', `unhandled rejection: ${describe((e as PromiseRejectionEvent).reason)}`));
  scope.addEventListener('securitypolicyviolation', (e) => {
    const ev = e as SecurityPolicyViolationEvent;
    record('errors', `CSP violation: ${ev.effectiveDirective} blocked ${ev.blockedURI || '(inline)'}${ev.sourceFile ? ` from ${ev.sourceFile}:${ev.lineNumber}` : ''}`);
  });
  const { error, warn } = console;
  console.error = (...args: unknown[]) => {
    record('errors', `console.error: ${args.map(describe).join(' ')}`);
    error.apply(console, args);
  };
  console.warn = (...args: unknown[]) => {
    record('warnings', `console.warn: ${args.map(describe).join(' ')}`);
    warn.apply(console, args);
  };
  // Resource Timing: every fetch, script, worker script and wasm file this context loaded.
  const seen = new Set<string>();
  const note = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    record('resources', name);
  };
  if (typeof PerformanceObserver === 'function') {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => note(entry.name))).observe({ type: 'resource', buffered: true });
    } catch {
      // No resource timing in this context: the report then lists no URLs.
    }
  }
  return {
    record,
    report() {
      performance.getEntriesByType?.('resource').forEach((entry) => note(entry.name));
      return { context, errors: [...lists.errors], warnings: [...lists.warnings], resources: [...lists.resources] };
    },
  };
}
