/**
 * The ask pane: `memory.recall` (or `memory.answer` when System Two is configured) for a
 * question; shows the answer, the recalled memories with speaker, time and score, the recall
 * latency measured in the page, and fills the trace and graph panes. The status element carries
 * `data-state` (`running`, `done`, `failed`), `data-rendered` once trace and graph are drawn,
 * `data-answered` (questions finished so far), and `data-ms` / `data-recall-ms` (latency in the
 * page, and the trace's own total).
 *
 * @module
 */
import type { RecallResult } from 'jev-mem';
import type { App } from './app.js';
import { h, pane } from './dom.js';
import { formatMs, formatScore, formatTime } from './format.js';
import { collectGraph } from './graph-data.js';
import { renderGraph } from './graph-view.js';
import { renderTrace } from './trace-view.js';

/** Mounts the ask pane into `root`; the trace and the graph go into `traceRoot` and `graphRoot`. */
export function mountAsk(root: HTMLElement, traceRoot: HTMLElement, graphRoot: HTMLElement, app: App): void {
  const input = h('input', { type: 'search', 'data-testid': 'ask-input', placeholder: 'Ask your memory…', 'aria-label': 'Question', required: true });
  const show = h(
    'select',
    { 'data-testid': 'ask-show', 'aria-label': 'Memories shown' },
    ...[5, 10, 20, 40].map((k) => h('option', { value: k, selected: k === 10 }, `top ${k}`)),
  );
  const button = h('button', { type: 'submit', 'data-testid': 'ask-submit' }, 'Ask');
  const latency = h('p', { class: 'status', 'data-testid': 'ask-status', 'data-state': 'idle', 'aria-live': 'polite' });
  const answer = h('div', { class: 'answer', 'data-testid': 'ask-answer', hidden: true });
  const results = h('ol', { class: 'results', 'data-testid': 'results' });
  const form = h('form', { class: 'row' }, input, show, button);
  root.append(pane('ask', 'Ask memory', form, latency, answer, results));
  const traceBody = h('div', { 'data-testid': 'trace-host' }, h('p', { class: 'hint' }, 'Ask a question to see how the memory found its answer.'));
  const graphBody = h('div', { 'data-testid': 'graph-host' }, h('p', { class: 'hint' }, 'The nodes and typed edges around the result appear here.'));
  traceRoot.append(pane('trace', 'Trace', traceBody));
  graphRoot.append(pane('graph', 'Graph', graphBody));

  let last: RecallResult | undefined;
  let seq = 0;
  /** Questions finished (answered or failed), as `data-answered` on the status: tests wait for it to grow. */
  let answered = 0;

  const renderResults = (r: RecallResult): void => {
    const k = Number(show.value);
    results.replaceChildren(
      ...r.memories.slice(0, k).map((m, i) =>
        h(
          'li',
          { class: 'result', 'data-testid': 'result', 'data-id': m.id, 'data-score': m.score.toFixed(6) },
          h(
            'div',
            { class: 'result-meta' },
            h('span', { class: 'rank' }, `#${i + 1}`),
            h('span', { class: 'score', title: 'score of eq. (23), on [0,1]' }, formatScore(m.score)),
            h('span', { class: 'speaker', 'data-testid': 'result-speaker' }, m.provenance.speaker ?? 'unknown speaker'),
            h('time', { datetime: m.observedAt ?? '', 'data-testid': 'result-time' }, formatTime(m.observedAt)),
            m.provenance.turnId ? h('span', { class: 'turn' }, m.provenance.turnId) : null,
            m.status === 'superseded' ? h('span', { class: 'badge' }, 'superseded') : null,
          ),
          h('p', { class: 'result-text', 'data-testid': 'result-text' }, m.text),
        ),
      ),
    );
    if (r.memories.length === 0) results.append(h('li', { class: 'empty' }, 'Nothing recalled: the memory is empty or nothing matches.'));
  };

  const renderAround = async (r: RecallResult, mine: number): Promise<void> => {
    const texts = new Map<string, string>();
    for (const m of r.memories) texts.set(m.id, m.text);
    const ids = new Set(r.trace.expansions.flatMap((x) => [x.from, x.to]).filter((id) => !texts.has(id)));
    for (const id of ids) {
      const n = await app.memory.get(id);
      if (n) texts.set(id, n.text);
    }
    if (mine !== seq) return;
    traceBody.replaceChildren(renderTrace(r.trace, (id) => texts.get(id)));
    const data = await collectGraph(app.memory, r, { results: Number(show.value) });
    if (mine !== seq) return;
    graphBody.replaceChildren(renderGraph(data));
  };

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = input.value.trim();
    if (q === '') return;
    const mine = ++seq;
    button.disabled = true;
    latency.dataset.state = 'running';
    delete latency.dataset.rendered;
    latency.textContent = app.systemTwoReady ? 'Recalling and asking System Two…' : 'Recalling…';
    answer.hidden = true;
    void (async () => {
      try {
        const t0 = performance.now();
        let r: RecallResult;
        let note = '';
        if (app.systemTwoReady) {
          const a = await app.memory.answer(q, { now: new Date() });
          r = a;
          answer.replaceChildren(h('p', { 'data-testid': 'answer-text' }, a.text), h('p', { class: 'hint' }, `System Two: ${a.systemTwo.model}, ${formatMs(a.systemTwo.latencyMs)}${a.systemTwo.usage ? `, ${a.systemTwo.usage.totalTokens} tokens` : ''}.`));
          answer.hidden = false;
          note = ` + System Two ${formatMs(a.systemTwo.latencyMs)}`;
        } else {
          r = await app.memory.recall(q);
        }
        const ms = performance.now() - t0;
        if (mine !== seq) return;
        last = r;
        const t = r.trace.timings;
        latency.dataset.state = 'done';
        latency.dataset.ms = ms.toFixed(1);
        latency.dataset.recallMs = t.totalMs.toFixed(1);
        latency.textContent =
          `${r.memories.length} memories in ${formatMs(ms)} in this page${note} ` +
          `(recall ${formatMs(t.totalMs)}: embed ${formatMs(t.embedMs)}, route ${formatMs(t.routeMs)}, anchors ${formatMs(t.anchorsMs)}, loop ${formatMs(t.loopMs)}).` +
          (app.systemTwoReady ? '' : ' System Two is not configured: no answer is written, only recall.');
        renderResults(r);
        await renderAround(r, mine);
        if (mine === seq) {
          latency.dataset.rendered = 'true';
          latency.dataset.answered = String(++answered);
        }
      } catch (e) {
        if (mine !== seq) return;
        latency.dataset.state = 'failed';
        latency.dataset.answered = String(++answered);
        latency.textContent = 'The question failed.';
        app.report(e, 'Ask failed');
      } finally {
        if (mine === seq) button.disabled = false;
      }
    })();
  });

  show.addEventListener('change', () => {
    if (last === undefined) return;
    const mine = ++seq;
    renderResults(last);
    renderAround(last, mine).catch((e: unknown) => app.report(e, 'Drawing the graph failed'));
  });

  const reset = (): void => {
    seq++;
    last = undefined;
    results.replaceChildren();
    answer.hidden = true;
    latency.dataset.state = 'idle';
    latency.textContent = '';
    traceBody.replaceChildren(h('p', { class: 'hint' }, 'Ask a question to see how the memory found its answer.'));
    graphBody.replaceChildren(h('p', { class: 'hint' }, 'The nodes and typed edges around the result appear here.'));
  };
  app.on('opened', reset);
  app.on('cleared', reset);
}
