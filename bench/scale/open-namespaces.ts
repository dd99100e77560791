/**
 * What open namespaces cost (issue 22): opens `count` namespaces of one SQLite store, writes a
 * few memories into each (heuristic System One, default Node encoder), and prints the heap and
 * RSS before and after, per namespace, first with every namespace kept open
 * (`maxOpenNamespaces` = count), then with the default bound (64), where the least recently used
 * idle namespaces are checkpointed and released.
 *
 * Run: `node --expose-gc --import tsx bench/scale/open-namespaces.ts [count=1000] [memoriesPerNamespace=3]`
 * (about 30 s per 200 namespaces × 3 on a 2-core machine, mostly the SQLite store's commits, so
 * pass a smaller count there; the store goes in a temporary folder,
 * removed at the end). Without `--expose-gc` the heap figures include garbage.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createMemory, DEFAULT_MAX_OPEN_NAMESPACES } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

const MB = 1024 * 1024;

/** Heap (after a full GC when `--expose-gc`) and RSS, bytes. */
function measure(): { heap: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

const TEXTS = [
  'I started a pottery class at the community studio.',
  'My dog Biscuit chewed the old bike chain.',
  'I am saving money for a trip to Japan in autumn.',
  'The studio raised its fees, so I joined a cheaper one.',
  'I booked flights to Osaka for October.',
];

async function run(count: number, perNamespace: number, maxOpen: number, encoder: Awaited<ReturnType<typeof createDefaultNodeEncoder>>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-open-ns-'));
  const systemOne = createHeuristicSystemOne();
  try {
    const storage = await createSqliteFileStorage({ dir });
    const memory = await createMemory({ encoder, storage, systemOne, maxOpenNamespaces: maxOpen });
    const before = measure();
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const namespace = `ns-${i}`;
      await memory.addMany(
        Array.from({ length: perNamespace }, (_, j) => ({ text: `${TEXTS[j % TEXTS.length]} (${i}.${j})`, speaker: 'Maya', sessionId: 's1' })),
        { namespace },
      );
    }
    const ms = performance.now() - started;
    const open = (await memory.stats({ namespace: `ns-${count - 1}` })).openNamespaces;
    const after = measure();
    const per = (x: number): string => `${((x / Math.max(1, open)) / 1024).toFixed(1)} KB`;
    console.log(
      `maxOpenNamespaces ${maxOpen}: ${count} namespaces × ${perNamespace} memories in ${(ms / 1000).toFixed(1)} s; open at the end ${open}; ` +
        `heap ${(before.heap / MB).toFixed(1)} → ${(after.heap / MB).toFixed(1)} MB (+${((after.heap - before.heap) / MB).toFixed(1)} MB, ${per(after.heap - before.heap)} per open namespace); ` +
        `RSS ${(before.rss / MB).toFixed(1)} → ${(after.rss / MB).toFixed(1)} MB (+${((after.rss - before.rss) / MB).toFixed(1)} MB)`,
    );
    await memory.close();
    await storage.close();
  } finally {
    await systemOne.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 1000);
  const perNamespace = Number(process.argv[3] ?? 3);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(perNamespace) || perNamespace < 1) throw new Error('usage: open-namespaces.ts [count ≥ 1] [memoriesPerNamespace ≥ 1]');
  if ((globalThis as { gc?: unknown }).gc === undefined) console.log('(run with node --expose-gc for heap figures after a full GC)');
  const encoder = await createDefaultNodeEncoder();
  try {
    await run(count, perNamespace, count, encoder);
    await run(count, perNamespace, DEFAULT_MAX_OPEN_NAMESPACES, encoder);
  } finally {
    await encoder.close?.();
  }
}

await main();
