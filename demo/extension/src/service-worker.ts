/**
 * The extension's service worker: a thin router. It holds no memory and loads no model (MV3
 * service workers cannot start the Web Worker System One runs in, and are stopped after 30 s
 * idle). It
 * - opens the offscreen document (offscreen.html) on the first request and forwards every
 *   request from the popup to it;
 * - adds the "Save selection to memory" context-menu item and saves what it is clicked on;
 * - answers `diagnostics` with its own report in front of the offscreen document's.
 *
 * @module
 */
import { installDiagnostics } from './diagnostics.js';
import { envelope, isEnvelopeFor, toReplyError, type DiagnosticsValue, type MemoryRequest, type Reply } from './messages.js';
import { buildObservation } from './observation.js';

const diagnostics = installDiagnostics('service-worker');

const OFFSCREEN_PATH = 'offscreen.html';
const CONTEXT_MENU_ID = 'jev-mem-save-selection';

let creating: Promise<void> | undefined;

/** Opens the offscreen document unless it is open (one per extension; survives this worker's restarts). */
async function ensureOffscreen(): Promise<void> {
  const url = chrome.runtime.getURL(OFFSCREEN_PATH);
  const open = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
  if (open.length > 0) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: 'Runs the on-device memory and its System-One model in a Web Worker (service workers cannot start workers).',
    })
    .catch((e: unknown) => {
      // Two requests racing across a restart of this worker: the other one opened it.
      if (!String((e as Error)?.message ?? e).includes('Only a single offscreen')) throw e;
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

/** Sends a request to the offscreen document and returns its reply. */
async function forward(request: MemoryRequest): Promise<Reply> {
  try {
    await ensureOffscreen();
    const reply = (await chrome.runtime.sendMessage(envelope('offscreen', request))) as Reply | undefined;
    return reply ?? { ok: false, error: { code: 'EXTENSION', message: 'the offscreen document did not answer' } };
  } catch (e) {
    return { ok: false, error: toReplyError(e) };
  }
}

async function answer(request: MemoryRequest): Promise<Reply> {
  const reply = await forward(request);
  if (request.type !== 'diagnostics') return reply;
  // Diagnostics: this worker's report first, then the offscreen document's (when it answered).
  const own = diagnostics.report();
  if (!reply.ok) own.errors.push(`offscreen document: ${reply.error.message}`);
  const value: DiagnosticsValue = { contexts: [own, ...(reply.ok ? (reply.value as DiagnosticsValue).contexts : [])] };
  return { ok: true, value };
}

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !isEnvelopeFor(message, 'service-worker')) return false;
  void answer(message.request).then(sendResponse);
  return true; // the reply is sent asynchronously
});

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: CONTEXT_MENU_ID, title: 'Save selection to memory', contexts: ['selection'] });
  });
});

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId !== CONTEXT_MENU_ID || info.selectionText === undefined) return;
  void (async () => {
    let reply: Reply;
    try {
      const observation = buildObservation({
        kind: 'selection',
        text: info.selectionText ?? '',
        page: { title: tab?.title ?? '', url: info.pageUrl ?? tab?.url ?? '' },
        savedAt: new Date(),
        via: 'context-menu',
      });
      reply = await forward({ type: 'save', observation });
    } catch (e) {
      reply = { ok: false, error: toReplyError(e) };
    }
    // The badge is the only feedback a context-menu save has; a tab's badge clears on navigation.
    if (tab?.id !== undefined) {
      await chrome.action.setBadgeBackgroundColor({ color: reply.ok ? '#2f6f4f' : '#a33', tabId: tab.id });
      await chrome.action.setBadgeText({ text: reply.ok ? '✓' : '!', tabId: tab.id });
    }
    if (!reply.ok) diagnostics.record('warnings', `context-menu save failed: ${reply.error.message}`);
  })();
});
