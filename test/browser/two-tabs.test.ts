/**
 * Issue 7 item 6: two tabs of one origin writing one namespace do not corrupt it. Both tabs of
 * the demo (one browser profile: one IndexedDB, one Web Locks manager) send chat messages at the
 * same time; every message is stored once with a distinct sequence number, each tab recalls the
 * other's messages without a reload (its caches follow the store's generation), and after a
 * reload both show the same count. Uses the shared harness (harness.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ask, demoURL, launch, nodeCount, openDemo, sendChat, waitReady } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const TAB_A = ['Tab A: my cousin Rui plays the cello in Coimbra.', 'Tab A: the boiler was serviced on Tuesday.', 'Tab A: I prefer green tea to coffee.', 'Tab A: our cat is called Miso.'];
const TAB_B = ['Tab B: the car insurance renews in March.', 'Tab B: Lena runs the Porto half marathon.', 'Tab B: the wifi password is on the fridge.', 'Tab B: I am learning Japanese on weekdays.'];

/** Every stored node of the demo's namespace, read straight from IndexedDB in the page. */
function storedNodes(page: Page): Promise<Array<{ id: string; seq: number; text: string }>> {
  return page.evaluate(
    () =>
      new Promise<Array<{ id: string; seq: number; text: string }>>((resolve, reject) => {
        const open = indexedDB.open('jev-mem');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          // Store layout v2 (src/plane/store/idb-storage.ts): `node`, key [namespace, id].
          const req = db.transaction('node', 'readonly').objectStore('node').getAll(IDBKeyRange.bound(['demo'], ['demo', []]));
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            db.close();
            resolve((req.result as Array<{ id: string; seq: number; text: string }>).map((n) => ({ id: n.id, seq: n.seq, text: n.text })));
          };
        };
      }),
  );
}

test('two tabs writing one namespace at once store every message once, in distinct order, and see each other', async () => {
  const { context, page: a, errors } = await openDemo(browser);
  const b = await context.newPage(); // same profile: same IndexedDB, same Web Locks
  b.on('pageerror', (e) => errors.push(e.message));
  await b.goto(demoURL());
  await waitReady(b, 1);
  expect(await a.evaluate(() => typeof navigator.locks?.request)).toBe('function');

  const writeAll = async (page: Page, texts: string[]): Promise<void> => {
    for (const t of texts) await sendChat(page, t);
  };
  await Promise.all([writeAll(a, TAB_A), writeAll(b, TAB_B)]);

  const nodes = await storedNodes(a);
  expect(nodes.map((n) => n.text).sort()).toEqual([...TAB_A, ...TAB_B].sort());
  expect(new Set(nodes.map((n) => n.seq)).size).toBe(nodes.length); // no two writes took the same place
  expect(nodes.map((n) => n.seq).sort((x, y) => x - y)).toEqual(nodes.map((_, i) => i + 1));

  // Without a reload, each tab recalls what the other wrote.
  expect((await ask(b, 'What instrument does Rui play?'))[0]?.text).toBe(TAB_A[0]);
  expect((await ask(a, 'When does the car insurance renew?'))[0]?.text).toBe(TAB_B[0]);

  await a.reload();
  await waitReady(a, 1);
  await b.reload();
  await waitReady(b, 1);
  expect(await nodeCount(a, nodes.length)).toBe(8);
  expect(await nodeCount(b, nodes.length)).toBe(8);
  expect(errors).toEqual([]);
  await context.close();
});
