/**
 * The chat pane: every message, the user's and the assistant's, is written to memory with its
 * time (`memory.add`, source `chat`). With System Two configured the assistant answers from
 * memory (`memory.answer`); without it the message is stored and the pane says so. After a
 * reload the log is rebuilt from memory itself (the `chat` nodes of the namespace).
 *
 * @module
 */
import type { MemoryNode, Observation } from 'jev-mem';
import type { App } from './app.js';
import { h, pane } from './dom.js';
import { formatTime } from './format.js';

/** Provenance `source` of chat messages. */
export const CHAT_SOURCE = 'chat';
/** How many stored messages the log shows after a reload. */
const HISTORY = 200;

type Role = 'user' | 'assistant';

/** One chat session per calendar day (UTC), so a day's messages are linked in time. */
function sessionOf(d: Date): string {
  return `chat-${d.toISOString().slice(0, 10)}`;
}

/** Mounts the chat pane into `root`. */
export function mountChat(root: HTMLElement, app: App): void {
  const log = h('ol', { class: 'chat-log', 'data-testid': 'chat-log', 'aria-live': 'polite' });
  const input = h('textarea', { rows: 2, 'data-testid': 'chat-input', placeholder: 'Write a message…', 'aria-label': 'Message', required: true });
  const send = h('button', { type: 'submit', 'data-testid': 'chat-send' }, 'Send');
  const hint = h('p', { class: 'hint', 'data-testid': 'chat-hint' });
  const form = h('form', { class: 'chat-form' }, input, send);
  root.append(pane('chat', 'Chat', log, form, hint));

  const entry = (role: Role, text: string, at: string | undefined, note?: string): HTMLLIElement =>
    h(
      'li',
      { class: `msg msg-${role}`, 'data-testid': 'chat-message', 'data-role': role },
      h('span', { class: 'msg-meta' }, `${role === 'user' ? 'You' : 'Assistant'} · `, h('time', { datetime: at ?? '' }, formatTime(at))),
      h('span', { class: 'msg-text' }, text),
      note ? h('span', { class: 'msg-note', 'data-testid': 'chat-note' }, note) : null,
    );

  const showHint = (): void => {
    hint.textContent = app.systemTwoReady
      ? `Answers come from System Two (${app.settings.systemTwoModel}) with your memories as evidence.`
      : 'System Two is not configured: messages are stored in memory and nothing leaves this page. Use “Ask memory” to recall them.';
  };

  // `aria-busy` while the log is rebuilt; `data-loaded` once it shows what memory holds (tests
  // and assistive technology wait for it: the rebuild ends after the memory reports ready).
  const loadHistory = async (): Promise<void> => {
    log.setAttribute('aria-busy', 'true');
    delete log.dataset.loaded;
    log.replaceChildren();
    showHint();
    try {
      const data = await app.memory.export();
      const chat = (data.nodes as MemoryNode[]).filter((n) => n.provenance.source === CHAT_SOURCE).slice(-HISTORY);
      for (const n of chat) log.append(entry(n.provenance.speaker === 'assistant' ? 'assistant' : 'user', n.text, n.observedAt));
      log.scrollTop = log.scrollHeight;
      log.dataset.loaded = 'true';
    } finally {
      log.removeAttribute('aria-busy');
    }
  };

  const write = async (role: Role, text: string, at: Date): Promise<string> => {
    const o: Observation = { text, observedAt: at, speaker: role, source: CHAT_SOURCE, sessionId: sessionOf(at) };
    const r = await app.memory.add(o);
    app.changed();
    return r.deduplicated ? 'stored (same as an earlier message)' : `stored · ${r.edges} edge${r.edges === 1 ? '' : 's'}`;
  };

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (text === '') return;
    input.value = '';
    send.disabled = true;
    void (async () => {
      const at = new Date();
      const item = entry('user', text, at.toISOString());
      log.append(item);
      log.scrollTop = log.scrollHeight;
      try {
        const note = await write('user', text, at);
        item.append(h('span', { class: 'msg-note', 'data-testid': 'chat-note' }, note));
        item.dataset.stored = 'true';
        if (app.systemTwoReady) {
          const reply = await app.memory.answer(text, { now: at });
          const replyAt = new Date();
          const answerItem = entry('assistant', reply.text, replyAt.toISOString());
          log.append(answerItem);
          log.scrollTop = log.scrollHeight;
          answerItem.append(h('span', { class: 'msg-note', 'data-testid': 'chat-note' }, await write('assistant', reply.text, replyAt)));
          answerItem.dataset.stored = 'true';
        }
      } catch (e) {
        app.report(e, 'The message could not be handled');
      } finally {
        send.disabled = false;
      }
    })();
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });

  app.on('cleared', () => log.replaceChildren());
  app.on('opened', () => {
    loadHistory().catch((e: unknown) => app.report(e, 'Reading the chat history failed'));
  });
}
