/**
 * Shared driving code for the browser tests: launching Debian's Chromium through playwright-core
 * (SPEC 9 flags; every host but 127.0.0.1 resolves to nothing, so a stray request fails instead
 * of leaving the machine), opening the demo in a fresh profile, recording every request of the
 * context (page and workers), and the page actions the tests share. Every wait is on page state
 * (`data-*` attributes the demo sets), never a sleep.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
// Flags from SPEC 9, plus a resolver that knows only 127.0.0.1: the benchmarks' list.
import { CHROMIUM_ARGS } from '../../bench/lib/chromium.js';

/** Chromium binary: `CHROMIUM_PATH`, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots and other artefacts go (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/browser/', import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

/** The served demo (from global-setup.ts). */
export function demoURL(): string {
  return inject('demoURL');
}

/** Starts headless Chromium. */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** An open demo page in its own profile. */
export interface DemoPage {
  context: BrowserContext;
  page: Page;
  /** URLs of every request the context made (page and workers), in order. */
  requests: string[];
  /** Uncaught page errors. */
  errors: string[];
}

/** Opens the demo in a fresh browser context (a fresh profile: empty IndexedDB and localStorage). */
export async function openDemo(browser: Browser, viewport: { width: number; height: number } = { width: 1280, height: 800 }): Promise<DemoPage> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(demoURL());
  await waitReady(page, 1);
  return { context, page, requests, errors };
}

/** Waits until the memory is open (`body[data-state=ready]`), at `generation` opens when given. */
export async function waitReady(page: Page, generation?: number): Promise<void> {
  const sel = generation === undefined ? 'body[data-state="ready"]' : `body[data-state="ready"][data-generation="${generation}"]`;
  await page.waitForSelector(`${sel}, body[data-state="error"]`, { timeout: 30_000 });
  const state = await page.getAttribute('body', 'data-state');
  if (state !== 'ready') throw new Error(`the demo failed to open its memory: ${await page.textContent('[data-testid="alert"]')}`);
  // The panes have filled once the counts are shown.
  await page.waitForSelector('[data-testid="memory-stats"][data-nodes]');
}

/** Number of memories shown by the memory pane, after waiting for it to equal `expected` when given. */
export async function nodeCount(page: Page, expected?: number): Promise<number> {
  if (expected !== undefined) await page.waitForSelector(`[data-testid="memory-stats"][data-nodes="${expected}"]`);
  return Number(await page.getAttribute('[data-testid="memory-stats"]', 'data-nodes'));
}

/** Waits until the chat log has been rebuilt from memory after an open (`data-loaded`). */
export async function chatLoaded(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="chat-log"][data-loaded="true"]', { state: 'attached' });
}

/** Sends a chat message and waits until it is stored. */
export async function sendChat(page: Page, text: string): Promise<void> {
  const before = await page.locator('[data-testid="chat-message"][data-role="user"][data-stored="true"]').count();
  await page.fill('[data-testid="chat-input"]', text);
  await page.click('[data-testid="chat-send"]');
  await page.locator('[data-testid="chat-message"][data-role="user"][data-stored="true"]').nth(before).waitFor();
}

/** One shown result. */
export interface ShownResult {
  id: string;
  score: string;
  text: string;
  speaker: string;
  time: string;
}

/** Asks a question and waits for results, trace and graph to be drawn. */
export async function ask(page: Page, question: string): Promise<ShownResult[]> {
  const before = Number((await page.getAttribute('[data-testid="ask-status"]', 'data-answered')) ?? 0);
  await page.fill('[data-testid="ask-input"]', question);
  await page.click('[data-testid="ask-submit"]');
  await page.waitForSelector(`[data-testid="ask-status"][data-answered="${before + 1}"]`);
  if ((await page.getAttribute('[data-testid="ask-status"]', 'data-state')) === 'failed') {
    throw new Error(`ask failed: ${await page.textContent('[data-testid="alert"]')}`);
  }
  return page.$$eval('[data-testid="result"]', (items) =>
    items.map((li) => ({
      id: li.getAttribute('data-id') ?? '',
      score: li.getAttribute('data-score') ?? '',
      text: li.querySelector('[data-testid="result-text"]')?.textContent ?? '',
      speaker: li.querySelector('[data-testid="result-speaker"]')?.textContent ?? '',
      time: li.querySelector('[data-testid="result-time"]')?.textContent ?? '',
    })),
  );
}

/** Loads a conversation file into the import pane and picks `conversation` (by value). */
export async function chooseConversation(page: Page, file: { name: string; mimeType: string; buffer: Buffer } | string, conversation?: string): Promise<void> {
  await page.setInputFiles('[data-testid="import-file"]', file);
  await page.waitForSelector('[data-testid="import-status"][data-state="ready"], [data-testid="import-status"][data-state="failed"]');
  if ((await page.getAttribute('[data-testid="import-status"]', 'data-state')) === 'failed') throw new Error(`the file was refused: ${await page.textContent('[data-testid="alert"]')}`);
  if (conversation !== undefined) await page.selectOption('[data-testid="import-conversation"]', conversation);
}

/** Starts the import and waits for it to finish; returns the turns per second the page measured. */
export async function runImport(page: Page, timeoutMs = 30_000): Promise<number> {
  await page.click('[data-testid="import-start"]');
  await page.waitForSelector('[data-testid="import-status"][data-state="done"], [data-testid="import-status"][data-state="failed"]', { timeout: timeoutMs });
  const state = await page.getAttribute('[data-testid="import-status"]', 'data-state');
  if (state !== 'done') throw new Error(`import ${state}: ${await page.textContent('[data-testid="alert"]')}`);
  return Number(await page.getAttribute('[data-testid="import-status"]', 'data-turns-per-second'));
}

/** Saves a screenshot as test-artifacts/browser/<name>.png and returns its path. */
export async function shot(target: Page | ReturnType<Page['locator']>, name: string, fullPage = false): Promise<string> {
  const path = `${ARTIFACTS}${name}.png`;
  if ('goto' in target) await target.screenshot({ path, fullPage });
  else await target.screenshot({ path });
  return path;
}
