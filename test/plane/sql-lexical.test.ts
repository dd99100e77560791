/**
 * The store-kept FTS5 lexical index of the SQL store (`sql-lexical.ts`, kept by the SQL record driver `record-sql-lexical.ts`, with
 * `lexical: 'fts5'`), on the Node SQLite file store: same terms as MiniSearch, BM25 as FTS5
 * computes it (checked by hand), maintained by commits, erased by deletes.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { createLexicalIndex, lexicalTerms, type LexicalSnapshot } from '../../src/plane/indexes/lexical.js';
import { ftsToken, ftsTableName, FTS_LEXICAL_FORMAT } from '../../src/plane/indexes/sql-lexical.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { MemoryNode } from '../../src/types.js';
import { makeNode } from './fixtures.js';

const root = await mkdtemp(join(tmpdir(), 'jev-mem-fts-'));
let counter = 0;
const freshDir = (): string => join(root, `store-${++counter}`);
afterAll(() => rm(root, { recursive: true, force: true }));

/** A node without a speaker (so that only its text is indexed). */
const bare = (id: string, seq: number, text: string): MemoryNode => {
  const n = makeNode('ns', id, seq, text);
  n.provenance = { sessionId: 's1' };
  return n;
};

/** Rows of one query on the store's database file, opened read-only by a second connection. */
function inFile<T>(dir: string, fn: (db: InstanceType<typeof sqlite.Database>) => T): T {
  const db = new sqlite.Database(join(dir, SQLITE_FILE_NAME));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const TEXTS = [
  'When did Caroline go to the LGBTQ support group?',
  'Wir sind gestern mit den Kindern nach München gefahren.',
  "Nous sommes allés à l'exposition avec les enfants hier soir.",
  'Fuimos a Málaga con los niños y comimos paella en la playa.',
  '昨日は子供たちと東京の美術館に行きました。',
  'Party tonight 🎉🎉 with the crew 👩‍👩‍👧 ❤️',
  'Crème brûlée at the café in Zürich, straße and façade.',
];

describe('FTS5 lexical index of the SQL store', () => {
  it('indexes exactly the terms MiniSearch indexes, with the same counts (en/de/fr/es/ja/emoji/diacritics)', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir, lexical: 'fts5' });
    for (const [i, text] of TEXTS.entries()) {
      const mini = createLexicalIndex();
      mini.add({ id: 'x', text, speaker: 'Zoë' });
      // MiniSearch's term → field → doc → term frequency
      const snap = mini.toJSON() as LexicalSnapshot;
      const miniCounts = new Map<string, number>();
      for (const [term, fields] of snap.minisearch.index as Array<[string, Record<string, Record<string, number>>]>) {
        for (const docs of Object.values(fields)) for (const tf of Object.values(docs)) miniCounts.set(term, (miniCounts.get(term) ?? 0) + tf);
      }
      const ours = [...lexicalTerms(text), ...lexicalTerms('Zoë')];
      const ourCounts = new Map<string, number>();
      for (const t of ours) ourCounts.set(t, (ourCounts.get(t) ?? 0) + 1);
      expect(ourCounts, text).toEqual(miniCounts);

      await s.commit(`n${i}`, { putNodes: [{ ...makeNode(`n${i}`, 'x', 1, text), provenance: { speaker: 'Zoë' } }] });
    }
    await s.close();
    // The FTS vocabulary of each namespace holds the hashed tokens of those terms, each as often.
    inFile(dir, (db) => {
      for (const [i, text] of TEXTS.entries()) {
        const ns = Number((db.get('SELECT n FROM jev_mem_rec_lex WHERE ns = ?', [new TextEncoder().encode(`n${i}`)]) as { n: number }).n);
        db.exec(`CREATE VIRTUAL TABLE temp.v${i} USING fts5vocab(main, ${ftsTableName('jev_mem_rec_', ns)}, 'row')`);
        const vocab = new Map((db.all(`SELECT term, cnt FROM temp.v${i}`) as Array<{ term: string; cnt: number }>).map((r) => [r.term, r.cnt]));
        const want = new Map<string, number>();
        for (const t of [...lexicalTerms(text), ...lexicalTerms('Zoë')]) want.set(ftsToken(t), (want.get(ftsToken(t)) ?? 0) + 1);
        expect(vocab, text).toEqual(want);
      }
    });
  });

  it('ranks by BM25 as computed by hand on a tiny corpus (k1 = 1.2, b = 0.75, FTS5 idf)', async () => {
    const s = await createSqliteFileStorage({ dir: freshDir(), lexical: 'fts5' });
    // "kiwi", "lime", "fig", "grape", "pear" are their own Porter stems; no stop words.
    await s.commit('ns', { putNodes: [bare('a', 1, 'kiwi kiwi lime'), bare('b', 2, 'lime fig'), bare('c', 3, 'fig'), bare('d', 4, 'grape'), bare('e', 5, 'pear')] });
    const lex = s.lexicalIndex('ns')!;
    // N = 5, avgdl = (3+2+1+1+1)/5 = 1.6.
    // idf(kiwi, n=1) = ln(4.5/1.5) = 1.0986123; idf(lime, n=2) = idf(fig, n=2) = ln(3.5/2.5) = 0.3364722.
    // a: kiwi f=2, |D|=3: 1.0986123·2·2.2/(2 + 1.2·(0.25 + 0.75·3/1.6)) = 1.0986123·4.4/3.9875 = 1.2122616
    //    lime f=1:        0.3364722·2.2/2.9875 = 0.2477799                       → 1.4600415
    // b: lime, fig f=1, |D|=2: 2 · 0.3364722·2.2/(1 + 1.2·(0.25 + 0.75·2/1.6)) = 2 · 0.3364722·2.2/2.425 = 0.6105051
    // c: fig f=1, |D|=1: 0.3364722·2.2/(1 + 1.2·(0.25 + 0.75/1.6)) = 0.3364722·2.2/1.8625 = 0.3974397
    const hits = lex.search('Kiwi, lime and figs?', 10);
    expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(hits[0]?.score).toBeCloseTo(1.4600415, 5);
    expect(hits[1]?.score).toBeCloseTo(0.6105051, 5);
    expect(hits[2]?.score).toBeCloseTo(0.3974397, 5);
    expect(lex.search('kiwi lime fig', 2).map((h) => h.id)).toEqual(['a', 'b']);
    expect(lex.search('the and of', 10)).toEqual([]);
    expect(lex.search('', 10)).toEqual([]);
    expect(() => lex.search('kiwi', -1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'k' }));
    // equal scores: ties by slot (write order here)
    expect(lex.search('grape pear', 10).map((h) => h.id)).toEqual(['d', 'e']);
    expect(lex.size).toBe(5);
    expect(lex.has('a')).toBe(true);
    expect(lex.has('zz')).toBe(false);
    expect(lex.toJSON()).toEqual({ format: FTS_LEXICAL_FORMAT, namespace: 'ns' });
    await s.close();
  });

  it('searches the speaker too, and a short query in the language it is given', async () => {
    const s = await createSqliteFileStorage({ dir: freshDir(), lexical: 'fts5' });
    await s.commit('ns', { putNodes: [{ ...bare('a', 1, 'went hiking'), provenance: { speaker: 'Melanie' } }, bare('b', 2, 'die Kinder spielen')] });
    const lex = s.lexicalIndex('ns')!;
    expect(lex.search('Melanie', 5).map((h) => h.id)).toEqual(['a']);
    // "Kinder" alone: German given → its German terms as MiniSearch would use them
    expect(lex.search('Kinder', 5, 'de').map((h) => h.id)).toEqual(['b']);
    await s.close();
  });

  it('commits maintain it: a changed text replaces its terms, status deleted and deleteNodeIds remove, namespaces apart', async () => {
    const s = await createSqliteFileStorage({ dir: freshDir(), lexical: 'fts5' });
    await s.commit('ns', { putNodes: [bare('a', 1, 'kiwi'), bare('b', 2, 'lime'), bare('c', 3, 'fig')] });
    await s.commit('other', { putNodes: [{ ...bare('z', 1, 'kiwi'), namespace: 'other' }] });
    const lex = s.lexicalIndex('ns')!;
    await s.commit('ns', { putNodes: [bare('a', 1, 'mango')] });
    expect(lex.search('kiwi', 5).map((h) => h.id)).toEqual([]);
    expect(lex.search('mango', 5).map((h) => h.id)).toEqual(['a']);
    await s.commit('ns', { putNodes: [{ ...bare('b', 2, 'lime'), status: 'deleted' }] });
    expect(lex.has('b')).toBe(false);
    expect(lex.search('lime', 5)).toEqual([]);
    await s.commit('ns', { putNodes: [{ ...bare('b', 2, 'lime'), status: 'active' }] });
    expect(lex.search('lime', 5).map((h) => h.id)).toEqual(['b']);
    await s.commit('ns', { deleteNodeIds: ['c'] });
    expect(lex.search('fig', 5)).toEqual([]);
    expect(lex.size).toBe(2);
    expect(s.lexicalIndex('other')!.search('kiwi', 5).map((h) => h.id)).toEqual(['z']);
    await s.dropNamespace('other');
    expect(s.lexicalIndex('other')!.search('kiwi', 5)).toEqual([]);
    await s.close();
  });

  it('a delete leaves no hashed token of the deleted text in the store files', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir, lexical: 'fts5' });
    const gone = 'zanzibarian quokkafest';
    await s.commit('ns', { putNodes: [bare('a', 1, gone), bare('b', 2, 'kept words here')] });
    await s.commit('ns', { putNodes: Array.from({ length: 50 }, (_, i) => bare(`f${i}`, 10 + i, `filler number ${i} and words`)) });
    const tokens = lexicalTerms(gone).map(ftsToken);
    expect(tokens).toHaveLength(2);
    // FTS5 writes a term after the prefix it shares with the previous term of its page: the
    // last 6 characters of a random base-36 token are in the file whenever the term is.
    const tails = tokens.map((t) => t.slice(-6));
    const holds = async (needle: string): Promise<boolean> => {
      for (const f of await readdir(dir)) if (f.startsWith(SQLITE_FILE_NAME) && (await readFile(join(dir, f))).includes(Buffer.from(needle))) return true;
      return false;
    };
    await s.close();
    for (const t of tails) expect(await holds(t), t).toBe(true);
    const again = await createSqliteFileStorage({ dir, lexical: 'fts5' });
    await again.commit('ns', { deleteNodeIds: ['a'] });
    expect(again.lexicalIndex('ns')!.search(gone, 5)).toEqual([]);
    await again.close();
    for (const t of tails) expect(await holds(t), t).toBe(false);
    expect(await holds(ftsToken('kept').slice(-6))).toBe(true);
    // and the index's vocabulary no longer lists them
    const vocab = inFile(dir, (db) => {
      db.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, ${ftsTableName('jev_mem_rec_', 1)}, 'row')`);
      return (db.all('SELECT term FROM temp.v') as Array<{ term: string }>).map((r) => r.term);
    });
    expect(vocab).toContain(ftsToken('kept'));
    for (const t of tokens) expect(vocab).not.toContain(t);
  });

  it('switching engines: a MiniSearch store gets its FTS index built at the first search; a MiniSearch commit drops it', async () => {
    const dir = freshDir();
    const mini = await createSqliteFileStorage({ dir, lexical: 'minisearch' });
    expect(mini.lexicalIndex('ns')).toBeUndefined();
    await mini.commit('ns', { putNodes: [bare('a', 1, 'kiwi'), { ...bare('b', 2, 'kiwi lime'), status: 'deleted' }] });
    await mini.close();
    const fts = await createSqliteFileStorage({ dir, lexical: 'fts5' });
    expect(fts.lexicalIndex('ns')!.search('kiwi', 5).map((h) => h.id)).toEqual(['a']);
    await fts.close();
    const table = inFile(dir, (db) => db.all(`SELECT name FROM sqlite_master WHERE name LIKE 'jev_mem_rec_fts%'`).length);
    expect(table).toBeGreaterThan(0);
    const back = await createSqliteFileStorage({ dir, lexical: 'minisearch' });
    await back.commit('ns', { putNodes: [bare('c', 3, 'fig')] });
    await back.close();
    expect(inFile(dir, (db) => db.all(`SELECT name FROM sqlite_master WHERE name LIKE 'jev_mem_rec_fts%'`))).toEqual([]);
    const fts2 = await createSqliteFileStorage({ dir, lexical: 'fts5' });
    expect(fts2.lexicalIndex('ns')!.search('kiwi fig', 5).map((h) => h.id).sort()).toEqual(['a', 'c']);
    await fts2.close();
  });

  it('refuses an unknown engine naming the option', async () => {
    await expect(createSqliteFileStorage({ dir: freshDir(), lexical: 'lucene' as 'fts5' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'lexical' });
  });
});
