/**
 * What a lexical index rebuild costs (issues 22, 24: `LEXICAL_VERSION` 4, the namespace
 * `language` option): a store whose index is of an older version or another language rebuilds
 * it from its nodes at first use. `size` LoCoMo-derived turns (`scaleObservations`, as
 * `bench scale`) are written as node records straight into a SQLite store without an FTS5 table
 * (`lexical: 'minisearch'`); it is then opened with `lexical: 'fts5'` and the first `ready()` of
 * the namespace's index, which builds the table from every node record, is timed. Then the
 * MiniSearch side: the same texts added to an empty `createLexicalIndex()` (the lexical part of
 * a rescan; the rescan also rebuilds the directory and the vector index). Wall and CPU ms
 * (user + system of the process), one process.
 *
 *   nice -n 10 npx tsx bench/scale/lexical-rebuild.ts <size> [--data locomo10.json]
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { MemoryNode } from '../../src/types.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { scaleObservations } from './scale.js';

const size = Number(process.argv[2] ?? 10_000);
const dataAt = process.argv.indexOf('--data');
const data = await loadLocomo(dataAt > 0 ? (process.argv[dataAt + 1] as string) : defaultLocomoPath());
const texts = scaleObservations(data.conversations, size).map((o) => o.text);
const node = (i: number): MemoryNode => ({
  id: `n${i}`,
  namespace: 'ns',
  text: texts[i] as string,
  observedAt: '2023-05-08T13:56:00.000Z',
  ingestedAt: '2024-01-01T00:00:00.000Z',
  provenance: { speaker: i % 2 === 0 ? 'Caroline' : 'Melanie', sessionId: `s${i >> 6}` },
  entities: [],
  keywords: [],
  timeRefs: [],
  types: { episodic: 0.9, semantic: 0.2, procedural: 0.05, preference: 0.1 },
  embedding: { encoder: 'bench@1', vector: [0.6, 0.8] },
  status: 'active',
  supersededBy: [],
  seq: i + 1,
});
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-lexical-rebuild-'));
try {
  let storage = await createSqliteFileStorage({ dir, lexical: 'minisearch', logger: () => undefined });
  for (let i = 0; i < size; i += 1000) {
    await storage.commit('ns', { putNodes: Array.from({ length: Math.min(1000, size - i) }, (_, j) => node(i + j)), change: i / 1000 + 1 });
  }
  await storage.close();
  storage = await createSqliteFileStorage({ dir, lexical: 'fts5', logger: () => undefined });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const lex = storage.lexicalIndex('ns');
  await lex?.ready?.();
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  const hits = lex?.search('support group', 10).length;
  await storage.close();
  const c2 = process.cpuUsage();
  const t2 = performance.now();
  const mini = createLexicalIndex();
  for (let i = 0; i < size; i += 1) mini.add({ id: `n${i}`, text: texts[i] as string, speaker: i % 2 === 0 ? 'Caroline' : 'Melanie' });
  const t3 = performance.now();
  const c3 = process.cpuUsage(c2);
  const cpu = (c: NodeJS.CpuUsage): string => ((c.user + c.system) / 1000).toFixed(0);
  console.log(`${size} nodes: FTS5 table rebuild ${(t1 - t0).toFixed(0)} ms wall / ${cpu(c1)} ms CPU (${hits} hits after), MiniSearch rebuild ${(t3 - t2).toFixed(0)} ms wall / ${cpu(c3)} ms CPU`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
