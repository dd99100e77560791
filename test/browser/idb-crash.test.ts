/**
 * A browser killed while it writes (issue 22: the fault suites on every shipped store): a real
 * Chromium with a persistent profile on disk, a page adding and deleting memories in IndexedDB,
 * and the browser process SIGKILLed while the writes go on (at whatever step of a commit it
 * is). After each kill the browser is started again on the same profile: every write the page
 * saw resolve is there, every delete it saw resolve is gone, nothing else is stored, the kept
 * counts agree with the records, and the memory writes on. Three kills at different moments.
 * A delete the page had started but not seen resolve when the browser died may have committed
 * or not: its text may be there or gone, either is right (the kill can land after the commit
 * and before the acknowledgement reaches the test).
 * The page is the demo served by Vite's dev server, so it can import `jev-mem/browser` by name.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../bench/lib/chromium.js';
import { serveDemoDev, type DevDemo } from './dev-server.js';
import { CHROMIUM } from './harness.js';

/** The probe's own database (the demo page keeps its memory open on the default one). */
const DB = 'jev-mem-crash-probe';

let served: DevDemo | undefined;
let url: string;
beforeAll(async () => {
  served = await serveDemoDev();
  url = served.url;
}, 120_000);
afterAll(async () => {
  await served?.close();
});

/** The pid of the browser process (not a renderer or helper) started on `profile`. */
function browserPid(profile: string): number {
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  const own = lines.filter((l) => l.includes(`--user-data-dir=${profile}`) && !l.includes('--type='));
  expect(own, 'one browser process on the profile').toHaveLength(1);
  return Number(own[0]!.trim().split(/\s+/)[0]);
}

describe('IndexedDB in Chromium, browser SIGKILLed during writes (issue 22)', () => {
  it('keeps every acknowledged add and delete and nothing else, with counts that agree, after each of three kills', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'jev-mem-idb-crash-'));
    /** Texts whose add resolved, and texts whose delete resolved, as the page reported them. */
    const added = new Set<string>();
    const deleted = new Set<string>();
    /** Texts whose delete the page started (acknowledged or not). */
    const deleting = new Set<string>();
    const sent = new Set<string>();
    let context: BrowserContext | undefined;
    try {
      for (const [round, killAfter] of [[0, 12], [1, 25], [2, 7]] as const) {
        context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
        let acks = 0;
        await context.exposeFunction('acked', (kind: 'add' | 'deleting' | 'delete', text: string) => {
          if (kind === 'deleting') return void deleting.add(text);
          (kind === 'add' ? added : deleted).add(text);
          acks++;
        });
        const page = await context.newPage();
        await page.goto(url);
        // What the store holds after the previous kill, checked before writing on.
        const stored = await page.evaluate(async (dbName) => {
          const { createBrowserMemory } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
          const m = await createBrowserMemory({ namespace: 'crash', systemOne: 'heuristic', persist: false, dbName });
          const texts = (await m.list({ limit: 1000 })).memories.map((x) => x.text);
          const stats = await m.stats();
          await m.close();
          return { texts, nodes: stats.nodes };
        }, DB);
        for (const t of added) if (!deleting.has(t)) expect(stored.texts, `round ${round}: acknowledged add lost`).toContain(t);
        for (const t of deleted) expect(stored.texts, `round ${round}: acknowledged delete undone`).not.toContain(t);
        for (const t of stored.texts) expect(sent.has(t), `round ${round}: a text never sent: ${t}`).toBe(true);
        expect(new Set(stored.texts).size).toBe(stored.texts.length);
        expect(stored.nodes).toBe(stored.texts.length);
        // Write on (adds, and a delete of an earlier add every third turn) until killed.
        const texts = Array.from({ length: 400 }, (_, i) => `Round ${round} crash note ${i}: the tern nests on pier ${i % 17}`);
        for (const t of texts) sent.add(t);
        void page
          .evaluate(
            async ({ dbName, texts }) => {
              const { createBrowserMemory } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
              const m = await createBrowserMemory({ namespace: 'crash', systemOne: 'heuristic', persist: false, dbName });
              const ack = (globalThis as unknown as { acked: (kind: string, text: string) => Promise<void> }).acked;
              const ids: Array<[string, string]> = [];
              for (const [i, text] of texts.entries()) {
                ids.push([(await m.add({ text, speaker: 'user' })).id, text]);
                await ack('add', text);
                if (i % 3 === 2) {
                  const [id, gone] = ids.splice(ids.length - 2, 1)[0]!;
                  await ack('deleting', gone);
                  await m.delete(id);
                  await ack('delete', gone);
                }
              }
            },
            { dbName: DB, texts },
          )
          .catch(() => undefined); // the browser is killed under it
        const until = Date.now() + 120_000;
        while (acks < killAfter && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        expect(acks).toBeGreaterThanOrEqual(killAfter);
        process.kill(browserPid(profile), 'SIGKILL');
        await context.close().catch(() => undefined);
        context = undefined;
      }
      // After the last kill: the same checks, and the memory writes and recalls on.
      context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
      const page = await context.newPage();
      await page.goto(url);
      const last = await page.evaluate(async (dbName) => {
        const { createBrowserMemory } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
        const m = await createBrowserMemory({ namespace: 'crash', systemOne: 'heuristic', persist: false, dbName });
        await m.add({ text: 'After the crashes the heron fishes by the weir', speaker: 'user' });
        const texts = (await m.list({ limit: 1000 })).memories.map((x) => x.text);
        const nodes = (await m.stats()).nodes;
        const top = (await m.recall('Where does the heron fish?')).memories[0]?.text;
        await m.close();
        return { texts, nodes, top };
      }, DB);
      for (const t of added) if (!deleting.has(t)) expect(last.texts, 'acknowledged add lost').toContain(t);
      for (const t of deleted) expect(last.texts).not.toContain(t);
      expect(last.nodes).toBe(last.texts.length);
      expect(last.top).toBe('After the crashes the heron fishes by the weir');
      expect(added.size + deleted.size).toBeGreaterThanOrEqual(12 + 25 + 7);
      expect(deleted.size).toBeGreaterThan(0);
    } finally {
      await context?.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    }
  }, 400_000);
});
