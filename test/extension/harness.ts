/**
 * Driving code for the extension test: Debian's Chromium with the built extension loaded
 * (new headless mode), a net log of every request the browser's network stack started, and the
 * popup opened as a tab. Every wait is on page state (`data-*` attributes the popup sets).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { envelope, type MemoryRequest, type Reply } from '../../demo/extension/src/messages.js';

/** Chromium binary: `CHROMIUM_PATH`, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots and timings (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/extension/', import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

/** A running browser with the extension. */
export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's service worker. */
  serviceWorker: Worker;
  /** `chrome-extension://<id>`. */
  origin: string;
  /** Requests Playwright saw (pages and the workers it attaches to). */
  requests: string[];
  /** Console errors of the service worker, as far as Playwright reports them. */
  serviceWorkerConsoleErrors: string[];
}

/**
 * Starts Chromium with the unpacked extension in `dist`, profile `profileDir`, and a net log
 * written to `netLogPath` when the browser closes. Every host name resolves to nothing, so a
 * stray request fails instead of leaving the machine (the net log still records it).
 */
export async function launchWithExtension(dist: string, profileDir: string, netLogPath: string): Promise<ExtensionBrowser> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: false, // the new headless mode comes from the flag below
    viewport: { width: 400, height: 600 },
    args: [
      '--headless=new',
      `--disable-extensions-except=${dist}`,
      `--load-extension=${dist}`,
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--host-resolver-rules=MAP * ~NOTFOUND',
      `--log-net-log=${netLogPath}`,
    ],
  });
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const serviceWorkerConsoleErrors: string[] = [];
  serviceWorker.on('console', (m) => {
    if (m.type() === 'error') serviceWorkerConsoleErrors.push(m.text());
  });
  return { context, serviceWorker, origin: `chrome-extension://${new URL(serviceWorker.url()).host}`, requests, serviceWorkerConsoleErrors };
}

/** An open popup page and what its console and page errors said. */
export interface PopupPage {
  page: Page;
  errors: string[];
}

/** Opens the popup as a tab and waits until the memory is ready (or failed: then it throws). */
export async function openPopup(browser: ExtensionBrowser): Promise<PopupPage> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  await page.goto(`${browser.origin}/popup.html`);
  await page.waitForSelector('body[data-state="ready"], body[data-state="failed"]', { timeout: 30_000 });
  if ((await page.getAttribute('body', 'data-state')) !== 'ready') throw new Error(`the memory failed to open: ${await page.textContent('[data-testid="alert"]')}`);
  return { page, errors };
}

/** Types a note and saves it; waits until the popup counts it as saved. */
export async function saveNote(page: Page, text: string): Promise<string> {
  const before = Number(await page.getAttribute('[data-testid="save-status"]', 'data-saved'));
  await page.fill('[data-testid="note-input"]', text);
  await page.click('[data-testid="save-note"]');
  await page.waitForSelector(`[data-testid="save-status"][data-saved="${before + 1}"], [data-testid="save-status"][data-state="failed"]`);
  if ((await page.getAttribute('[data-testid="save-status"]', 'data-state')) !== 'saved') throw new Error(`save failed: ${await page.textContent('[data-testid="alert"]')}`);
  return (await page.getAttribute('[data-testid="save-status"]', 'data-id')) ?? '';
}

/** One shown result. */
export interface ShownResult {
  id: string;
  text: string;
  how: string;
  why: string;
  pageTitle: string | null;
  pageUrl: string | null;
}

/** Asks a question in the popup and returns the results shown. */
export async function ask(page: Page, question: string): Promise<ShownResult[]> {
  await page.fill('[data-testid="ask-input"]', question);
  await page.click('[data-testid="ask-submit"]');
  await page.waitForSelector('[data-testid="ask-status"][data-state="done"], [data-testid="ask-status"][data-state="failed"]');
  if ((await page.getAttribute('[data-testid="ask-status"]', 'data-state')) !== 'done') throw new Error(`recall failed: ${await page.textContent('[data-testid="alert"]')}`);
  return page.$$eval('[data-testid="result"]', (items) =>
    items.map((li) => ({
      id: li.getAttribute('data-id') ?? '',
      text: li.querySelector('[data-testid="result-text"]')?.textContent ?? '',
      how: li.querySelector('[data-testid="result-why"]')?.getAttribute('data-how') ?? '',
      why: li.querySelector('[data-testid="result-why"] summary')?.textContent ?? '',
      pageTitle: li.querySelector('[data-testid="result-page"]')?.textContent ?? null,
      pageUrl: li.querySelector('[data-testid="result-page"]')?.getAttribute('href') ?? null,
    })),
  );
}

/** Sends one request through the service worker from an extension page, as the popup does. */
export function request<T>(page: Page, req: MemoryRequest): Promise<Reply<T>> {
  return page.evaluate((message) => chrome.runtime.sendMessage(message) as Promise<Reply<unknown>>, envelope('service-worker', req)) as Promise<Reply<T>>;
}

/** One request the browser's network stack started. */
export interface NetRequest {
  url: string;
  /** Origin of the document or worker that made it; `not an origin` for Chromium's own requests. */
  initiator: string;
  networkIsolationKey: string;
}

/**
 * Every URL request in a Chromium net log (`--log-net-log`; the file is complete once the browser
 * closed). Extension files (`chrome-extension://`) are served without the network stack and are
 * not in it: every entry is an http(s) or ws(s) request.
 */
export function readNetLog(path: string): NetRequest[] {
  const raw = readFileSync(path, 'utf8');
  let log: { constants: { logEventTypes: Record<string, number> }; events: Array<{ type: number; params?: Record<string, unknown> }> };
  try {
    log = JSON.parse(raw);
  } catch {
    log = JSON.parse(`${raw.replace(/,\s*$/, '')}]}`); // a log cut short lacks its closing brackets
  }
  const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  return log.events
    .filter((e) => e.type === start && typeof e.params?.url === 'string')
    .map((e) => ({ url: String(e.params?.url), initiator: String(e.params?.initiator ?? ''), networkIsolationKey: String(e.params?.network_isolation_key ?? '') }));
}
