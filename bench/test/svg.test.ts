import { describe, expect, it } from 'vitest';
import { binCounts, escapeXml, groupedBarChart, histogram, lineChart, niceTicks } from '../lib/svg.js';

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten and covers the maximum', () => {
    expect(niceTicks(1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.87)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
  });
});

describe('binCounts', () => {
  it('counts equal-width bins and puts overflow in the last one', () => {
    // bins of width 1 over [0, 4): 0 and 0.5 → bin 0; 1 → bin 1; 2.5 → bin 2; 10 → bin 3
    expect(binCounts([0, 0.5, 1, 2.5, 10], 4, 4)).toEqual([2, 1, 1, 1]);
  });
});

describe('charts', () => {
  it('escapes text', () => {
    expect(escapeXml('a<b & "c"')).toBe('a&lt;b &amp; &quot;c&quot;');
  });

  it('draws one bar per value and skips missing ones', () => {
    const svg = groupedBarChart({ title: 'R<10>', groups: ['1', '2'], series: [{ name: 'x', values: [0.5, null] }, { name: 'y', values: [0.2, 0.4] }], yLabel: 'r', yMax: 1 });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('<title>R&lt;10&gt;</title>');
    expect(svg.match(/<rect class="bar"/g)?.length).toBe(3);
  });

  it('draws a histogram bar only for non-empty bins', () => {
    const svg = histogram({ title: 'h', values: [1, 1, 9], xLabel: 'ms', bins: 10, xMax: 10 });
    expect(svg.match(/<rect class="bar"/g)?.length).toBe(2);
  });

  it('draws one point per finite value of a line', () => {
    const svg = lineChart({ title: 'l', x: [1000, 10000, 100000], series: [{ name: 'p50', values: [1, null, 3] }], xLabel: 'n', yLabel: 'ms', logX: true });
    expect(svg.match(/<circle class="point"/g)?.length).toBe(2);
  });
});
