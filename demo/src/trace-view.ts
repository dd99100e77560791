/**
 * Renders a recall trace (src/read/trace.ts) as HTML: per view the routing probability p_g(q)
 * (eq. (11)), whether it is active (eq. (12)), the budget given b_g (eq. (14)) and used; depth
 * (eq. (15)); the stop reason (eqs. (21)-(22) or a limit); controller calls, fallbacks and limits;
 * timings; and the expansion path round by round (from → edge → to, with the score of eq. (23)).
 *
 * @module
 */
import type { RecallTrace } from 'jev-mem';
import { h } from './dom.js';
import { formatMs, formatScore, shorten } from './format.js';
import { VIEW_COLOURS, VIEW_ORDER } from './views.js';

/** Most expansions listed (the trace keeps all of them). */
const MAX_PATH = 80;

const STOP_TEXT: Record<RecallTrace['stopReason'], string> = {
  sufficient: 'sufficient evidence (s ≥ θ_suff, m and c below θ_cont)',
  'not-worth-continuing': 'not worth continuing (u < θ_cont)',
  depth: 'depth limit D reached',
  budget: 'graph budget B spent',
  'frontier-empty': 'nothing left to expand',
  'visited-limit': 'visited-node limit reached',
  'edge-limit': 'inspected-edge limit reached',
  'controller-limit': 'controller-call limit reached',
  deadline: 'deadline reached',
  aborted: 'aborted',
};

function dl(testid: string, pairs: Array<[string, string]>): HTMLDListElement {
  return h('dl', { class: 'facts', 'data-testid': testid }, ...pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/**
 * The trace as an element.
 * @param label - text of a node id for the expansion path (speaker and words), or undefined.
 */
export function renderTrace(trace: RecallTrace, label: (id: string) => string | undefined): HTMLElement {
  const active = new Set(trace.routing.active);
  const views = h(
    'table',
    { class: 'views', 'data-testid': 'trace-views' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'view'), h('th', { scope: 'col' }, 'routing p'), h('th', { scope: 'col' }, 'budget b_g'), h('th', { scope: 'col' }, 'used'))),
    h(
      'tbody',
      {},
      ...VIEW_ORDER.map((v) => {
        const p = trace.routing.p[v];
        return h(
          'tr',
          { 'data-testid': 'trace-view', 'data-view': v, 'data-active': active.has(v) },
          h('th', { scope: 'row' }, h('span', { class: 'swatch', style: `background:${VIEW_COLOURS[v]}` }), v, active.has(v) ? '' : ' (off)'),
          h(
            'td',
            { class: 'bar-cell' },
            h('span', { class: 'bar', style: `width:${Math.round(Math.max(0, Math.min(1, p)) * 100)}%;background:${VIEW_COLOURS[v]}` }),
            h('span', { class: 'bar-value', 'data-testid': 'trace-p' }, formatScore(p, 2)),
          ),
          h('td', { 'data-testid': 'trace-given' }, String(trace.budgets.given[v])),
          h('td', { 'data-testid': 'trace-used' }, String(trace.budgets.used[v])),
        );
      }),
    ),
  );
  const l = trace.limits;
  const facts = dl('trace-facts', [
    ['stop reason', STOP_TEXT[trace.stopReason] ?? trace.stopReason],
    ['controller calls', `${l.controllerCalls} of ${l.maxControllerCalls} (${trace.fallbacks} answered by the fallback)`],
    ['multi-hop h · recency r', `${formatScore(trace.routing.h, 2)} · ${formatScore(trace.routing.r, 2)}`],
    ['budget B · depth', `${trace.budgets.total} · reached ${trace.depth.reached} of ${trace.depth.max}`],
    ['visited · edges inspected', `${l.visited} of ${l.maxVisited} · ${l.edgesInspected} of ${l.maxEdgesInspected}`],
    ['anchors · expansions · K', `${trace.anchors.length} · ${trace.expansions.length} · ${trace.k}`],
  ]);
  facts.querySelectorAll('dd')[0]?.setAttribute('data-testid', 'trace-stop');
  facts.querySelectorAll('dd')[0]?.setAttribute('data-stop', trace.stopReason);
  facts.querySelectorAll('dd')[1]?.setAttribute('data-testid', 'trace-calls');
  const t = trace.timings;
  const timings = dl('trace-timings', [
    ['embed', formatMs(t.embedMs)],
    ['route', formatMs(t.routeMs)],
    ['anchors', formatMs(t.anchorsMs)],
    ['loop', formatMs(t.loopMs)],
    ['total', formatMs(t.totalMs)],
  ]);
  const name = (id: string): string => shorten(label(id) ?? id.slice(0, 8), 48);
  const path = h('ol', { class: 'path', 'data-testid': 'trace-path' });
  for (const x of trace.expansions.slice(0, MAX_PATH)) {
    const arrow = x.edge.direction === 'out' ? '→' : '←';
    path.append(
      h(
        'li',
        { 'data-testid': 'trace-step', 'data-view': x.edge.view },
        h('span', { class: 'round' }, `R${x.round}`),
        h('span', { class: 'node-ref', title: label(x.from) ?? x.from }, name(x.from)),
        h('span', { class: 'edge-ref', style: `color:${VIEW_COLOURS[x.edge.view]}` }, ` ${arrow} ${x.edge.view}/${x.edge.subtype} (π ${formatScore(x.edge.weight, 2)}) ${arrow} `),
        h('span', { class: 'node-ref', title: label(x.to) ?? x.to }, name(x.to)),
        h('span', { class: 'score' }, ` s ${formatScore(x.score)}`),
      ),
    );
  }
  if (trace.expansions.length === 0) path.append(h('li', { class: 'empty' }, 'No expansion: the anchors were enough or the loop stopped first.'));
  else if (trace.expansions.length > MAX_PATH) path.append(h('li', { class: 'empty' }, `… and ${trace.expansions.length - MAX_PATH} more`));
  const rounds = h(
    'ol',
    { class: 'rounds', 'data-testid': 'trace-rounds' },
    ...trace.rounds.map((r) =>
      h(
        'li',
        {},
        `Round ${r.round}: ${r.proposed} proposed, beam ${r.beam}`,
        r.estimates
          ? ` · s ${formatScore(r.estimates.sufficient, 2)} u ${formatScore(r.estimates.continueUseful, 2)} m ${formatScore(r.estimates.missing, 2)} c ${formatScore(r.estimates.contradiction, 2)}`
          : '',
      ),
    ),
  );
  return h(
    'div',
    { class: 'trace', 'data-testid': 'trace' },
    h('h3', {}, 'Routing and budget per view'),
    h('div', { class: 'table-scroll' }, views),
    facts,
    h('h3', {}, 'Timings'),
    timings,
    h('h3', {}, 'Expansion path'),
    rounds,
    path,
  );
}
