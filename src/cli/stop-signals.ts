/**
 * The signals that stop a long CLI write (`ingest`, `import`) the way Ctrl-C does (issue 22:
 * SIGTERM from a service manager or `kill`, SIGHUP from a closed terminal, ended the process
 * at once with exit 143, the lock left and nothing said): the first of SIGINT, SIGTERM or SIGHUP
 * asks the write to stop at its next safe point; the command then says what was committed,
 * releases the store and exits with 128 + the signal's number (130, 143, 129). The listeners
 * are removed at the first signal, so a second one ends the process at once.
 *
 * @module
 */
import { constants } from 'node:os';

/** The signals handled, in the order their names are listed. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** What {@link onStopSignal} hands back. */
export interface StopListener {
  /** The signal received first, once one was. */
  readonly signal: StopSignal | undefined;
  /** The exit code for it: 128 + its number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP); 130 before any. */
  readonly exitCode: number;
  /** Removes the listeners (call in a `finally`). */
  off(): void;
}

/** How the message names a signal: `Ctrl-C` for SIGINT, else its name. */
export function signalWords(signal: StopSignal | undefined): string {
  return signal === undefined || signal === 'SIGINT' ? 'Ctrl-C' : signal;
}

/**
 * Listens for the first of {@link STOP_SIGNALS}; calls `stop(signal)` once.
 */
export function onStopSignal(stop: (signal: StopSignal) => void): StopListener {
  let got: StopSignal | undefined;
  const handlers = new Map<StopSignal, () => void>();
  const off = (): void => {
    for (const [s, h] of handlers) process.off(s, h);
    handlers.clear();
  };
  for (const s of STOP_SIGNALS) {
    const h = (): void => {
      got = s;
      off(); // a second signal ends the process at once
      stop(s);
    };
    handlers.set(s, h);
    process.once(s, h);
  }
  return {
    get signal() {
      return got;
    },
    get exitCode() {
      return 128 + (constants.signals[got ?? 'SIGINT'] ?? 2);
    },
    off,
  };
}
