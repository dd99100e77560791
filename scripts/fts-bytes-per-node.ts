/**
 * Bytes per node of the store-kept FTS5 lexical index (issue 13): the LoCoMo turns (all ten
 * conversations, repeated with a counter word until `nodes`) written as nodes with speaker into two
 * SQLite stores, `lexical: 'minisearch'` (no FTS table) and `lexical: 'fts5'`; prints the file
 * sizes, their difference per node, and the FTS shadow tables' bytes (`<fts>_data` blocks,
 * `_docsize`, `_idx`).
 *
 *   npx tsx scripts/fts-bytes-per-node.ts [nodes=10000] [locomo10.json]
 */
import { readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { ftsTableName } from '../src/plane/indexes/sql-lexical.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../src/plane/store/sqlite-file-storage.js';
import type { MemoryNode } from '../src/types.js';

const total = Number(process.argv[2] ?? 10_000);
const dataPath = process.argv[3] ?? join(process.cwd(), '../shared/data/locomo10.json');
const data = JSON.parse(await readFile(dataPath, 'utf8')) as Array<{ conversation: Record<string, unknown> }>;
const turns: Array<{ speaker: string; text: string }> = [];
for (const s of data) for (const [k, v] of Object.entries(s.conversation)) if (/^session_\d+$/.test(k) && Array.isArray(v)) for (const t of v as Array<{ speaker: string; text: string }>) turns.push({ speaker: t.speaker, text: t.text });

const node = (i: number): MemoryNode => {
  const t = turns[i % turns.length] as { speaker: string; text: string };
  return {
    id: `n${i}`, namespace: 'ns', text: i < turns.length ? t.text : `${t.text} r${Math.floor(i / turns.length)}`,
    ingestedAt: '2024-01-01T00:00:00.000Z', provenance: { speaker: t.speaker }, entities: [], keywords: [], timeRefs: [],
    types: { episodic: 1, semantic: 0, procedural: 0, preference: 0 }, embedding: { encoder: 'e', vector: [] }, status: 'active', supersededBy: [], seq: i + 1,
  };
};

const sizes: Record<string, number> = {};
for (const lexical of ['minisearch', 'fts5'] as const) {
  const dir = await mkdtemp(join(tmpdir(), 'jev-mem-fts-bytes-'));
  const s = await createSqliteFileStorage({ dir, lexical });
  const t0 = performance.now();
  for (let i = 0; i < total; i += 64) await s.commit('ns', { putNodes: Array.from({ length: Math.min(64, total - i) }, (_, j) => node(i + j)) });
  const ms = performance.now() - t0;
  let q = 0;
  if (lexical === 'fts5') {
    const lex = s.lexicalIndex!('ns');
    const q0 = performance.now();
    for (let i = 0; i < 200; i++) lex.search((turns[(i * 37) % turns.length] as { text: string }).text, 30);
    q = (performance.now() - q0) / 200;
  }
  await s.close();
  sizes[lexical] = (await stat(join(dir, SQLITE_FILE_NAME))).size;
  if (lexical === 'fts5') {
    const db = new sqlite.Database(join(dir, SQLITE_FILE_NAME));
    const t = ftsTableName('jev_mem_', 1);
    const one = (sql: string): number => Number((db.get(sql) as { n: number }).n);
    console.log(`fts shadow tables: _data ${one(`SELECT SUM(length(block)) AS n FROM ${t}_data`)} B, _docsize ${one(`SELECT SUM(length(sz)) + 8 * COUNT(*) AS n FROM ${t}_docsize`)} B (with rowids), _idx rows ${one(`SELECT COUNT(*) AS n FROM ${t}_idx`)}`);
    db.close();
  }
  console.log(`${lexical}: ${total} nodes, file ${sizes[lexical]} B (${(sizes[lexical] / total).toFixed(0)} B/node), ${(total / (ms / 1000)).toFixed(0)} nodes/s${q ? `, search of a turn's text (k=30) ${q.toFixed(2)} ms` : ''}`);
  await rm(dir, { recursive: true, force: true });
}
console.log(`FTS5 costs ${(((sizes.fts5 as number) - (sizes.minisearch as number)) / total).toFixed(0)} bytes/node of file`);
