/**
 * Installs the diagnostics of the System-One worker (imported before the worker entry, so that
 * it sees everything the entry does) and forwards each line to the offscreen document.
 *
 * @module
 */
import { installDiagnostics, WORKER_DIAGNOSTICS_CHANNEL } from './diagnostics.js';

const channel = new BroadcastChannel(WORKER_DIAGNOSTICS_CHANNEL);
installDiagnostics('system-one-worker', (line) => channel.postMessage(line));
