/**
 * Settings: the System-One backend (worker on onnxruntime-web, worker on TypeScript kernels,
 * heuristic) and the accelerator actually in use are shown and can be switched, each one
 * writing and recalling; WebGPU is used when the browser gives an adapter (Chromium's software
 * adapter under --enable-unsafe-webgpu) and WASM otherwise; namespaces are separate memories.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ask, chatLoaded, launch, nodeCount, openDemo, sendChat, waitReady } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function applySettings(page: Page, generation: number, change: { backend?: string; accelerator?: string; namespace?: string }): Promise<void> {
  if (change.backend !== undefined) await page.selectOption('[data-testid="settings-s1"]', change.backend);
  if (change.accelerator !== undefined) await page.selectOption('[data-testid="settings-accelerator"]', change.accelerator);
  if (change.namespace !== undefined) await page.fill('[data-testid="settings-namespace"]', change.namespace);
  await page.click('[data-testid="settings-apply"]');
  await waitReady(page, generation);
}

const inUse = (page: Page, what: string): Promise<string | null> => page.textContent(`[data-testid="in-use-${what}"]`);

test('each System-One backend shows what runs it and writes and recalls; namespaces are separate', async () => {
  const { page, context, errors } = await openDemo(browser);
  // Chromium without --enable-unsafe-webgpu has no adapter: the worker runs onnxruntime on WASM.
  expect(await inUse(page, 'webgpu')).toBe('none in this browser');
  expect(await inUse(page, 'accelerator')).toBe('WASM');
  expect(await inUse(page, 's1')).toMatch(/^jev-mem\/system-one@\S+ \(local-worker, onnx engine\)$/);
  await sendChat(page, 'The spare key is under the blue flowerpot.');

  await applySettings(page, 2, { accelerator: 'webgpu' });
  expect(await page.textContent('[data-testid="settings-notice"]')).toBe('WebGPU was asked for, but this browser gives no WebGPU adapter: running on WASM.');
  expect(await inUse(page, 'accelerator')).toBe('WASM');

  await applySettings(page, 3, { backend: 'worker-ts' });
  expect(await inUse(page, 's1')).toMatch(/\(local-worker, ts engine\)$/);
  expect(await inUse(page, 'accelerator')).toBe('JavaScript (no accelerator)');
  await sendChat(page, 'The wifi password is on the fridge.');
  expect((await ask(page, 'Where is the spare key?'))[0]?.text).toBe('The spare key is under the blue flowerpot.');

  await applySettings(page, 4, { backend: 'heuristic' });
  expect(await inUse(page, 's1')).toMatch(/\(heuristic\)$/);
  expect(await page.textContent('[data-testid="header-status"]')).toContain('System One: heuristic · JS');
  expect((await ask(page, 'What is the wifi password?'))[0]?.text).toBe('The wifi password is on the fridge.');
  await nodeCount(page, 2);

  await applySettings(page, 5, { namespace: 'work' });
  await nodeCount(page, 0);
  await chatLoaded(page);
  expect(await page.locator('[data-testid="chat-message"]').count()).toBe(0);
  await applySettings(page, 6, { namespace: 'demo', backend: 'worker', accelerator: 'auto' });
  await nodeCount(page, 2);
  await chatLoaded(page);
  expect(await page.locator('[data-testid="chat-message"]').count()).toBe(2);
  expect(errors).toEqual([]);
  await context.close();
});

test('with a WebGPU adapter (--enable-unsafe-webgpu) the worker runs on WebGPU, and WASM can be chosen', async () => {
  const gpuBrowser = await launch(['--enable-unsafe-webgpu']);
  try {
    const { page, context, errors } = await openDemo(gpuBrowser);
    const adapter = await page.evaluate(async () => (await (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu?.requestAdapter()) != null);
    expect(await inUse(page, 'webgpu')).toBe(adapter ? 'available' : 'none in this browser');
    expect(await inUse(page, 'accelerator')).toBe(adapter ? 'WebGPU' : 'WASM');
    await sendChat(page, 'The plumber comes on Thursday at nine.');
    expect((await ask(page, 'When does the plumber come?'))[0]?.text).toBe('The plumber comes on Thursday at nine.');
    await applySettings(page, 2, { accelerator: 'wasm' });
    expect(await inUse(page, 'accelerator')).toBe('WASM');
    expect((await ask(page, 'When does the plumber come?'))[0]?.text).toBe('The plumber comes on Thursday at nine.');
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await gpuBrowser.close();
  }
});
