/**
 * The SQL record driver's own behaviour (issue 22), beyond the record-driver contract
 * (record-driver.test.ts runs that on it): the value codec, values cut in 1 MiB chunks, the key
 * order, a transaction's reads over its own writes, rollback, and the FTS5 upkeep of node records.
 */
import { describe, expect, it } from 'vitest';
import { RECORD_CHUNK_BYTES, createSqlRecordDriver } from '../../src/plane/drivers/record-sql.js';
import { decodeRecordValue, encodeRecordValue } from '../../src/plane/drivers/record-sql-codec.js';
import { FTS_ONE_STATEMENT_TERMS, ftsMatch, ftsQueryTokens, ftsSearch } from '../../src/plane/indexes/sql-lexical.js';
import { toNodeRecord } from '../../src/plane/store/record-codec.js';
import { makeNode } from './fixtures.js';
import { memorySqlConnection } from './sql-connection.js';

const open = (lexical: 'fts5' | 'none' = 'fts5') => {
  const conn = memorySqlConnection();
  const driver = createSqlRecordDriver(conn, { prefix: 'jev_mem_', label: 'the test SQL store', lexical, importLegacy: async () => ({ finish: () => undefined }), vacuum: false });
  return { conn, driver };
};

describe('the SQL record codec', () => {
  it('gives back JSON data, byte arrays, other typed arrays and strings that begin with U+0000 as they were', () => {
    const value = {
      s: '\u0000b0', // a string that looks like an array reference
      t: '\u0000\u0000x',
      bytes: new Uint8Array([1, 2, 3]),
      buffer: Buffer.from([9, 8]),
      floats: new Float32Array([0.5, -2]),
      nested: [{ n: 1.25, none: null, yes: true, list: ['a', 'é', '日本'] }],
    };
    const back = decodeRecordValue(encodeRecordValue(value)) as typeof value;
    expect(back.s).toBe('\u0000b0');
    expect(back.t).toBe('\u0000\u0000x');
    expect(back.bytes).toEqual(new Uint8Array([1, 2, 3]));
    expect(back.buffer).toEqual(new Uint8Array([9, 8]));
    expect(back.floats).toBeInstanceOf(Float32Array);
    expect([...back.floats]).toEqual([0.5, -2]);
    expect(back.nested).toEqual(value.nested);
  });

  it('gives back a value without byte arrays or tagged strings as it was, and an own __proto__ member as data', () => {
    const plain = { a: [1, 'x', { b: null }], c: 'back\\u0000slash' };
    expect(decodeRecordValue(encodeRecordValue(plain))).toEqual(plain);
    const back = decodeRecordValue(encodeRecordValue(JSON.parse('{"__proto__": "\\u0000\\u0000p", "w": [1]}'))) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toBe('\u0000\u0000p');
    expect(back.w).toEqual([1]);
  });

  it('decodes a value given as its chunks, cut anywhere (inside the header, the JSON, an array header, an array), as the whole BLOB', () => {
    const value = { name: 'x', parts: { a: new Uint8Array([1, 2, 3, 4, 5]), b: new Uint8Array(0), f: new Float64Array([1.5]) } };
    const blob = encodeRecordValue(value);
    for (let cut = 1; cut < blob.length; cut++) {
      for (const second of [cut + 1, Math.floor((cut + blob.length) / 2)]) {
        const chunks = [blob.subarray(0, cut), blob.subarray(cut, Math.max(cut, Math.min(second, blob.length))), blob.subarray(Math.max(cut, Math.min(second, blob.length)))];
        const back = decodeRecordValue(chunks) as typeof value;
        expect(back.name).toBe('x');
        expect([...back.parts.a]).toEqual([1, 2, 3, 4, 5]);
        expect(back.parts.a.byteLength).toBe(back.parts.a.buffer.byteLength); // owns its bytes
        expect(back.parts.b.byteLength).toBe(0);
        expect([...back.parts.f]).toEqual([1.5]);
      }
    }
    expect(() => decodeRecordValue([blob.subarray(0, 10), blob.subarray(10, blob.length - 2)])).toThrow(/cut inside an array/);
  });

  it('refuses what structured clone refuses (a function, a BigInt) with a DataCloneError, and a cut BLOB with an error', () => {
    expect(() => encodeRecordValue({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    expect(() => encodeRecordValue({ n: 1n })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    const blob = encodeRecordValue({ b: new Uint8Array(10) });
    expect(() => decodeRecordValue(blob.subarray(0, blob.length - 3))).toThrow(/cut inside an array/);
  });
});

describe('the SQL record driver', () => {
  it('keeps a value over 1 MiB in chunks and gives it back whole, by get and by scan; a smaller one replacing it leaves no chunk', async () => {
    const { conn, driver } = open();
    const big = new Uint8Array(RECORD_CHUNK_BYTES * 2 + 17).map((_, i) => i % 253);
    await driver.transaction(['checkpoints'], 'write', async (tx) => tx.put('checkpoints', 'ns', '', { parts: { big } }));
    expect(conn.query(`SELECT COUNT(*) AS n FROM jev_mem_rec WHERE tbl = 5`)[0]!.n).toBe(3);
    const got = (await driver.transaction(['checkpoints'], 'read', async (tx) => tx.get('checkpoints', 'ns', ''))) as { parts: { big: Uint8Array } };
    expect(Buffer.compare(got.parts.big, big)).toBe(0); // (toEqual on 2 MiB of bytes is slow)
    const scanned = await driver.transaction(['checkpoints'], 'read', async (tx) => tx.scan('checkpoints', 'ns', undefined, 10));
    expect(Buffer.compare((scanned[0]![1] as { parts: { big: Uint8Array } }).parts.big, big)).toBe(0);
    await driver.transaction(['checkpoints'], 'write', async (tx) => tx.put('checkpoints', 'ns', '', { parts: {} }));
    expect(conn.query(`SELECT COUNT(*) AS n FROM jev_mem_rec WHERE tbl = 5`)[0]!.n).toBe(1);
  });

  it('reads the gets issued together by one statement per namespace (96 keys at most each), each answered as a get alone would be', async () => {
    const { conn, driver } = open();
    const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);
    await driver.transaction(['meta'], 'write', async (tx) => {
      keys.forEach((k, i) => tx.put('meta', 'a', k, { i }));
      tx.put('meta', 'b', 7, 'seven');
    });
    const before = conn.statements;
    let mostBindings = 0;
    const query = conn.query.bind(conn);
    conn.query = (sql, params = []) => {
      mostBindings = Math.max(mostBindings, params.length);
      return query(sql, params);
    };
    const [many, other] = await driver.transaction(['meta'], 'read', async (tx) =>
      Promise.all([Promise.all([...keys, 'k0', 'absent', 7].map((k) => tx.get('meta', 'a', k))), Promise.all([tx.get('meta', 'b', 7), tx.get('meta', 'b', '7')])]),
    );
    // 301 distinct keys of namespace a: 3 × 96 + 13 (bound as 16); namespace b: 2 keys (bound as 4)
    expect(conn.statements - before).toBe(5);
    expect(mostBindings).toBe(98); // the Durable Object allows 100 bindings per statement
    expect(many.slice(0, 300)).toEqual(keys.map((_, i) => ({ i })));
    expect(many.slice(300)).toEqual([{ i: 0 }, undefined, undefined]);
    expect(other).toEqual(['seven', undefined]);
    // A write transaction's gets see its own writes over the database's records.
    const seen = await driver.transaction(['meta'], 'write', async (tx) => {
      tx.put('meta', 'a', 'k1', { i: -1 });
      tx.delete('meta', 'a', 'k2');
      return Promise.all(['k1', 'k2', 'k3'].map((k) => tx.get('meta', 'a', k)));
    });
    expect(seen).toEqual([{ i: -1 }, undefined, { i: 3 }]);
  });

  it('orders keys numbers first, then strings, and keeps a U+0000 inside a key or namespace whole', async () => {
    const { driver } = open();
    await driver.transaction(['meta'], 'write', async (tx) => {
      for (const k of ['b', 'a\u0000z', 'a', 10, 2]) tx.put('meta', 'n\u0000s', k, String(k));
      tx.put('meta', 'n', 'a', 'other');
    });
    const rows = await driver.transaction(['meta'], 'read', async (tx) => tx.scan('meta', 'n\u0000s', undefined, Infinity));
    expect(rows.map(([k]) => k)).toEqual([2, 10, 'a', 'a\u0000z', 'b']);
    expect(await driver.transaction(['meta'], 'read', async (tx) => tx.namespaces('meta'))).toEqual(['n', 'n\u0000s']);
    expect(await driver.transaction(['meta'], 'read', async (tx) => tx.get('meta', 'n', 'a'))).toBe('other');
  });

  it('lets a write transaction read its own writes (a put after a range delete included), and keeps nothing when its work throws', async () => {
    const { driver } = open();
    await driver.transaction(['changes'], 'write', async (tx) => {
      for (const c of [1, 2, 3]) tx.put('changes', 'ns', c, [`n${c}`]);
    });
    const seen = await driver.transaction(['changes'], 'write', async (tx) => {
      tx.deleteRange('changes', 'ns', 2);
      tx.put('changes', 'ns', 1, ['again']);
      tx.put('changes', 'ns', 4, ['n4']);
      return { one: await tx.get('changes', 'ns', 1), two: await tx.get('changes', 'ns', 2), all: await tx.scan('changes', 'ns', undefined, Infinity) };
    });
    expect(seen).toEqual({ one: ['again'], two: undefined, all: [[1, ['again']], [3, ['n3']], [4, ['n4']]] });
    await expect(
      driver.transaction(['changes'], 'write', async (tx) => {
        tx.deleteRange('changes', 'ns', undefined);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await driver.transaction(['changes'], 'read', async (tx) => tx.scan('changes', 'ns', undefined, Infinity))).map(([k]) => k)).toEqual([1, 3, 4]);
  });

  it('keeps the FTS5 index of node records in step: put, replace, status deleted, delete, namespace dropped', async () => {
    const { conn, driver } = open('fts5');
    const put = (node: ReturnType<typeof makeNode>) => driver.transaction(['node'], 'write', async (tx) => tx.put('node', 'ns', node.id, toNodeRecord(node)));
    const index = driver.lexicalIndex('ns')!;
    expect(index.search('kiwi', 5)).toEqual([]);
    await put(makeNode('ns', 'a', 1, 'kiwi and lime'));
    await put(makeNode('ns', 'b', 2, 'lime only'));
    expect(index.search('kiwi', 5).map((h) => h.id)).toEqual(['a']);
    expect([index.size, index.has('a'), index.has('zz')]).toEqual([2, true, false]);
    await put(makeNode('ns', 'a', 3, 'mango now')); // replaced: the old terms go
    expect(index.search('kiwi', 5)).toEqual([]);
    expect(index.search('mango', 5).map((h) => h.id)).toEqual(['a']);
    await put({ ...makeNode('ns', 'b', 2, 'lime only'), status: 'deleted' });
    expect([index.search('lime', 5), index.size, index.has('b')]).toEqual([[], 1, false]);
    await driver.transaction(['node'], 'write', async (tx) => tx.delete('node', 'ns', 'a'));
    expect([index.search('mango', 5), index.size]).toEqual([[], 0]);
    await put(makeNode('ns', 'c', 4, 'papaya'));
    expect(conn.query(`SELECT name FROM sqlite_master WHERE name LIKE 'jev_mem_rec_fts%'`).length).toBeGreaterThan(0);
    await driver.transaction(['node'], 'write', async (tx) => tx.deleteRange('node', 'ns', undefined));
    expect(conn.query(`SELECT name FROM sqlite_master WHERE name LIKE 'jev_mem_rec_fts%'`)).toEqual([]);
    expect(index.search('papaya', 5)).toEqual([]);
  });

  it('a search is one statement (the best k rows joined to their keys), ranked as ftsSearch ranks them, ties by row', async () => {
    const { conn, driver } = open('fts5');
    // n_i holds "kiwi" and i % 5 times "lime": the shorter the text, the better its BM25
    await driver.transaction(['node'], 'write', async (tx) => {
      for (let i = 0; i < 150; i++) tx.put('node', 'ns', `n${i}`, toNodeRecord(makeNode('ns', `n${i}`, i + 1, `kiwi${' lime'.repeat(i % 5)}`)));
    });
    const index = driver.lexicalIndex('ns')!;
    expect(index.search('kiwi', 1).map((h) => h.id)).toEqual(['n0']); // finds its table
    const before = conn.statements;
    const hits = index.search('kiwi', 120);
    expect(conn.statements - before).toBe(1); // was 1 + ⌈120 / 90⌉ = 3
    const expected = [0, 1, 2, 3].flatMap((r) => Array.from({ length: 30 }, (_, j) => `n${5 * j + r}`));
    expect(hits.map((h) => h.id)).toEqual(expected);
    const table = conn.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).map((r) => String(r.name)).find((n) => /^jev_mem_rec_fts\d+_\d+$/.test(n)) as string;
    const slots = ftsSearch(conn.query.bind(conn), table, 'kiwi', 120);
    expect(hits.map((h) => h.score)).toEqual(slots.map((h) => h.score));
    expect(index.search('papaya', 5)).toEqual([]);
  });

  it('a long query (a write probe) gets the hits and scores of one FTS5 statement of all its terms, bit for bit, looked up term by term', async () => {
    const { conn, driver } = open('fts5');
    // 90 made-up words; texts of 3-250 of them with repeats (so long rows hold many instances of
    // each query term), two texts written twice (equal scores: ties by row).
    const vocab = Array.from({ length: 90 }, (_, i) => `zor${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}k`);
    let seed = 7;
    const rand = (n: number): number => Math.floor(((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * n);
    const textOf = (words: number): string => Array.from({ length: words }, () => vocab[rand(rand(2) === 0 ? 12 : 90)]).join(' ');
    const texts = Array.from({ length: 60 }, (_, i) => textOf(i % 10 === 0 ? 250 : 3 + rand(60)));
    texts.push(texts[3] as string, texts[10] as string);
    await driver.transaction(['node'], 'write', async (tx) => {
      for (const [i, text] of texts.entries()) tx.put('node', 'ns', `n${i}`, toNodeRecord(makeNode('ns', `n${i}`, i + 1, text)));
    });
    const index = driver.lexicalIndex('ns')!;
    const query = `${textOf(150)} ${vocab.join(' ')}`;
    const tokens = ftsQueryTokens(query);
    expect([tokens.length, new Set(tokens).size]).toEqual([240, 90]); // 90 terms: 22 statements of 4 and one of 2
    const table = conn.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).map((r) => String(r.name)).find((n) => /^jev_mem_rec_fts\d+_\d+$/.test(n)) as string;
    // What one statement of all 240 phrases ranks (the search before issue 25's change), with the keys of its rows.
    const oneStatement = (k: number) =>
      conn
        .query(`SELECT t.s AS s, r.k AS k FROM (SELECT rowid AS slot, bm25(${table}) AS s FROM ${table} WHERE ${table} MATCH ? ORDER BY s, rowid LIMIT ?) AS t JOIN jev_mem_rec AS r ON r.id = t.slot ORDER BY t.s, t.slot`, [ftsMatch(query) as string, k])
        .map((r) => ({ id: new TextDecoder().decode(r.k as Uint8Array), score: -Number(r.s) }));
    // the MATCH phrases the index's searches bind
    const matches: string[] = [];
    const query0 = conn.query.bind(conn);
    let recording = true;
    conn.query = (sql, params = []) => {
      if (recording && / MATCH /.test(sql)) matches.push(...params.filter((p): p is string => typeof p === 'string' && p.startsWith('"')));
      return query0(sql, params);
    };
    for (const k of [10, 100]) {
      matches.length = 0;
      recording = true;
      const hits = index.search(query, k);
      recording = false;
      expect(hits.length).toBe(k === 10 ? 10 : texts.length);
      expect(hits).toEqual(oneStatement(k)); // same ids, same order, same doubles
      // each MATCH bound one phrase: every distinct term looked up once
      expect(matches.every((m) => !m.includes(' OR '))).toBe(true);
      expect(matches.length).toBe(new Set(tokens).size);
    }
    recording = true;
    // the two repeated texts tie with their first copies, the earlier row first
    const all = index.search(query, 100);
    for (const [a, b] of [['n3', 'n60'], ['n10', 'n61']] as const) {
      const [ia, ib] = [all.findIndex((h) => h.id === a), all.findIndex((h) => h.id === b)];
      expect(all[ia]?.score).toBe(all[ib]?.score);
      expect(ib).toBe(ia + 1);
    }
    // a short query stays one statement
    matches.length = 0;
    index.search(vocab.slice(0, FTS_ONE_STATEMENT_TERMS).join(' '), 5);
    expect(matches).toHaveLength(1);
  });

  it('a search that meets a damaged page leaves out only the hits whose records lie on it', async () => {
    const { conn, driver } = open('fts5');
    await driver.transaction(['node'], 'write', async (tx) => {
      for (const [i, text] of ['kiwi', 'kiwi lime', 'kiwi lime lime'].entries()) tx.put('node', 'ns', `n${i}`, toNodeRecord(makeNode('ns', `n${i}`, i + 1, text)));
    });
    const index = driver.lexicalIndex('ns')!;
    expect(index.search('kiwi', 5).map((h) => h.id)).toEqual(['n0', 'n1', 'n2']);
    const n1 = Number(conn.query(`SELECT id FROM jev_mem_rec WHERE k = ?`, [new TextEncoder().encode('n1')])[0]?.id);
    const query = conn.query.bind(conn);
    // As SQLite reports a damaged page under n1's record: any statement that reads it fails.
    conn.query = (sql, params = []) => {
      if (/JOIN/.test(sql) || (/ IN \(/.test(sql) && params.includes(n1))) throw new Error('SQLITE_CORRUPT: database disk image is malformed');
      return query(sql, params);
    };
    expect(index.search('kiwi', 5).map((h) => h.id)).toEqual(['n0', 'n2']);
  });

  it("under lexical 'none' keeps no index, and drops one left by 'fts5' at its namespace's next write", async () => {
    const conn = memorySqlConnection();
    const fts = createSqlRecordDriver(conn, { prefix: 'jev_mem_', label: 't', lexical: 'fts5', importLegacy: async () => ({ finish: () => undefined }), vacuum: false });
    await fts.transaction(['node'], 'write', async (tx) => tx.put('node', 'ns', 'a', toNodeRecord(makeNode('ns', 'a', 1, 'kiwi'))));
    expect(conn.query(`SELECT name FROM sqlite_master WHERE name LIKE 'jev_mem_rec_fts%'`).length).toBeGreaterThan(0);
    const none = createSqlRecordDriver(conn, { prefix: 'jev_mem_', label: 't', lexical: 'none', importLegacy: async () => ({ finish: () => undefined }), vacuum: false });
    expect(none.lexicalIndex('ns')).toBeUndefined();
    await none.transaction(['node'], 'write', async (tx) => tx.put('node', 'ns', 'b', toNodeRecord(makeNode('ns', 'b', 2, 'lime'))));
    expect(conn.query(`SELECT name FROM sqlite_master WHERE name LIKE 'jev_mem_rec_fts%'`)).toEqual([]);
    // back under fts5: built from the records at the first search
    const again = createSqlRecordDriver(conn, { prefix: 'jev_mem_', label: 't', lexical: 'fts5', importLegacy: async () => ({ finish: () => undefined }), vacuum: false });
    expect(again.lexicalIndex('ns')!.search('kiwi lime', 5).map((h) => h.id).sort()).toEqual(['a', 'b']);
  });
});
