/**
 * Issue 22 (h-langfix, a regression of h-lexver): changing a namespace's `language` rebuilds its
 * store-kept FTS5 table (`jev_mem_rec_fts5<lang>_<n>`) and drops the table of the old language in
 * the same transaction. 91c30ab's drop matched only language-less names, so the old language's
 * table stayed: the next open asking for the new language found the old table first, rebuilt,
 * and failed with "table … already exists" (STORAGE_FAILED) for good; the stale table also kept
 * the terms of memories erased later. Every sequence of opens (none, es, de, es again, none) here
 * reads and writes, leaves one table, keeps no erased term, and a store left with two tables by
 * 91c30ab opens.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { lexicalTerms } from '../../src/plane/indexes/lexical.js';
import { createFtsTable, ftsToken } from '../../src/plane/indexes/sql-lexical.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

let encoder: Encoder;
const dirs: string[] = [];
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
}, 60_000);
afterAll(async () => {
  await encoder?.close?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const fresh = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-langfix-'));
  dirs.push(dir);
  return dir;
};

/**
 * Opens the store's namespace "default" (FTS5 engine unless `lexical`) with `language`, runs `fn`,
 * closes. Each change here is deliberate: `changeLanguage: true` (without it another language
 * than the stored one is refused, LANGUAGE_MISMATCH: test/api/language-mismatch.test.ts).
 */
async function withMemory(dir: string, language: string | undefined, fn: (m: Awaited<ReturnType<typeof createMemory>>) => Promise<void>, lexical: 'fts5' | 'minisearch' = 'fts5'): Promise<void> {
  const storage = await createSqliteFileStorage({ dir, lexical, logger: () => undefined });
  const memory = await createMemory({ storage, encoder, systemOne: createHeuristicSystemOne(), logger: () => undefined, ...(language !== undefined ? { language, changeLanguage: true } : {}) });
  try {
    await fn(memory);
  } finally {
    await memory.close();
    await storage.close();
  }
}

/** The FTS5 tables of the store (shadow tables left out). */
function ftsTables(dir: string): string[] {
  const db = new sqlite.Database(join(dir, SQLITE_FILE_NAME));
  try {
    return (db.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'jev_mem_rec_fts*'`) as Array<{ name: string }>).map((r) => r.name).filter((n) => /_fts\d+[a-z]*_\d+$/.test(n));
  } finally {
    db.close();
  }
}

const SEVILLA = 'Vivo en Sevilla.';
let day = 0;
const add = (m: Awaited<ReturnType<typeof createMemory>>, text: string) => m.add({ text, sessionId: 's1', observedAt: Date.UTC(2024, 3, 1 + day++) });
const recallTexts = async (m: Awaited<ReturnType<typeof createMemory>>, q: string) => (await m.recall(q, { k: 5 })).memories.map((x) => x.text);

describe('a namespace whose language changes (FTS5 store)', () => {
  it('es → de (write) → none → de → es → none: every open reads and writes, one table is left', async () => {
    const dir = fresh();
    await withMemory(dir, 'es', (m) => add(m, SEVILLA));
    expect(ftsTables(dir)).toEqual(['jev_mem_rec_fts5es_1']);
    await withMemory(dir, 'de', (m) => add(m, 'Ich habe eine Katze.'));
    expect(ftsTables(dir)).toEqual(['jev_mem_rec_fts5de_1']);
    const texts = [SEVILLA, 'Ich habe eine Katze.'];
    const steps = [
      [undefined, 'Mi padre cultiva tomates.', 'tomates'],
      ['de', 'Ich spiele Gitarre im Orchester.', 'Gitarre'],
      ['es', 'Me gusta nadar en el mar.', 'nadar'],
      [undefined, 'Mi abuela vive en Granada.', 'Granada'],
    ] as const;
    for (const [language, text, query] of steps) {
      await withMemory(dir, language, async (m) => {
        expect(await recallTexts(m, 'Sevilla')).toContain(SEVILLA);
        await add(m, text);
        texts.push(text);
        expect(await recallTexts(m, query)).toContain(text);
      });
      // Without the option the namespace keeps the language stored at its last write.
      expect(ftsTables(dir)).toEqual([`jev_mem_rec_fts5${language ?? (texts.length <= 4 ? 'de' : 'es')}_1`]);
    }
    await withMemory(dir, undefined, async (m) => {
      expect((await m.list({ limit: 20 })).memories.map((x) => x.text).sort()).toEqual([...texts].sort());
    });
  }, 120_000);

  it('es → de read only → de write → none: reads and writes', async () => {
    const dir = fresh();
    await withMemory(dir, 'es', (m) => add(m, SEVILLA));
    await withMemory(dir, 'de', async (m) => {
      expect(await recallTexts(m, 'Sevilla')).toContain(SEVILLA);
    });
    expect(ftsTables(dir)).toEqual(['jev_mem_rec_fts5de_1']);
    await withMemory(dir, 'de', (m) => add(m, 'Ich habe eine Katze.'));
    await withMemory(dir, undefined, async (m) => {
      await add(m, 'Otra cosa.');
      expect(await recallTexts(m, 'Sevilla')).toContain(SEVILLA);
    });
    expect(ftsTables(dir)).toHaveLength(1);
  }, 120_000);

  it("an erased memory's terms of the old language survive in no table or byte of the store", async () => {
    const dir = fresh();
    const erased = 'Mi hermana trajo un pastel de ciruelas.';
    await withMemory(dir, 'es', async (m) => {
      await add(m, SEVILLA);
      await add(m, erased);
    });
    await withMemory(dir, 'de', (m) => add(m, 'Ich habe eine Katze.'));
    const own = [...new Set([...lexicalTerms(erased, 'es'), ...lexicalTerms(erased, 'de')])].filter((t) => t.length >= 5 && !lexicalTerms(SEVILLA, 'es').includes(t));
    expect(own.length).toBeGreaterThan(1);
    const needles = own.map(ftsToken);
    await withMemory(dir, 'de', async (m) => {
      const id = (await m.list({ limit: 10 })).memories.find((x) => x.text === erased)!.id;
      expect(await m.delete(id)).toBe(true);
    });
    const hits: string[] = [];
    for (const f of readdirSync(dir, { recursive: true }) as string[]) {
      const p = join(dir, f);
      if (!statSync(p, { throwIfNoEntry: false })?.isFile()) continue;
      const buf = readFileSync(p);
      for (const n of [...needles, 'ciruelas']) if (buf.includes(Buffer.from(n, 'utf8'))) hits.push(`${f}: ${n}`);
    }
    expect(hits).toEqual([]);
  }, 120_000);

  it('a store left by 91c30ab with the tables of two languages opens, reads and writes, and keeps one', async () => {
    const dir = fresh();
    await withMemory(dir, 'es', (m) => add(m, SEVILLA));
    // What 91c30ab left after an 'es' store was written with 'de': the new table beside the old.
    const db = new sqlite.Database(join(dir, SQLITE_FILE_NAME));
    try {
      createFtsTable((sql, params) => db.all(sql, params as never) as never, 'jev_mem_rec_fts5de_1');
    } finally {
      db.close();
    }
    expect(ftsTables(dir).sort()).toEqual(['jev_mem_rec_fts5de_1', 'jev_mem_rec_fts5es_1']);
    for (const language of ['de', undefined, 'es']) {
      await withMemory(dir, language, async (m) => {
        expect(await recallTexts(m, 'Sevilla')).toContain(SEVILLA);
        await add(m, `Nota ${language ?? 'none'}.`);
      });
      expect(ftsTables(dir)).toHaveLength(1);
    }
  }, 120_000);

  it('MiniSearch (its index in the checkpoint): the same sequence of opens reads and writes', async () => {
    const dir = fresh();
    const texts: string[] = [];
    for (const [language, text, query] of [
      ['es', SEVILLA, 'Sevilla'],
      ['de', 'Ich spiele Gitarre im Orchester.', 'Gitarre'],
      [undefined, 'Mi padre cultiva tomates.', 'tomates'],
      ['es', 'Me gusta nadar en el mar.', 'nadar'],
      [undefined, 'Mi abuela vive en Granada.', 'Granada'],
    ] as const) {
      await withMemory(
        dir,
        language,
        async (m) => {
          if (texts.length > 0) expect(await recallTexts(m, 'Sevilla')).toContain(SEVILLA);
          await add(m, text);
          texts.push(text);
          expect(await recallTexts(m, query)).toContain(text);
        },
        'minisearch',
      );
    }
    expect(ftsTables(dir)).toEqual([]);
  }, 120_000);
});
