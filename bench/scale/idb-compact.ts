/**
 * Cost of `compactIdbDatabase` (issue 22) in a real Chromium with a persistent profile:
 * fills namespace `probe` with N memories (`addMany`, batches of 500, heuristic System One),
 * deletes one, closes, then times the compaction in the page and scans the profile's IndexedDB
 * folder for the deleted text before and after.
 *
 *   node --import tsx bench/scale/idb-compact.ts 1000 10000
 *
 * Prints per N: the records copied, the compaction's wall time in the page (ms), the IndexedDB
 * folder's size before / after (bytes), and whether the deleted text was found before / after.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { CHROMIUM_ARGS } from '../lib/chromium.js';

const SECRET = 'Vexmorrow';
const sizes = process.argv.slice(2).map(Number);
const server = await createServer({ configFile: fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url)), logLevel: 'warn', server: { host: '127.0.0.1', port: 0, watch: null, hmr: false } });
await server.listen();
const url = server.resolvedUrls?.local[0] ?? '';

function idbFolder(profile: string): { bytes: number; found: boolean } {
  const dir = join(profile, 'Default', 'IndexedDB');
  let bytes = 0;
  let found = false;
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, f);
    if (!statSync(p).isFile()) continue;
    const buf = readFileSync(p);
    bytes += buf.length;
    found ||= buf.includes(Buffer.from(SECRET));
  }
  return { bytes, found };
}

/** The probe's database: the demo page keeps its own memory open on `jev-mem`, and a compaction refuses to run while one is open. */
const PROBE_DB = 'jev-mem-compact-probe';

async function run(n: number, compact: boolean): Promise<{ records: number; ms: number; before: ReturnType<typeof idbFolder> }> {
  const profile = mkdtempSync(join(tmpdir(), 'jev-mem-idb-compact-'));
  const launch = () => chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] });
  try {
    let context = await launch();
    let page = await context.newPage();
    await page.goto(url);
    await page.evaluate(async ({ n, secret, dbName }) => {
      const { createBrowserMemory } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
      const m = await createBrowserMemory({ namespace: 'probe', systemOne: 'heuristic', persist: false, dbName });
      const topics = ['cycling', 'tea', 'gardens', 'weather', 'trains', 'music', 'cooking', 'books'];
      for (let i = 0; i < n; i += 500) {
        const batch = [];
        for (let j = i; j < Math.min(n, i + 500); j++) batch.push({ text: `note ${j}: talked about ${topics[j % 8]} and ${topics[(j * 7) % 8]} on day ${j % 97} with friend ${j % 31}`, speaker: 'user' });
        await m.addMany(batch);
      }
      const a = await m.add({ text: `The locker code is ${secret} 4411`, speaker: 'user' });
      await m.delete(a.id);
      await m.close();
    }, { n, secret: SECRET, dbName: PROBE_DB });
    await context.close();
    const before = idbFolder(profile);
    context = await launch();
    page = await context.newPage();
    await page.goto(url);
    const out = await page.evaluate(async ({ compact, dbName }) => {
      const { compactIdbDatabase } = await (new Function("return import('/@id/jev-mem/browser')")() as Promise<typeof import('jev-mem/browser')>);
      const t0 = performance.now();
      const r = compact ? await compactIdbDatabase({ dbName }) : { records: 0 };
      return { records: r.records, ms: performance.now() - t0 };
    }, { compact, dbName: PROBE_DB });
    await context.close();
    const after = idbFolder(profile);
    console.log(`N=${n} compact=${compact} records=${out.records} ms=${out.ms.toFixed(0)} idbBytes ${before.bytes} -> ${after.bytes} secretFound ${before.found} -> ${after.found}`);
    return { ...out, before };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

for (const n of sizes) await run(n, true);
await server.close();
