/**
 * Issue 22 in real Chromium: damage stays local in the IndexedDB store for the records besides
 * nodes. The demo stores three chat messages; then one bit of the namespace's bookkeeping
 * record (the kept counts) and one bit of an adjacency record are changed in the page's
 * IndexedDB, behind the memory's back, and the page is reloaded. Before database version 5
 * these records were structured clones without a checksum: the changed count was shown and the
 * changed edge exported as it was. Now they are sealed with their CRC-32: the counts are counted
 * again and the edges read from their other ends, so the page shows and exports what it did.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ARTIFACTS, launch, nodeCount, openDemo, sendChat, waitReady } from './harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const MESSAGES = ['Remember that my sister Ana moved to Porto in May.', 'Ana works as a nurse at the children’s hospital.', 'Next weekend I visit Ana in Porto by train.'];

/** The edges of the demo's export, by id with their weights (the download saved under `name`). */
async function exportedEdges(page: Page, name: string): Promise<string[]> {
  const download = page.waitForEvent('download');
  await page.click('[data-testid="memory-export"]');
  const file = `${ARTIFACTS}${name}`;
  await (await download).saveAs(file);
  const data = JSON.parse(readFileSync(file, 'utf8')) as { edges: Array<{ id: string; weight: number; view: string; subtype: string }> };
  return data.edges.map((e) => `${e.id} ${e.view} ${e.subtype} ${e.weight}`).sort();
}

/**
 * Changes one bit of the `spaces` record of namespace `demo` and of its first adjacency record in
 * the page's IndexedDB: a byte in the middle of a sealed value, or (a database before version 5)
 * the same change in the structured clone (the edge count; the first string of the record's table).
 */
function flipBits(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('jev-mem');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['spaces', 'adj'], 'readwrite');
          const flip = (v: any, field: (v: any) => void): any => {
            if (v instanceof Uint8Array) v[v.length >> 1] = (v[v.length >> 1] ?? 0) ^ 0x10;
            else field(v);
            return v;
          };
          const spaces = tx.objectStore('spaces');
          const s = spaces.get('demo');
          s.onsuccess = () => spaces.put(flip(s.result, (v) => (v.edges ^= 0x10)), 'demo');
          const adj = tx.objectStore('adj');
          const c = adj.openCursor(IDBKeyRange.bound(['demo'], ['demo', []]));
          let first = '';
          c.onsuccess = () => {
            const cursor = c.result;
            if (cursor === null) return;
            first = String((cursor.key as string[])[1]);
            cursor.update(flip(cursor.value, (v) => (v.s[0] = String.fromCharCode(v.s[0].charCodeAt(0) ^ 0x10) + v.s[0].slice(1))));
          };
          tx.oncomplete = () => {
            db.close();
            resolve(first);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

test('a changed bit in the kept counts or an adjacency record: after a reload the page shows the same counts and exports the same edges', async () => {
  const { context, page, errors } = await openDemo(browser);
  for (const m of MESSAGES) await sendChat(page, m);
  await nodeCount(page, MESSAGES.length);
  const edges = Number(await page.getAttribute('[data-testid="memory-stats"]', 'data-edges'));
  expect(edges).toBeGreaterThan(0);
  const before = await exportedEdges(page, 'idb-damage-before.json');
  expect(before).toHaveLength(edges);

  expect(await flipBits(page)).not.toBe('');
  await page.reload();
  await waitReady(page, 1);
  expect(await nodeCount(page, MESSAGES.length)).toBe(MESSAGES.length);
  expect(Number(await page.getAttribute('[data-testid="memory-stats"]', 'data-edges'))).toBe(edges);
  expect(await exportedEdges(page, 'idb-damage-after.json')).toEqual(before);
  expect(errors).toEqual([]);
  await context.close();
});
