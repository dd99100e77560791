/**
 * The page at a phone viewport (390×844) and a laptop one (1280×800): nothing overflows
 * sideways, the panes stack in one column on the phone and sit in two columns on the laptop,
 * the controls stay usable, and full-page screenshots are saved for review.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { jsonFile, sampleLocomo } from './fixtures.js';
import { ask, chooseConversation, launch, openDemo, runImport, sendChat, shot } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).boundingBox();
  if (b === null) throw new Error(`${selector} is not displayed`);
  return b;
}

/** Opens the demo at `viewport`, fills it (chat, import, ask) and checks nothing overflows. */
async function filledPage(viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const { page, context, errors } = await openDemo(browser, viewport);
  await sendChat(page, 'I booked a table at Casa Rosa for Friday at 8 pm.');
  await chooseConversation(page, jsonFile('maya-theo.locomo.json', sampleLocomo(2)), 'sample-maya-theo');
  await runImport(page);
  await ask(page, 'What did Theo replace on his bike?');
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  for (const id of ['chat', 'import', 'ask', 'trace', 'graph', 'memory', 'settings']) {
    const b = await box(page, `#${id}`);
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(viewport.width);
  }
  for (const control of ['chat-send', 'ask-submit', 'import-start', 'memory-export', 'settings-apply']) {
    const b = await box(page, `[data-testid="${control}"]`);
    expect(b.height).toBeGreaterThanOrEqual(28);
  }
  return { page, errors, close: () => context.close() };
}

test('390×844: one column, no sideways scrolling, the graph fills the width', async () => {
  const { page, errors, close } = await filledPage({ width: 390, height: 844 });
  // Chat first, then ask, graph and trace, then the rest, all at the same left edge.
  const order = [];
  for (const id of ['chat', 'ask', 'graph', 'trace', 'import', 'memory', 'settings']) order.push({ id, ...(await box(page, `#${id}`)) });
  for (let i = 1; i < order.length; i++) {
    const [prev, cur] = [order[i - 1] as Box, order[i] as Box];
    expect(cur.x).toBe(prev.x);
    expect(cur.y).toBeGreaterThan(prev.y + prev.height - 1);
  }
  const graph = await box(page, '[data-testid="graph-svg"]');
  expect(graph.width).toBeGreaterThan(300);
  expect(graph.height).toBeCloseTo(graph.width, -1);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'viewport-390x844-first-screen');
  await shot(page, 'viewport-390x844-full', true);
  await page.locator('#ask').scrollIntoViewIfNeeded();
  await shot(page.locator('#ask'), 'viewport-390x844-ask');
  await shot(page.locator('#graph'), 'viewport-390x844-graph');
  expect(errors).toEqual([]);
  await close();
});

test('1280×800: chat and ask side by side, no sideways scrolling', async () => {
  const { page, errors, close } = await filledPage({ width: 1280, height: 800 });
  const chat = await box(page, '#chat');
  const askPane = await box(page, '#ask');
  expect(askPane.x).toBeGreaterThan(chat.x + chat.width);
  expect(Math.abs(askPane.y - chat.y)).toBeLessThan(2);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'viewport-1280x800-first-screen');
  await shot(page, 'viewport-1280x800-full', true);
  expect(errors).toEqual([]);
  await close();
});
