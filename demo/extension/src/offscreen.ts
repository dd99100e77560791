/**
 * The offscreen document: where the memory lives. MV3 service workers cannot start Web Workers,
 * and the System-One model runs in one, so the service worker opens this document (reason
 * `WORKERS`) and forwards every request to it. It stays open while the browser runs, so the
 * models load once per browser session, not once per popup.
 *
 * Only `chrome.runtime` messaging is available to offscreen documents; that is all it uses.
 *
 * @module
 */
import { installDiagnostics, pushLine, WORKER_DIAGNOSTICS_CHANNEL, type DiagnosticLine } from './diagnostics.js';
import { createMemoryHost } from './host.js';
import { isEnvelopeFor, toReplyError, type ContextReport, type DiagnosticsValue, type MemoryRequest, type Reply } from './messages.js';
import { openExtensionMemory } from './open-memory.js';

const diagnostics = installDiagnostics('offscreen');

// The System-One worker reports its lines here (it has no chrome.runtime of its own).
const workerReport: ContextReport = { context: 'system-one-worker', errors: [], warnings: [], resources: [] };
new BroadcastChannel(WORKER_DIAGNOSTICS_CHANNEL).onmessage = (e: MessageEvent<DiagnosticLine>) => {
  const { list, line } = e.data;
  if ((list === 'errors' || list === 'warnings' || list === 'resources') && typeof line === 'string') pushLine(workerReport[list], line);
};

const host = createMemoryHost((timings) => openExtensionMemory({ baseURL: chrome.runtime.getURL(''), timings }));

async function answer(request: MemoryRequest): Promise<Reply> {
  try {
    if (request.type === 'diagnostics') {
      const value: DiagnosticsValue = { contexts: [diagnostics.report(), structuredClone(workerReport)] };
      return { ok: true, value };
    }
    return { ok: true, value: await host.handle(request) };
  } catch (e) {
    return { ok: false, error: toReplyError(e) };
  }
}

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !isEnvelopeFor(message, 'offscreen')) return false;
  void answer(message.request).then(sendResponse);
  return true; // the reply is sent asynchronously
});
