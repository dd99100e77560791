/**
 * The popup: save the selection or a note from the current tab (with its title and URL as
 * provenance and the time of the save), ask a question and see the recalled memories with their
 * trace. It holds no memory itself: every request goes to the service worker, which forwards it
 * to the offscreen document. Page state is mirrored in `data-*` attributes (tests wait on them).
 *
 * @module
 */
import type { RecalledMemory } from '../../../src/types.js';
import { installDiagnostics } from './diagnostics.js';
import { envelope, type ForgetValue, type MemoryRequest, type RecallValue, type Reply, type ReplyError, type SaveValue, type StatusValue } from './messages.js';
import { buildObservation, pageOf, provenanceURL, type PageRef } from './observation.js';
import { explainMemory, fixed, partsLine, summarizeTrace } from './trace-explain.js';

installDiagnostics('popup');

/** A failed request, with the reply's error. */
class RequestFailed extends Error {
  constructor(readonly error: ReplyError) {
    super(error.message);
  }
}

/** Sends a request through the service worker and returns the reply's value. */
async function send<T>(request: MemoryRequest): Promise<T> {
  const reply = (await chrome.runtime.sendMessage(envelope('service-worker', request))) as Reply<T> | undefined;
  if (reply === undefined) throw new RequestFailed({ code: 'EXTENSION', message: 'the service worker did not answer' });
  if (!reply.ok) throw new RequestFailed(reply.error);
  return reply.value;
}

function el<T extends HTMLElement>(testid: string): T {
  const found = document.querySelector<T>(`[data-testid="${testid}"]`);
  if (found === null) throw new Error(`popup.html has no [data-testid="${testid}"]`);
  return found;
}

const ui = {
  state: el('memory-state'),
  alert: el('alert'),
  page: el('page'),
  selectionBox: el('selection-box'),
  selection: el('selection'),
  saveSelection: el<HTMLButtonElement>('save-selection'),
  noteForm: el<HTMLFormElement>('note-form'),
  note: el<HTMLTextAreaElement>('note-input'),
  attach: el<HTMLInputElement>('attach-page'),
  attachLabel: el('attach-label'),
  saveNote: el<HTMLButtonElement>('save-note'),
  saveStatus: el('save-status'),
  askForm: el<HTMLFormElement>('ask-form'),
  ask: el<HTMLInputElement>('ask-input'),
  askSubmit: el<HTMLButtonElement>('ask-submit'),
  askStatus: el('ask-status'),
  results: el<HTMLOListElement>('results'),
  trace: el<HTMLDetailsElement>('trace'),
  traceLines: el<HTMLUListElement>('trace-lines'),
  stats: el('memory-stats'),
};

let ready = false;
let busy = false;
let page: PageRef | undefined;
let selectionText = '';
let saved = 0;

function showAlert(message: string | undefined): void {
  ui.alert.hidden = message === undefined;
  ui.alert.textContent = message ?? '';
}

function messageOf(e: unknown): string {
  if (e instanceof RequestFailed) return `${e.error.message}${e.error.code !== 'EXTENSION' ? ` (${e.error.code})` : ''}`;
  return e instanceof Error ? e.message : String(e);
}

function showNodes(nodes: number | undefined): void {
  if (nodes === undefined) return;
  ui.stats.dataset.nodes = String(nodes);
  ui.stats.textContent = `${nodes} ${nodes === 1 ? 'memory' : 'memories'}`;
}

function refreshButtons(): void {
  ui.saveNote.disabled = !ready || busy || ui.note.value.trim() === '';
  ui.saveSelection.disabled = !ready || busy || selectionText.trim() === '';
  ui.askSubmit.disabled = !ready || busy || ui.ask.value.trim() === '';
}

function showStatus(status: StatusValue): void {
  document.body.dataset.state = status.state;
  ready = status.state === 'ready';
  if (status.state === 'loading') ui.state.textContent = 'Loading models…';
  if (status.state === 'failed') {
    ui.state.textContent = 'Unavailable';
    showAlert(`The memory could not be opened: ${status.error?.message ?? 'unknown error'}`);
  }
  if (status.state === 'ready') {
    ui.state.textContent = 'Ready';
    ui.state.title = `System One ${status.systemOne?.modelId ?? ''} (${status.systemOne?.engine ?? ''}${status.systemOne?.executionProviders.length ? `: ${status.systemOne.executionProviders.join(', ')}` : ''}); encoder ${status.encoder ?? ''}`;
    if (status.timings.readyMs !== undefined) document.body.dataset.readyMs = fixed(status.timings.readyMs, 0);
  }
  showNodes(status.nodes);
  refreshButtons();
}

/** The active tab of this window, when it is a web page (not this popup opened as a tab). */
async function activePage(): Promise<{ page: PageRef; tabId: number } | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  // tab.url and tab.title are visible through activeTab once the user clicked the toolbar icon.
  if (tab?.id === undefined || provenanceURL(tab.url) === undefined) return undefined;
  return { page: { title: tab.title ?? '', url: tab.url ?? '' }, tabId: tab.id };
}

/** The tab's selected text (all frames), or '' when the page cannot be scripted (chrome://, the Web Store, PDFs). */
async function selectionOf(tabId: number): Promise<string> {
  try {
    const results = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: () => globalThis.getSelection?.()?.toString() ?? '' });
    return results.map((r) => (typeof r.result === 'string' ? r.result : '')).find((s) => s.trim() !== '') ?? '';
  } catch {
    return '';
  }
}

async function loadPage(): Promise<void> {
  const found = await activePage().catch(() => undefined);
  if (found === undefined) return;
  page = found.page;
  ui.page.textContent = page.title !== '' ? page.title : page.url;
  ui.page.title = page.url;
  ui.attach.checked = true;
  ui.attachLabel.hidden = false;
  selectionText = await selectionOf(found.tabId);
  ui.selectionBox.hidden = selectionText.trim() === '';
  ui.selection.textContent = selectionText;
  refreshButtons();
}

async function save(kind: 'note' | 'selection'): Promise<void> {
  const text = kind === 'note' ? ui.note.value : selectionText;
  const withPage = kind === 'selection' || ui.attach.checked;
  busy = true;
  refreshButtons();
  ui.saveStatus.dataset.state = 'saving';
  ui.saveStatus.textContent = 'Saving…';
  try {
    const observation = buildObservation({ kind, text, ...(withPage && page !== undefined ? { page } : {}), savedAt: new Date(), via: 'popup' });
    const result = await send<SaveValue>({ type: 'save', observation });
    saved += 1;
    ui.saveStatus.dataset.saved = String(saved);
    ui.saveStatus.dataset.id = result.id;
    ui.saveStatus.dataset.state = 'saved';
    ui.saveStatus.textContent = result.deduplicated
      ? 'Already saved: kept once.'
      : `Saved${result.edges > 0 ? `, linked ${result.edges} time${result.edges === 1 ? '' : 's'} to other memories` : ''}.`;
    if (kind === 'note') ui.note.value = '';
    showNodes(result.nodes);
    showAlert(undefined);
  } catch (e) {
    ui.saveStatus.dataset.state = 'failed';
    ui.saveStatus.textContent = 'Not saved.';
    showAlert(messageOf(e));
  } finally {
    busy = false;
    refreshButtons();
  }
}

function timeOf(iso: string | undefined): string {
  if (iso === undefined) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function renderMemory(m: RecalledMemory, value: RecallValue, textOf: (id: string) => string | undefined): HTMLLIElement {
  const li = document.createElement('li');
  li.dataset.testid = 'result';
  li.dataset.id = m.id;
  li.dataset.score = fixed(m.score, 3);
  const text = document.createElement('div');
  text.className = 'result-text';
  text.dataset.testid = 'result-text';
  text.textContent = m.text;
  const meta = document.createElement('div');
  meta.className = 'result-meta';
  const score = document.createElement('span');
  score.className = 'score';
  score.textContent = fixed(m.score);
  score.title = 'Score on [0, 1] (eq. (23))';
  const time = document.createElement('time');
  time.dataset.testid = 'result-time';
  if (m.observedAt !== undefined) time.dateTime = m.observedAt;
  time.textContent = timeOf(m.observedAt);
  meta.append(score, time);
  const from = pageOf(m.provenance);
  if (from !== undefined) {
    const a = document.createElement('a');
    a.dataset.testid = 'result-page';
    a.href = from.url;
    a.target = '_blank';
    a.rel = 'noreferrer';
    a.textContent = from.title ?? from.url;
    a.title = from.url;
    meta.append(a);
  } else if (m.provenance.source !== undefined) {
    const s = document.createElement('span');
    s.textContent = m.provenance.source;
    meta.append(s);
  }
  const forget = document.createElement('button');
  forget.type = 'button';
  forget.className = 'quiet';
  forget.dataset.testid = 'result-forget';
  forget.textContent = 'Forget';
  forget.addEventListener('click', () => void forgetMemory(m.id, li));
  meta.append(forget);
  const why = document.createElement('details');
  why.className = 'why';
  why.dataset.testid = 'result-why';
  const summary = document.createElement('summary');
  const explained = explainMemory(value.trace, m.id, textOf);
  why.dataset.how = explained.how;
  summary.textContent = explained.text;
  why.append(summary);
  if (explained.parts !== undefined) {
    const parts = document.createElement('div');
    parts.textContent = partsLine(explained.parts);
    why.append(parts);
  }
  li.append(text, meta, why);
  return li;
}

async function forgetMemory(id: string, li: HTMLLIElement): Promise<void> {
  try {
    const result = await send<ForgetValue>({ type: 'forget', id });
    li.remove();
    showNodes(result.nodes);
  } catch (e) {
    showAlert(messageOf(e));
  }
}

async function recall(): Promise<void> {
  const query = ui.ask.value.trim();
  if (query === '') return;
  busy = true;
  refreshButtons();
  ui.askStatus.dataset.state = 'recalling';
  ui.askStatus.textContent = 'Recalling…';
  ui.results.replaceChildren();
  ui.trace.hidden = true;
  try {
    const value = await send<RecallValue>({ type: 'recall', query });
    const texts = new Map(value.memories.map((m) => [m.id, m.text]));
    ui.results.replaceChildren(...value.memories.map((m) => renderMemory(m, value, (id) => texts.get(id))));
    ui.traceLines.replaceChildren(
      ...summarizeTrace(value.trace).map((line) => {
        const li = document.createElement('li');
        li.textContent = line;
        return li;
      }),
    );
    ui.trace.hidden = false;
    ui.askStatus.dataset.state = 'done';
    ui.askStatus.dataset.ms = fixed(value.ms, 1);
    ui.askStatus.dataset.count = String(value.memories.length);
    ui.askStatus.textContent = value.memories.length === 0 ? 'Nothing recalled yet.' : `${value.memories.length} recalled in ${fixed(value.ms, 0)} ms.`;
    showAlert(undefined);
  } catch (e) {
    ui.askStatus.dataset.state = 'failed';
    ui.askStatus.textContent = '';
    showAlert(messageOf(e));
  } finally {
    busy = false;
    refreshButtons();
  }
}

ui.note.addEventListener('input', refreshButtons);
ui.ask.addEventListener('input', refreshButtons);
ui.noteForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void save('note');
});
ui.saveSelection.addEventListener('click', () => void save('selection'));
ui.askForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void recall();
});

async function start(): Promise<void> {
  void loadPage();
  try {
    showStatus(await send<StatusValue>({ type: 'status' })); // opens the memory; answers at once
    if (!ready) showStatus(await send<StatusValue>({ type: 'status', wait: true }));
  } catch (e) {
    showStatus({ state: 'failed', timings: {}, error: { code: 'EXTENSION', message: messageOf(e) } });
  }
}

void start();
