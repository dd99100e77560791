/**
 * Draws {@link GraphData} as SVG: edges coloured by view (thicker where the expansion path went),
 * results as dark numbered dots, path nodes mid-grey, neighbours light; a legend whose boxes hide
 * or show each view; hovering or focusing a node shows its speaker, time and text. Layout:
 * force-layout.ts (deterministic).
 *
 * @module
 */
import type { View } from 'jev-mem';
import { h, s } from './dom.js';
import { forceLayout, bounds, type LayoutLink } from './force-layout.js';
import { formatScore, formatTime, shorten } from './format.js';
import type { GraphData, GraphNode } from './graph-data.js';
import { VIEW_COLOURS, VIEW_ORDER } from './views.js';

/** Node radius per role, in pixels of a drawing 450 px across. */
const RADIUS: Record<GraphNode['role'], number> = { result: 7, path: 5, neighbour: 3.5 };
/** Spring strength per view: structure edges hold tighter than weak temporal ones. */
const LINK_STRENGTH: Record<View, number> = { entity: 1, causal: 1, semantic: 0.8, temporal: 0.5 };

/** Renders the graph into a new element (legend, summary, SVG, tooltip). */
export function renderGraph(data: GraphData): HTMLElement {
  const index = new Map(data.nodes.map((n, i) => [n.id, i]));
  const links: LayoutLink[] = data.edges.map((e) => [index.get(e.from) as number, index.get(e.to) as number, LINK_STRENGTH[e.view]]);
  const pos = forceLayout(data.nodes.length, links);
  const [minX, minY, maxX, maxY] = bounds(pos);
  // At least 160 units across, so a graph of a few nodes is not blown up.
  const w = Math.max(160, maxX - minX);
  const hgt = Math.max(160, maxY - minY);
  // Layout units per "pixel": radii and padding scale with the drawing, so they look the same at any size.
  const unit = Math.max(w, hgt) / 450;
  const pad = 16 * unit;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const svg = s('svg', {
    class: 'graph',
    'data-testid': 'graph-svg',
    viewBox: `${cx - w / 2 - pad} ${cy - hgt / 2 - pad} ${w + 2 * pad} ${hgt + 2 * pad}`,
    role: 'img',
    'aria-label': `Memory graph: ${data.nodes.length} nodes, ${data.edges.length} edges`,
  });
  const edgeLayer = s('g', { class: 'edges' });
  const nodeLayer = s('g', { class: 'nodes' });
  svg.append(edgeLayer, nodeLayer);
  const x = (i: number): number => pos[2 * i] as number;
  const y = (i: number): number => pos[2 * i + 1] as number;
  // Path edges drawn last so they sit on top.
  for (const e of [...data.edges].sort((a, b) => Number(a.onPath) - Number(b.onPath))) {
    const a = index.get(e.from) as number;
    const b = index.get(e.to) as number;
    edgeLayer.append(
      s(
        'line',
        {
          class: `edge${e.onPath ? ' on-path' : ''}`,
          'data-testid': 'graph-edge',
          'data-view': e.view,
          x1: x(a).toFixed(1),
          y1: y(a).toFixed(1),
          x2: x(b).toFixed(1),
          y2: y(b).toFixed(1),
          stroke: VIEW_COLOURS[e.view],
          'stroke-width': e.onPath ? 2.5 : 1,
        },
        s('title', {}, `${e.view}/${e.subtype} · π ${formatScore(e.weight, 2)}${e.onPath ? ' · on the expansion path' : ''}`),
      ),
    );
  }
  const tip = h('div', { class: 'graph-tip', 'data-testid': 'graph-tooltip', role: 'status', hidden: true });
  const show = (n: GraphNode, el: SVGElement): void => {
    tip.replaceChildren(
      h('strong', {}, `${n.rank !== undefined ? `#${n.rank} · ` : ''}${n.speaker ?? 'unknown speaker'} · ${formatTime(n.observedAt)}${n.score !== undefined ? ` · score ${formatScore(n.score)}` : ''}`),
      h('span', {}, shorten(n.text, 280)),
    );
    tip.hidden = false;
    const box = el.getBoundingClientRect();
    const host = tip.parentElement?.getBoundingClientRect();
    if (host) {
      const left = Math.min(Math.max(0, box.left - host.left + box.width / 2 - 140), Math.max(0, host.width - 280));
      tip.style.left = `${left}px`;
      tip.style.top = `${box.bottom - host.top + 6}px`;
    }
  };
  const hide = (): void => {
    tip.hidden = true;
  };
  data.nodes.forEach((n, i) => {
    const r = RADIUS[n.role] * unit;
    const g = s('g', { class: `node node-${n.role}`, 'data-testid': 'graph-node', 'data-id': n.id, 'data-role': n.role, tabindex: 0 });
    g.append(s('circle', { cx: x(i).toFixed(1), cy: y(i).toFixed(1), r: r.toFixed(2) }), s('title', {}, `${n.speaker ? `${n.speaker}: ` : ''}${shorten(n.text, 200)}`));
    if (n.rank !== undefined && n.rank <= 10) {
      g.append(s('text', { x: x(i).toFixed(1), y: (y(i) + r * 0.38).toFixed(1), 'font-size': (r * 1.1).toFixed(2), 'text-anchor': 'middle' }, String(n.rank)));
    }
    g.addEventListener('pointerenter', () => show(n, g));
    g.addEventListener('focus', () => show(n, g));
    g.addEventListener('pointerleave', hide);
    g.addEventListener('blur', hide);
    nodeLayer.append(g);
  });

  const counts: Record<View, number> = { semantic: 0, temporal: 0, causal: 0, entity: 0 };
  for (const e of data.edges) counts[e.view]++;
  const legend = h(
    'div',
    { class: 'legend', 'data-testid': 'graph-legend' },
    ...VIEW_ORDER.map((v) => {
      const box = h('input', { type: 'checkbox', checked: true, 'data-view': v, 'aria-label': `show ${v} edges` });
      box.addEventListener('change', () => svg.classList.toggle(`hide-${v}`, !box.checked));
      return h('label', { class: 'legend-item' }, box, h('span', { class: 'swatch', style: `background:${VIEW_COLOURS[v]}` }), `${v} (${counts[v]})`);
    }),
    h('span', { class: 'legend-item' }, h('span', { class: 'dot dot-result' }), 'result'),
    h('span', { class: 'legend-item' }, h('span', { class: 'dot dot-path' }), 'path'),
    h('span', { class: 'legend-item' }, h('span', { class: 'dot dot-neighbour' }), 'neighbour'),
  );
  const summary = h(
    'p',
    { class: 'hint', 'data-testid': 'graph-summary', 'data-nodes': data.nodes.length, 'data-edges': data.edges.length },
    `${data.nodes.length} nodes, ${data.edges.length} edges${data.truncated ? ' (limited to the first nodes found)' : ''}. Thick lines: the expansion path. Hover or tab to a node for its text.`,
  );
  return h('div', { class: 'graph-wrap', 'data-testid': 'graph' }, legend, h('div', { class: 'graph-stage' }, svg, tip), summary);
}
