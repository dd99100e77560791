/**
 * The import pane: a conversation file (LoCoMo JSON or JSONL) goes through `memory.addMany` with
 * `onProgress` and an `AbortSignal`. The progress bar shows turns done, turns per second and the
 * time left; Cancel stops after the chunk being written (chunks already written stay, as
 * `addMany` documents). The status element carries `data-state` (`idle`, `ready`, `running`,
 * `done`, `cancelled`, `failed`) and, when done, `data-turns-per-second`.
 *
 * @module
 */
import { isJevMemError } from 'jev-mem';
import type { App } from './app.js';
import { readConversationFile, type ConversationFile } from './conversation-file.js';
import { h, pane } from './dom.js';
import { formatDuration } from './format.js';

/** Observations per atomic commit: small enough for a smooth bar, large enough to batch the models. */
const CHUNK = 16;

/** Mounts the import pane into `root`. */
export function mountImport(root: HTMLElement, app: App): void {
  const file = h('input', { type: 'file', accept: '.json,.jsonl,application/json', 'data-testid': 'import-file', 'aria-label': 'Conversation file' });
  const pick = h('select', { 'data-testid': 'import-conversation', 'aria-label': 'Conversation', disabled: true });
  const start = h('button', { type: 'button', 'data-testid': 'import-start', disabled: true }, 'Import');
  const cancel = h('button', { type: 'button', 'data-testid': 'import-cancel', disabled: true }, 'Cancel');
  const bar = h('progress', { 'data-testid': 'import-progress', max: 1, value: 0 });
  const status = h('p', { class: 'status', 'data-testid': 'import-status', 'data-state': 'idle', 'aria-live': 'polite' }, 'Pick a LoCoMo .json or a .jsonl file.');
  root.append(
    pane(
      'import',
      'Import a conversation',
      h('div', { class: 'row' }, file),
      h('div', { class: 'row' }, pick, start, cancel),
      bar,
      status,
    ),
  );

  let parsed: ConversationFile | undefined;
  let running: AbortController | undefined;
  const setStatus = (state: string, text: string): void => {
    status.dataset.state = state;
    status.textContent = text;
  };

  file.addEventListener('change', () => {
    const f = file.files?.[0];
    parsed = undefined;
    pick.replaceChildren();
    pick.disabled = true;
    start.disabled = true;
    if (f === undefined) return;
    setStatus('reading', `Reading ${f.name}…`);
    f.text()
      .then((text) => {
        parsed = readConversationFile(f.name, text);
        for (const c of parsed.conversations) pick.append(h('option', { value: c.id }, c.label));
        if (parsed.conversations.length > 1) {
          const total = parsed.conversations.reduce((n, c) => n + c.observations.length, 0);
          pick.append(h('option', { value: '*' }, `all ${parsed.conversations.length} conversations, ${total} turns`));
        }
        pick.disabled = false;
        start.disabled = false;
        setStatus('ready', `${parsed.format === 'locomo' ? 'LoCoMo' : 'JSONL'} file with ${parsed.conversations.length} conversation(s). Choose one and press Import.`);
      })
      .catch((e: unknown) => {
        setStatus('failed', 'This file cannot be read.');
        app.report(e, `Reading ${f.name} failed`);
      });
  });

  start.addEventListener('click', () => {
    if (parsed === undefined) return;
    const chosen = pick.value === '*' ? parsed.conversations : parsed.conversations.filter((c) => c.id === pick.value);
    const observations = chosen.flatMap((c) => c.observations);
    const controller = new AbortController();
    running = controller;
    start.disabled = true;
    file.disabled = true;
    cancel.disabled = false;
    bar.max = observations.length;
    bar.value = 0;
    let done = 0;
    const t0 = performance.now();
    setStatus('running', `0 / ${observations.length} turns…`);
    app.memory
      .addMany(observations, {
        signal: controller.signal,
        chunkSize: CHUNK,
        onProgress: (p) => {
          done = p.done;
          bar.value = p.done;
          const left = p.perSecond > 0 ? (p.total - p.done) / p.perSecond : Number.NaN;
          setStatus('running', `${p.done} / ${p.total} turns · ${p.perSecond.toFixed(1)} turns/s · ${formatDuration(left)} left`);
        },
      })
      .then(
        (results) => {
          const seconds = (performance.now() - t0) / 1000;
          const rate = results.length / seconds;
          status.dataset.turnsPerSecond = rate.toFixed(1);
          setStatus('done', `Imported ${results.length} turns in ${formatDuration(seconds)} (${rate.toFixed(1)} turns/s).`);
        },
        (e: unknown) => {
          if (isJevMemError(e, 'ABORTED')) {
            const committed = typeof e.details.committed === 'number' ? e.details.committed : done;
            setStatus('cancelled', `Cancelled: ${committed} of ${observations.length} turns were stored.`);
          } else {
            setStatus('failed', `Import stopped after ${done} of ${observations.length} turns.`);
            app.report(e, 'Import failed');
          }
        },
      )
      .finally(() => {
        running = undefined;
        start.disabled = false;
        file.disabled = false;
        cancel.disabled = true;
        app.changed();
      });
  });

  cancel.addEventListener('click', () => {
    running?.abort();
    cancel.disabled = true;
  });
  app.on('closing', () => running?.abort());
}
