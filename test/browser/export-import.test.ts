/**
 * Export then import: the memory file exported from one profile, imported into a fresh profile
 * (a new browser context: empty IndexedDB), gives the same recall: same memories, same order,
 * same scores. Importing into a memory that is not empty is refused with a clear error.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { jsonFile, sampleLocomo } from './fixtures.js';
import { ARTIFACTS, ask, chooseConversation, launch, nodeCount, openDemo, runImport, sendChat, shot } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const QUESTIONS = ['What did Theo replace on his bike?', 'What is the name of my cat?', 'When is the half marathon?'];

test('a memory exported from one profile and imported into a fresh one gives the same recall', async () => {
  const a = await openDemo(browser);
  await chooseConversation(a.page, jsonFile('maya-theo.locomo.json', sampleLocomo(2)), 'sample-maya-theo');
  await runImport(a.page);
  await sendChat(a.page, 'My cat is called Pixel and she hates the vacuum cleaner.');
  const nodes = await nodeCount(a.page, 61);
  const edges = Number(await a.page.getAttribute('[data-testid="memory-stats"]', 'data-edges'));
  const before = [];
  for (const q of QUESTIONS) before.push((await ask(a.page, q)).map((r) => [r.id, r.score, r.text]));
  const download = a.page.waitForEvent('download');
  await a.page.click('[data-testid="memory-export"]');
  const file = `${ARTIFACTS}memory-export.json`;
  await (await download).saveAs(file);
  await a.page.waitForSelector('[data-testid="memory-result"][data-state="exported"]');
  expect(await a.page.textContent('[data-testid="memory-result"]')).toMatch(new RegExp(`^Exported ${nodes} memories and ${edges} edges`));
  await a.context.close();

  const b = await openDemo(browser);
  expect(await nodeCount(b.page)).toBe(0);
  await b.page.setInputFiles('[data-testid="memory-import"]', file);
  await b.page.waitForSelector('[data-testid="memory-result"][data-state="imported"]');
  await nodeCount(b.page, nodes);
  expect(Number(await b.page.getAttribute('[data-testid="memory-stats"]', 'data-edges'))).toBe(edges);
  const after = [];
  for (const q of QUESTIONS) after.push((await ask(b.page, q)).map((r) => [r.id, r.score, r.text]));
  expect(after).toEqual(before);
  expect(after[1]?.[0]?.[2]).toBe('My cat is called Pixel and she hates the vacuum cleaner.');
  await shot(b.page.locator('#memory'), 'memory-imported');

  // A second import into the now non-empty memory is refused, and nothing changes.
  await b.page.setInputFiles('[data-testid="memory-import"]', file);
  await b.page.waitForSelector('[data-testid="memory-result"][data-state="failed"]');
  expect(await b.page.textContent('[data-testid="alert"]')).toMatch(/INVALID_INPUT: .*is not empty/);
  expect(await nodeCount(b.page)).toBe(nodes);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await b.context.close();
});

test('Clear memory asks for a second click, then empties the memory and the chat log', async () => {
  const { page, context, errors } = await openDemo(browser);
  await sendChat(page, 'Temporary note one.');
  await sendChat(page, 'Temporary note two.');
  await nodeCount(page, 2);
  await page.click('[data-testid="memory-clear"]');
  expect(await page.textContent('[data-testid="memory-clear"]')).toBe('Click again to delete everything');
  expect(await nodeCount(page)).toBe(2);
  await page.click('[data-testid="memory-clear"]');
  await page.waitForSelector('[data-testid="memory-result"][data-state="cleared"]');
  await nodeCount(page, 0);
  expect(await page.locator('[data-testid="chat-message"]').count()).toBe(0);
  await page.reload();
  await page.waitForSelector('body[data-state="ready"]');
  await nodeCount(page, 0);
  expect(errors).toEqual([]);
  await context.close();
});
