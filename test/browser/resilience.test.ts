/**
 * Failures the page turns into clear messages instead of a broken page: a storage quota too
 * small for an import (QUOTA_EXCEEDED, with what to do, and the turns written before it kept),
 * and a System-One model that cannot load (the page says so and runs the heuristic stand-in).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { jsonFile, sampleLocomo } from './fixtures.js';
import { ask, chooseConversation, demoURL, launch, nodeCount, openDemo, sendChat } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

test('an import that runs out of storage quota stops with QUOTA_EXCEEDED and keeps what was written', async () => {
  const { page, context, errors } = await openDemo(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(demoURL()).origin, quotaSize: 400 * 1024 });
  await chooseConversation(page, jsonFile('long.locomo.json', sampleLocomo(20)), 'sample-maya-theo');
  await page.click('[data-testid="import-start"]');
  await page.waitForSelector('[data-testid="import-status"][data-state="failed"], [data-testid="import-status"][data-state="done"]');
  expect(await page.getAttribute('[data-testid="import-status"]', 'data-state')).toBe('failed');
  expect(await page.textContent('[data-testid="alert"]')).toMatch(/^Import failed: QUOTA_EXCEEDED: .*for lack of space.* To make room here: export the memory, then clear it\.$/);
  const stopped = /^Import stopped after (\d+) of 600 turns\.$/.exec((await page.textContent('[data-testid="import-status"]')) ?? '');
  expect(stopped).not.toBeNull();
  expect(Number(stopped?.[1])).toBeLessThan(600);
  await nodeCount(page, Number(stopped?.[1]));
  expect(errors).toEqual([]);
  await context.close();
});

test('when the System-One model cannot load, the page says so and runs on the heuristic stand-in', async () => {
  const context = await browser.newContext();
  // The System-One manifest: under models/ when served from a folder, assets/manifest-<hash>.json when bundled.
  await context.route(/\/(models\/system-one\/|assets\/manifest-)/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(demoURL());
  await page.waitForSelector('body[data-state="ready"]');
  expect(await page.textContent('[data-testid="settings-notice"]')).toMatch(/^The local System One could not start \(MODEL_LOAD_FAILED: .*manifest\.json.*\); using the heuristic stand-in\.$/);
  expect(await page.textContent('[data-testid="in-use-s1"]')).toMatch(/\(heuristic\)$/);
  await page.waitForSelector('[data-testid="memory-stats"][data-nodes]');
  await sendChat(page, 'The recycling goes out on Wednesdays.');
  expect((await ask(page, 'When does the recycling go out?'))[0]?.text).toBe('The recycling goes out on Wednesdays.');
  expect(errors).toEqual([]);
  await context.close();
});
