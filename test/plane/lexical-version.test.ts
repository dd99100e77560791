/**
 * Issues 22 and 24 (h-lexver): stores written before `LEXICAL_VERSION` 4, and the namespace
 * `language` option. `fixtures/lexical-v3-cbb897b/` holds two SQLite stores written through the
 * API by commit cbb897b (LEXICAL_VERSION 3, before h-lang's rules changed the terms of German,
 * Italian … text without a new version; `fixtures/make-lexical-v3.ts`): the FTS5 engine (table
 * `jev_mem_rec_fts3_<n>`) and MiniSearch (its snapshot in the checkpoint). Opened with this
 * build, each rebuilds its lexical index from the nodes, so a question whose terms the old index
 * never held finds its memory; an erased memory's old terms are then in no table, no checkpoint
 * part and no byte of the store's files.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { ftsToken } from '../../src/plane/indexes/sql-lexical.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/lexical-v3-cbb897b');
const made = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/lexical-v3-cbb897b.json'), 'utf8')) as {
  texts: Record<'de' | 'it', string[]>;
  queries: Record<'de' | 'it', string>;
  terms: Record<'de' | 'it', { texts: string[][]; query: string[] }>;
};
const ERASED = 4; // "Meine Schwester hat Pflaumenkuchen gebracht."

let encoder: Encoder;
const dirs: string[] = [];
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
}, 60_000);
afterAll(async () => {
  await encoder?.close?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of the fixture store of `engine`. */
function copyOf(engine: 'fts5' | 'minisearch'): string {
  const dir = mkdtempSync(join(tmpdir(), `jev-mem-lexical-v3-${engine}-`));
  dirs.push(dir);
  cpSync(join(FIXTURE, engine), dir, { recursive: true });
  return dir;
}

/** Every file under `dir` whose bytes hold one of `needles`, as `file: needle`. */
function scan(dir: string, needles: string[]): string[] {
  const hits: string[] = [];
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, f);
    if (!statSync(p, { throwIfNoEntry: false })?.isFile()) continue;
    const buf = readFileSync(p);
    for (const n of needles) if (buf.includes(Buffer.from(n, 'utf8'))) hits.push(`${f}: ${n}`);
  }
  return hits;
}

const open = async (dir: string, engine: 'fts5' | 'minisearch', namespace: string, language?: string) => {
  const storage = await createSqliteFileStorage({ dir, lexical: engine, logger: () => undefined });
  const memory = await createMemory({ storage, encoder, systemOne: createHeuristicSystemOne(), namespace, logger: () => undefined, ...(language !== undefined ? { language } : {}) });
  return { storage, memory };
};

describe('a store written with LEXICAL_VERSION 3 (cbb897b)', () => {
  it('the fixture: the old index holds none of the question terms of the turn it should find', () => {
    expect(made.terms.de.texts[0]!.filter((t) => made.terms.de.query.includes(t))).toEqual([]);
    expect(made.terms.it.texts[0]!.filter((t) => made.terms.it.query.includes(t))).toEqual([]);
  });

  for (const engine of ['fts5', 'minisearch'] as const) {
    it(`${engine}: rebuilds its lexical index at open, so "Was backt Lena?" finds "Ich habe gestern Kuchen gebacken."`, async () => {
      const dir = copyOf(engine);
      const { storage, memory } = await open(dir, engine, 'de');
      try {
        // The store's own index (fts5) answers the question with the turn, through the new terms.
        if (engine === 'fts5') {
          const lex = storage.lexicalIndex('de');
          await lex!.ready?.();
          const hits = lex!.search(made.queries.de, 5, 'de');
          expect(hits.length).toBe(1);
          const [node] = await storage.getNodes('de', [hits[0]!.id]);
          expect(node?.text).toBe(made.texts.de[0]);
        }
        const r = await memory.recall(made.queries.de, { k: 1 });
        expect(r.memories.map((m) => m.text)).toEqual([made.texts.de[0]]);
        expect(r.trace.anchors.find((a) => a.id === r.memories[0]!.id)?.lexicalRank).toBe(1);
      } finally {
        await memory.close();
        await storage.close();
      }
    }, 60_000);

    it(`${engine}: an erased memory's old (version-3) terms survive in no table, checkpoint part or byte of the store`, async () => {
      const dir = copyOf(engine);
      const { storage, memory } = await open(dir, engine, 'de');
      const erased = made.texts.de[ERASED]!;
      // Terms of the erased turn only (old and new), not of any kept turn.
      const kept = new Set(made.terms.de.texts.filter((_, i) => i !== ERASED).flat());
      const own = made.terms.de.texts[ERASED]!.filter((t) => !kept.has(t) && t.length >= 5);
      expect(own).toEqual(expect.arrayContaining(['pflaumenkuchen', 'schwest']));
      // MiniSearch keeps terms as text (lexical.json), FTS5 their hashed tokens; the fixture holds them.
      const needles = engine === 'fts5' ? own.map(ftsToken) : own.map((t) => `"${t}"`);
      expect(scan(dir, needles).length).toBeGreaterThan(0);
      try {
        const all = (await memory.list({ limit: 10 })).memories;
        const id = all.find((m) => m.text === erased)!.id;
        expect(await memory.delete(id)).toBe(true);
      } finally {
        await memory.close();
        await storage.close();
      }
      const db = new sqlite.Database(join(dir, SQLITE_FILE_NAME));
      try {
        const tables = (db.all(`SELECT name FROM sqlite_master WHERE type = 'table'`) as Array<{ name: string }>).map((r) => r.name);
        expect(tables.filter((n) => /fts3/.test(n))).toEqual([]);
        if (engine === 'fts5') expect(tables.filter((n) => /^jev_mem_rec_fts5_\d+$/.test(n)).length).toBeGreaterThan(0);
      } finally {
        db.close();
      }
      expect(scan(dir, [...needles, 'Pflaumenkuchen'])).toEqual([]);
    }, 60_000);

    it(`${engine}: the namespace language 'it' reads "Insegno storia in un liceo." as Italian (rebuilt), stored with the namespace`, async () => {
      const dir = copyOf(engine);
      let { storage, memory } = await open(dir, engine, 'it');
      try {
        // Without the language the short turn reads as English: no Italian stem for the question.
        const target = (await memory.list({ limit: 10 })).memories.find((m) => m.text === made.texts.it[0])!.id;
        const before = await memory.recall(made.queries.it, { k: 1 });
        expect(before.trace.anchors.find((a) => a.id === target)?.lexicalRank ?? 0).toBe(0);
      } finally {
        await memory.close();
        await storage.close();
      }
      ({ storage, memory } = await open(dir, engine, 'it', 'it-IT'));
      try {
        const r = await memory.recall(made.queries.it, { k: 1 });
        expect(r.memories.map((m) => m.text)).toEqual([made.texts.it[0]]);
        expect(r.trace.anchors.find((a) => a.id === r.memories[0]!.id)?.lexicalRank).toBe(1);
        await memory.add({ text: 'Gioco a scacchi il sabato.', sessionId: 's1' });
        expect((await storage.loadMeta('it')).language).toBe('it-IT');
      } finally {
        await memory.close();
        await storage.close();
      }
      // Reopened without the option: the stored language applies.
      ({ storage, memory } = await open(dir, engine, 'it'));
      try {
        const r = await memory.recall(made.queries.it, { k: 1 });
        expect(r.memories.map((m) => m.text)).toEqual([made.texts.it[0]]);
      } finally {
        await memory.close();
        await storage.close();
      }
    }, 60_000);
  }
});
