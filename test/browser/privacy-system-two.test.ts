/**
 * Privacy: without System Two nothing the page does (chat, import, ask, export, reload) sends a
 * request anywhere but 127.0.0.1, workers included. With System Two configured, the chat and the
 * ask pane show its answers, both chat turns are stored, the key goes only to the endpoint as a
 * bearer token, and it is never written to localStorage, IndexedDB or an export.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { jsonFile, sampleLocomo } from './fixtures.js';
import { ask, chooseConversation, launch, nodeCount, openDemo, runImport, sendChat, waitReady } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Where a URL goes: `local` for 127.0.0.1 over http(s) and for data:/blob: URLs. */
function destination(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'data:' || u.protocol === 'blob:') return 'local';
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname === '127.0.0.1' ? 'local' : `${u.protocol}//${u.host}`;
}

/** Everything the page stored: localStorage, sessionStorage, cookies and every IndexedDB record, as one string. */
async function everythingStored(page: Page, context: BrowserContext): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const out: unknown[] = [{ ...localStorage }, { ...sessionStorage }];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name as string);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const r = db.transaction(store, 'readonly').objectStore(store).getAll();
          r.onsuccess = () => resolve(r.result as unknown[]);
          r.onerror = () => reject(r.error);
        });
        out.push({ db: info.name, store, rows });
      }
      db.close();
    }
    return JSON.stringify(out);
  });
  return inPage + JSON.stringify(await context.cookies());
}

test('without System Two, chat, import, ask, export and reload send no request outside 127.0.0.1', async () => {
  const { page, context, requests, errors } = await openDemo(browser);
  await sendChat(page, 'Remember that my passport expires in October.');
  await chooseConversation(page, jsonFile('maya-theo.locomo.json', sampleLocomo(1)), 'sample-maya-theo');
  await runImport(page);
  await ask(page, 'When does my passport expire?');
  const download = page.waitForEvent('download');
  await page.click('[data-testid="memory-export"]');
  await (await download).path();
  await page.reload();
  await waitReady(page, 1);
  await ask(page, 'Who teaches pottery?');

  const paths = requests.map((u) => new URL(u).pathname);
  // The recorder sees the worker's own fetches (model files and onnxruntime's wasm), so it covers workers.
  // The model files are the ones Vite emitted from jev-mem/browser's `new URL(…, import.meta.url)`.
  expect(paths.some((p) => /\/assets\/manifest-[\w-]+\.json$/.test(p))).toBe(true);
  expect(paths).toContain('/ort/ort-wasm-simd-threaded.jsep.wasm');
  expect(paths.some((p) => /\/assets\/vectors-[\w-]+\.i8$/.test(p))).toBe(true);
  expect(new Set(requests.map(destination))).toEqual(new Set(['local']));
  expect(errors).toEqual([]);
  await context.close();
});

const SECRET = 'sk-test-0123456789-DO-NOT-STORE';
const S2_URL = 'http://127.0.0.1:9/v1/chat/completions';
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, OPTIONS' };

test('with System Two configured, answers are shown and stored, and the key is sent but never stored', async () => {
  const { page, context, requests, errors } = await openDemo(browser);
  const calls: Array<{ authorization: string | undefined; body: { model: string; messages: Array<{ role: string; content: string }> } }> = [];
  await context.route(`${S2_URL}*`, async (route) => {
    const req = route.request();
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
    calls.push({ authorization: req.headers().authorization, body: req.postDataJSON() as (typeof calls)[number]['body'] });
    const content = calls.length === 1 ? 'Noted: your sister Lena lives in Porto.' : 'Lena lives in Porto.';
    return route.fulfill({
      status: 200,
      headers: { ...CORS, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'mock-model', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 } }),
    });
  });
  await page.fill('[data-testid="settings-s2-url"]', S2_URL);
  await page.fill('[data-testid="settings-s2-model"]', 'mock-model');
  await page.fill('[data-testid="settings-s2-key"]', SECRET);
  await page.click('[data-testid="settings-apply"]');
  await waitReady(page, 2);
  expect(await page.textContent('[data-testid="in-use-s2"]')).toBe(`mock-model at ${S2_URL} (with a key held in memory)`);

  await sendChat(page, 'My sister Lena moved to Porto last month.');
  await page.locator('[data-testid="chat-message"][data-role="assistant"][data-stored="true"]').waitFor();
  expect(await page.textContent('[data-testid="chat-message"][data-role="assistant"] .msg-text')).toBe('Noted: your sister Lena lives in Porto.');
  await nodeCount(page, 2);

  await ask(page, 'Where does my sister live?');
  expect(await page.textContent('[data-testid="answer-text"]')).toBe('Lena lives in Porto.');
  expect(calls).toHaveLength(2);
  for (const c of calls) {
    expect(c.authorization).toBe(`Bearer ${SECRET}`);
    expect(c.body.model).toBe('mock-model');
  }
  expect(JSON.stringify(calls[1]?.body.messages)).toContain('My sister Lena moved to Porto last month.');

  const download = page.waitForEvent('download');
  await page.click('[data-testid="memory-export"]');
  const { readFile } = await import('node:fs/promises');
  const exported = await readFile((await (await download).path()) as string, 'utf8');
  expect(exported).toContain('Lena moved to Porto');
  expect(exported).not.toContain(SECRET);
  const stored = await everythingStored(page, context);
  expect(stored).toContain('Lena moved to Porto'); // the dump does reach the stored memories
  expect(stored).toContain(S2_URL); // and the saved settings
  expect(stored).not.toContain(SECRET);

  await page.reload();
  await waitReady(page, 1);
  expect(await page.inputValue('[data-testid="settings-s2-key"]')).toBe('');
  expect(await page.inputValue('[data-testid="settings-s2-url"]')).toBe(S2_URL);
  expect(await page.textContent('[data-testid="in-use-s2"]')).toBe(`mock-model at ${S2_URL}`);
  expect(new Set(requests.map(destination))).toEqual(new Set(['local']));
  expect(errors).toEqual([]);
  await context.close();
});
