/**
 * Small, dependency-free SVG charts for the benchmark reports: grouped bars, a histogram and
 * line charts. Output is a standalone SVG document (UTF-8 text) that renders the same in
 * browsers and on GitHub. Text is XML-escaped.
 *
 * @module
 */

/** Series colours (colour-blind-safe Okabe-Ito order), cycled. */
export const PALETTE = Object.freeze(['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000', '#999999']);

/** Escapes text for SVG content and attributes. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/\.?0+$/, '');
}

/** "Nice" axis ticks covering [0, max]: 1, 2 or 5 × 10^n steps, about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) as number;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if ((ticks[ticks.length - 1] as number) < max) ticks.push(Number(((ticks.length) * step).toPrecision(12)));
  return ticks;
}

function frame(width: number, height: number, title: string, body: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
    body,
    '</svg>',
    '',
  ].join('\n');
}

function legend(names: readonly string[], x: number, y: number): string {
  return names
    .map((n, i) => `<rect x="${x}" y="${y + i * 18}" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/><text x="${x + 18}" y="${y + i * 18 + 10}">${escapeXml(n)}</text>`)
    .join('\n');
}

function yAxis(ticks: number[], x0: number, x1: number, y: (v: number) => number, label: string, top: number, bottom: number, format: (v: number) => string = fmt): string {
  const lines = ticks.map((t) => `<line x1="${x0}" x2="${x1}" y1="${y(t)}" y2="${y(t)}" stroke="#e5e5e5"/><text x="${x0 - 6}" y="${y(t) + 4}" text-anchor="end">${escapeXml(format(t))}</text>`);
  const mid = (top + bottom) / 2;
  lines.push(`<text transform="translate(${x0 - 44} ${mid}) rotate(-90)" text-anchor="middle">${escapeXml(label)}</text>`);
  lines.push(`<line x1="${x0}" x2="${x0}" y1="${top}" y2="${bottom}" stroke="#333"/>`);
  return lines.join('\n');
}

/** Input of {@link groupedBarChart}. */
export interface GroupedBarInput {
  title: string;
  /** Group labels along x (e.g. categories). */
  groups: string[];
  /** One series per bar colour; `values[i]` belongs to `groups[i]`; null = no bar. */
  series: Array<{ name: string; values: Array<number | null> }>;
  yLabel: string;
  /** Top of the y axis. @default the largest value, rounded up to a nice tick */
  yMax?: number;
  /** Tick label format. @default plain number */
  format?: (v: number) => string;
  width?: number;
  height?: number;
}

/** Grouped vertical bars: one group per label, one bar per series in each group. */
export function groupedBarChart(input: GroupedBarInput): string {
  const width = input.width ?? 860;
  const height = input.height ?? 420;
  const left = 70;
  const right = 170;
  const top = 40;
  const bottom = height - 50;
  const all = input.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const ticks = niceTicks(input.yMax ?? all.reduce((a, b) => (b > a ? b : a), 0));
  const yMax = ticks[ticks.length - 1] as number;
  const y = (v: number): number => bottom - (Math.max(0, Math.min(v, yMax)) / yMax) * (bottom - top);
  const plotW = width - left - right;
  const groupW = plotW / Math.max(1, input.groups.length);
  const barW = (groupW * 0.8) / Math.max(1, input.series.length);
  const parts: string[] = [yAxis(ticks, left, width - right, y, input.yLabel, top, bottom, input.format)];
  input.groups.forEach((g, gi) => {
    const gx = left + gi * groupW + groupW * 0.1;
    input.series.forEach((s, si) => {
      const v = s.values[gi];
      if (v === null || v === undefined || !Number.isFinite(v)) return;
      const x = gx + si * barW;
      parts.push(
        `<rect class="bar" x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barW * 0.92).toFixed(1)}" height="${(bottom - y(v)).toFixed(1)}" fill="${PALETTE[si % PALETTE.length]}"><title>${escapeXml(`${s.name} · ${g}: ${(input.format ?? fmt)(v)}`)}</title></rect>`,
      );
    });
    parts.push(`<text x="${(left + gi * groupW + groupW / 2).toFixed(1)}" y="${bottom + 18}" text-anchor="middle">${escapeXml(g)}</text>`);
  });
  parts.push(`<line x1="${left}" x2="${width - right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`);
  parts.push(legend(input.series.map((s) => s.name), width - right + 16, top + 4));
  return frame(width, height, input.title, parts.join('\n'));
}

/** Input of {@link histogram}. */
export interface HistogramInput {
  title: string;
  values: number[];
  xLabel: string;
  /** Number of equal-width bins from 0 to `xMax`. @default 30 */
  bins?: number;
  /** Right end of the x axis; larger values go into the last bin. @default the largest value */
  xMax?: number;
  /** Vertical marker lines (e.g. p50, p95). */
  markers?: Array<{ label: string; value: number }>;
  width?: number;
  height?: number;
}

/** Counts of `values` in `bins` equal bins over [0, xMax] (values above xMax go to the last bin). */
export function binCounts(values: readonly number[], bins: number, xMax: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) {
    const i = xMax > 0 ? Math.min(bins - 1, Math.max(0, Math.floor((v / xMax) * bins))) : 0;
    counts[i] = (counts[i] as number) + 1;
  }
  return counts;
}

/** A histogram of values (counts per bin) with optional marker lines. */
export function histogram(input: HistogramInput): string {
  const width = input.width ?? 760;
  const height = input.height ?? 380;
  const left = 70;
  const right = 30;
  const top = 40;
  const bottom = height - 50;
  const bins = input.bins ?? 30;
  const xMax = input.xMax ?? input.values.reduce((a, b) => (b > a ? b : a), 1e-9);
  const counts = binCounts(input.values, bins, xMax);
  const ticks = niceTicks(counts.reduce((a, b) => (b > a ? b : a), 1));
  const yMax = ticks[ticks.length - 1] as number;
  const y = (v: number): number => bottom - (v / yMax) * (bottom - top);
  const x = (v: number): number => left + (Math.min(v, xMax) / xMax) * (width - left - right);
  const bw = (width - left - right) / bins;
  const parts: string[] = [yAxis(ticks, left, width - right, y, 'questions', top, bottom)];
  counts.forEach((c, i) => {
    if (c === 0) return;
    const lo = (i * xMax) / bins;
    const hi = ((i + 1) * xMax) / bins;
    parts.push(`<rect class="bar" x="${(left + i * bw).toFixed(1)}" y="${y(c).toFixed(1)}" width="${(bw * 0.95).toFixed(1)}" height="${(bottom - y(c)).toFixed(1)}" fill="${PALETTE[0]}"><title>${escapeXml(`${fmt(lo)}–${fmt(hi)}: ${c}`)}</title></rect>`);
  });
  for (const t of niceTicks(xMax, 6)) {
    if (t > xMax) continue;
    parts.push(`<text x="${x(t).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${fmt(t)}</text>`);
  }
  parts.push(`<line x1="${left}" x2="${width - right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`);
  parts.push(`<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(input.xLabel)}</text>`);
  (input.markers ?? []).forEach((m, i) => {
    const mx = x(m.value).toFixed(1);
    parts.push(`<line x1="${mx}" x2="${mx}" y1="${top}" y2="${bottom}" stroke="${PALETTE[5]}" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${Number(mx) + 4}" y="${top + 12 + i * 14}" fill="${PALETTE[5]}">${escapeXml(`${m.label} ${fmt(m.value)}`)}</text>`);
  });
  return frame(width, height, input.title, parts.join('\n'));
}

/** Input of {@link lineChart}. */
export interface LineChartInput {
  title: string;
  /** x values (shared by every series), ascending. */
  x: number[];
  series: Array<{ name: string; values: Array<number | null> }>;
  xLabel: string;
  yLabel: string;
  /** Logarithmic x axis (base 10). @default false */
  logX?: boolean;
  width?: number;
  height?: number;
}

/** Lines with point markers; the x axis labels the given x values. */
export function lineChart(input: LineChartInput): string {
  const width = input.width ?? 760;
  const height = input.height ?? 380;
  const left = 80;
  const right = 160;
  const top = 40;
  const bottom = height - 50;
  const all = input.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const ticks = niceTicks(all.reduce((a, b) => (b > a ? b : a), 0));
  const yMax = ticks[ticks.length - 1] as number;
  const y = (v: number): number => bottom - (v / yMax) * (bottom - top);
  const tx = (v: number): number => (input.logX ? Math.log10(Math.max(v, 1e-12)) : v);
  const xs = input.x.map(tx);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const span = x1 - x0 || 1;
  const x = (v: number): number => left + ((tx(v) - x0) / span) * (width - left - right);
  const parts: string[] = [yAxis(ticks, left, width - right, y, input.yLabel, top, bottom)];
  for (const v of input.x) parts.push(`<text x="${x(v).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${escapeXml(v >= 1000 && v % 1000 === 0 ? `${v / 1000}k` : fmt(v))}</text>`);
  parts.push(`<line x1="${left}" x2="${width - right}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`);
  parts.push(`<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(input.xLabel)}</text>`);
  input.series.forEach((s, si) => {
    const colour = PALETTE[si % PALETTE.length];
    const pts = input.x.map((xv, i) => [xv, s.values[i]] as const).filter((p): p is readonly [number, number] => p[1] !== null && p[1] !== undefined && Number.isFinite(p[1]));
    if (pts.length > 1) parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ')}"/>`);
    for (const [a, b] of pts) parts.push(`<circle class="point" cx="${x(a).toFixed(1)}" cy="${y(b).toFixed(1)}" r="3.5" fill="${colour}"><title>${escapeXml(`${s.name} @ ${fmt(a)}: ${fmt(b)}`)}</title></circle>`);
  });
  parts.push(legend(input.series.map((s) => s.name), width - right + 16, top + 4));
  return frame(width, height, input.title, parts.join('\n'));
}
