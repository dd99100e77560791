/**
 * Chat messages are written to memory with their time and survive a reload (IndexedDB): after
 * the reload the chat log is rebuilt from memory and a question recalls them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ask, chatLoaded, launch, nodeCount, openDemo, sendChat, shot, waitReady } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const MESSAGES = [
  'My sister Lena moved to Porto last month and works at a bakery there.',
  'I am allergic to peanuts, so please never suggest satay.',
  'Our team offsite is in Lisbon on 12 June.',
];

test('messages written in the chat are stored with their time, survive a reload and are recalled', async () => {
  const { page, errors } = await openDemo(browser);
  expect(await nodeCount(page)).toBe(0);
  for (const m of MESSAGES) await sendChat(page, m);
  await nodeCount(page, MESSAGES.length);
  const times = await page.$$eval('[data-testid="chat-message"] time', (ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
  expect(times).toHaveLength(MESSAGES.length);
  for (const t of times) expect(Date.now() - Date.parse(t)).toBeLessThan(120_000);

  await page.reload();
  await waitReady(page, 1);
  expect(await nodeCount(page)).toBe(MESSAGES.length);
  // The log is rebuilt from memory after the open is reported (CI once read it before).
  await chatLoaded(page);
  const log = await page.$$eval('[data-testid="chat-message"] .msg-text', (xs) => xs.map((x) => x.textContent));
  expect(log).toEqual(MESSAGES);

  const results = await ask(page, 'Where does my sister live?');
  expect(results[0]?.text).toBe(MESSAGES[0]);
  expect(results[0]?.speaker).toBe('user');
  expect(results[0]?.time).not.toBe('no time');
  const allergy = await ask(page, 'What food am I allergic to?');
  expect(allergy[0]?.text).toBe(MESSAGES[1]);
  await shot(page, 'chat-after-reload-1280x800', true);
  expect(errors).toEqual([]);
});
