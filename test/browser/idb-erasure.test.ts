/**
 * Erasure in Chromium's IndexedDB files (issue 22): a real Chromium with a persistent profile on
 * disk, the page drives `createBrowserMemory` (add, update, delete of both versions,
 * `reset({ scope })`, `forget`), closes it, runs `compactIdbDatabase()`, and after the browser
 * has closed, every file of the profile is scanned for the erased texts, terms and speaker
 * names (UTF-8, UTF-16LE). Without the compaction they stay in LevelDB's log / table files
 * (measured on Chromium 156; the reviewer's finding). The kept memories must survive the
 * rebuild and stay recallable after a reopen. The page is the demo served by Vite's dev server,
 * so it can import `jev-mem/browser` by name.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../bench/lib/chromium.js';
import { serveDemoDev, type DevDemo } from './dev-server.js';
import { CHROMIUM } from './harness.js';

const ERASED = ['Vexmorrow', 'Quandalin', 'Brambleworth', 'Glimmerpox', 'Yarrowstan', 'grumblewick', 'Zanthor', 'Ophelius', 'Plumbuckle', 'Orrington', 'Quessa'];
const KEPT = 'Keptwillow';
/**
 * The probes' database: the demo page keeps its own memory open on the default `jev-mem`, and a
 * compaction refuses to run while any memory of the origin has its database open.
 */
const PROBE_DB = 'jev-mem-erasure-probe';

/**
 * The HTTP and code caches hold the responses the page fetched (the demo's scripts, the encoder's
 * vocabulary, which has ordinary words and names such as "orrington"), not anything it stored.
 */
const FETCHED = /^Default\/(Cache|Code Cache|GPUCache)\//;

/** Every file under `dir` (but the caches of fetched files) that holds one of `words` (lower-cased too), as `file: word`. */
function scan(dir: string, words: string[]): string[] {
  const hits: string[] = [];
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (FETCHED.test(f)) continue;
    const p = join(dir, f);
    if (!statSync(p, { throwIfNoEntry: false })?.isFile()) continue;
    const buf = readFileSync(p);
    for (const w of words.flatMap((x) => [x, x.toLowerCase()])) {
      for (const enc of ['utf8', 'utf16le'] as const) if (buf.includes(Buffer.from(w, enc))) hits.push(`${f}: ${w} (${enc})`);
    }
  }
  return [...new Set(hits)];
}

let served: DevDemo | undefined;
let url: string;
beforeAll(async () => {
  served = await serveDemoDev();
  url = served.url;
}, 120_000);
afterAll(async () => {
  await served?.close();
});

describe('IndexedDB erasure in Chromium files (issue 22)', () => {
  it('leaves no byte of deleted, updated, reset or forgotten memories in the profile after compactIdbDatabase()', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'jev-mem-idb-erasure-'));
    let context: BrowserContext | undefined;
    try {
      context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
      let page = await context.newPage();
      await page.goto(url);
      const out = await page.evaluate(async ({ kept, dbName }) => {
        const { createBrowserMemory, compactIdbDatabase } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
        const m = await createBrowserMemory({ namespace: 'probe', systemOne: 'heuristic', persist: false, dbName });
        for (let i = 0; i < 20; i++) await m.add({ text: `filler browser note ${i} about cycling and tea`, speaker: 'user' });
        await m.add({ text: `The garden gate code is ${kept} seven`, speaker: 'user' });
        const a = await m.add({ text: 'My bank PIN hint is Vexmorrow Quandalin and my nurse is Thessaly Brambleworth', speaker: 'Ophelius' });
        const u = await m.update(a.id, { text: 'My bank PIN hint is Glimmerpox Yarrowstan' });
        await m.add({ text: 'scoped secret grumblewick', speaker: 'Zanthor', userId: 'u9' });
        const deleted = [await m.delete(a.id), await m.delete(u.id)];
        const reset = await m.reset({ scope: { userId: 'u9' } });
        const m2 = await createBrowserMemory({ namespace: 'other', systemOne: 'heuristic', persist: false, dbName });
        await m2.add({ text: 'Other namespace secret Plumbuckle Orrington', speaker: 'Quessa' });
        await m2.forget('other');
        await m2.close();
        const before = (await m.list({ limit: 100 })).memories.length;
        await m.close();
        const compaction = await compactIdbDatabase({ dbName });
        return { deleted, reset, before, compaction };
      }, { kept: KEPT, dbName: PROBE_DB });
      expect(out.deleted).toEqual([true, true]);
      expect(out.before).toBe(21);
      expect(out.compaction.records).toBeGreaterThan(21);
      await context.close();
      expect(scan(profile, ERASED)).toEqual([]);
      expect(scan(profile, [KEPT]).length).toBeGreaterThan(0); // the scan does see what is kept

      // Reopened: the kept memories are all there and recallable.
      context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
      page = await context.newPage();
      await page.goto(url);
      const after = await page.evaluate(async (dbName) => {
        const { createBrowserMemory } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
        const m = await createBrowserMemory({ namespace: 'probe', systemOne: 'heuristic', persist: false, dbName });
        const n = (await m.list({ limit: 100 })).memories.length;
        const top = (await m.recall('What is the garden gate code?')).memories[0]?.text;
        await m.close();
        return { n, top };
      }, PROBE_DB);
      await context.close();
      expect(after.n).toBe(21);
      expect(after.top).toContain(KEPT);
    } finally {
      await context?.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    }
  }, 180_000);

  it('compactIdbDatabase() refuses with CONFLICT while a memory is open in another tab, and a tab that opens meanwhile waits: no write is lost (Web Locks)', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
    try {
      const context = await browser.newContext();
      const [a, b] = [await context.newPage(), await context.newPage()];
      await Promise.all([a.goto(url), b.goto(url)]);
      const load = "return import('/@id/jev-mem/browser')";
      // Tab A keeps a memory open.
      await a.evaluate(async ({ load, dbName }) => {
        const { createBrowserMemory } = await (new Function(load)() as Promise<typeof import('jev-mem/browser')>);
        const m = await createBrowserMemory({ namespace: 'tabs', systemOne: 'heuristic', persist: false, dbName });
        await m.add({ text: 'Tab A note one about the lighthouse', speaker: 'user' });
        (globalThis as { held?: unknown }).held = m;
      }, { load, dbName: PROBE_DB });
      // Tab B asks for a compaction: refused, nothing changed.
      const refused = await b.evaluate(async ({ load, dbName }) => {
        const { compactIdbDatabase } = await (new Function(load)() as Promise<typeof import('jev-mem/browser')>);
        return compactIdbDatabase({ dbName }).then(
          () => 'ran',
          (e: { code?: string; field?: string }) => `${e.code} ${e.field}`,
        );
      }, { load, dbName: PROBE_DB });
      expect(refused).toBe('CONFLICT dbName');
      // Tab A's connection was left alone: it writes on, then closes.
      await a.evaluate(async () => {
        const m = (globalThis as { held?: import('jev-mem/browser').BrowserMemory }).held!;
        await m.add({ text: 'Tab A note two about the harbour', speaker: 'user' });
        await m.close();
      });
      // Tab B compacts; tab A opens during it, waits, and writes three notes.
      await b.evaluate(async ({ load, dbName }) => {
        const { compactIdbDatabase } = await (new Function(load)() as Promise<typeof import('jev-mem/browser')>);
        (globalThis as { compaction?: Promise<unknown> }).compaction = compactIdbDatabase({ dbName });
      }, { load, dbName: PROBE_DB });
      const wrote = await a.evaluate(async ({ load, dbName }) => {
        const { createBrowserMemory } = await (new Function(load)() as Promise<typeof import('jev-mem/browser')>);
        const m = await createBrowserMemory({ namespace: 'tabs', systemOne: 'heuristic', persist: false, dbName });
        for (let i = 0; i < 3; i++) await m.add({ text: `Tab A racing note ${i} about the ferry`, speaker: 'user' });
        await m.close();
        return 3;
      }, { load, dbName: PROBE_DB });
      const compacted = await b.evaluate(async () => ((await (globalThis as { compaction?: Promise<{ records: number }> }).compaction!).records > 0));
      expect([wrote, compacted]).toEqual([3, true]);
      const texts = await b.evaluate(async ({ load, dbName }) => {
        const { createBrowserMemory } = await (new Function(load)() as Promise<typeof import('jev-mem/browser')>);
        const m = await createBrowserMemory({ namespace: 'tabs', systemOne: 'heuristic', persist: false, dbName });
        const list = (await m.list({ limit: 100 })).memories.map((x) => x.text).sort();
        await m.close();
        return list;
      }, { load, dbName: PROBE_DB });
      expect(texts).toEqual(['Tab A note one about the lighthouse', 'Tab A note two about the harbour', 'Tab A racing note 0 about the ferry', 'Tab A racing note 1 about the ferry', 'Tab A racing note 2 about the ferry']);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
