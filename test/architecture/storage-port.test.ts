/**
 * The storage port has no optional members (issue 22): every shipped store implements all of it,
 * and the memory has no fallback path (such as reading a whole namespace with `load()` when
 * `getNodes` is missing) that no shipped store takes. Read from the source with the TypeScript
 * parser, so a `?` added to any member fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';

const SOURCE = join(import.meta.dirname, '../../src/plane/store/storage.ts');

/** Members of `interface StorageAdapter`, each with whether it is optional. */
function portMembers(): Array<{ name: string; optional: boolean }> {
  const file = ts.createSourceFile(SOURCE, readFileSync(SOURCE, 'utf8'), ts.ScriptTarget.Latest, true);
  const port = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'StorageAdapter');
  if (port === undefined) throw new Error('no interface StorageAdapter in storage.ts');
  return port.members.map((m) => ({ name: (m.name as ts.Identifier).text, optional: m.questionToken !== undefined }));
}

describe('the storage port', () => {
  it('has no optional member', () => {
    const members = portMembers();
    expect(members.length).toBeGreaterThanOrEqual(18);
    expect(members.filter((m) => m.optional).map((m) => m.name)).toEqual([]);
  });

  it('is implemented whole by the memory store (every member a function or the kind)', () => {
    const store = createMemoryStorage() as unknown as Record<string, unknown>;
    for (const { name } of portMembers()) expect(typeof store[name], name).toBe(name === 'kind' ? 'string' : 'function');
  });
});

const DRIVER_SOURCE = join(import.meta.dirname, '../../src/plane/drivers/record-driver.ts');

/** Members of interface `name` of `source` (record-driver.ts by default), each with whether it is optional. */
function driverMembers(name: string, source = DRIVER_SOURCE): Array<{ name: string; optional: boolean }> {
  const file = ts.createSourceFile(source, readFileSync(source, 'utf8'), ts.ScriptTarget.Latest, true);
  const decl = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (decl === undefined) throw new Error(`no interface ${name} in ${source}`);
  return decl.members.map((m) => ({ name: (m.name as ts.Identifier).text, optional: m.questionToken !== undefined }));
}

describe('the record driver (issue 22: one store over a small driver)', () => {
  it('is small and has no optional member: a driver is transactions, a transaction six operations', () => {
    expect(driverMembers('RecordDriver')).toEqual([
      { name: 'transaction', optional: false },
      { name: 'close', optional: false },
    ]);
    expect(driverMembers('RecordTx')).toEqual(['get', 'put', 'delete', 'deleteRange', 'scan', 'namespaces'].map((name) => ({ name, optional: false })));
  });

  it('the SQL connection under the SQL record driver is three required members, and the SQL driver adds only its lexical index', () => {
    const sql = join(import.meta.dirname, '../../src/plane/drivers/record-sql.ts');
    expect(driverMembers('SqlConnection', join(import.meta.dirname, '../../src/plane/drivers/sql-connection.ts'))).toEqual(['query', 'transaction', 'ready', 'settle'].map((name) => ({ name, optional: false })));
    expect(driverMembers('SqlRecordDriver', sql)).toEqual([{ name: 'lexicalIndex', optional: false }]);
  });

  it('has one StorageAdapter implementation: createRecordStore; every shipped store is it over a driver', () => {
    const root = join(import.meta.dirname, '../..');
    const sources = ['src/plane/store', 'src/plane/drivers', 'src/edge'].flatMap((f) => readdirSync(join(root, f)).filter((n) => n.endsWith('.ts')).map((n) => `${f}/${n}`));
    // A module that builds an adapter object itself (`: StorageAdapter = {` or `): StorageAdapter {` with its own methods).
    // (sqlite-file-storage.ts spreads the record store and adds its close: `{ ...inner, close }`.)
    const builders = sources.filter((f) => /(?:const|let) \w+: StorageAdapter = \{(?!\s*\.\.\.)|return \{\s*kind:/.test(readFileSync(join(root, f), 'utf8')));
    expect(builders).toEqual(['src/plane/store/record-store.ts']);
    for (const f of ['src/plane/store/memory-storage.ts', 'src/plane/store/idb-storage.ts', 'src/plane/store/sql-record-store.ts']) expect(readFileSync(join(root, f), 'utf8'), f).toMatch(/createRecordStore\(/);
    for (const f of ['src/plane/store/sqlite-file-storage.ts', 'src/edge/do-storage.ts']) expect(readFileSync(join(root, f), 'utf8'), f).toMatch(/createSqlRecordStore\(/);
    // the old SQL store is gone
    for (const gone of ['sql-storage', 'sql-commit', 'sql-reads', 'sql-session', 'sql-schema', 'sql-rows', 'sql-ids']) expect(sources).not.toContain(`src/plane/store/${gone}.ts`);
  });

  it('is the only thing the memory and IndexedDB stores add to the one record store', () => {
    const root = join(import.meta.dirname, '../../src/plane/store');
    for (const file of ['memory-storage.ts', 'idb-storage.ts', 'sql-record-store.ts']) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text, file).toMatch(/createRecordStore\(/);
      // no store behaviour of its own: it imports no module of another store's behaviour
      expect(text, file).not.toMatch(/from '\.\/(sql-(?!legacy-import)|store-damage|checksum|record-(commit|reads|checkpoint|edges|namespaces))/);
    }
  });
});

describe('the storage adapters', () => {
  /** Issue 22 acceptance: no storage adapter file over 400 lines; each module holds one job. */
  const MAX_LINES = 400;
  const root = join(import.meta.dirname, '../..');
  /** Every `.ts` file under `dir` (relative to the root), subfolders included. */
  const tsUnder = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsUnder(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
  const linesOf = (f: string): number => readFileSync(join(root, f), 'utf8').split('\n').length;

  it(`keep every module of src/plane (stores, drivers, indexes, resident state, text) at ${MAX_LINES} lines or fewer`, () => {
    const files = [...tsUnder('src/plane'), 'src/edge/do-storage.ts'];
    expect(files.length).toBeGreaterThan(90);
    // the one record store and its drivers are under the cap too
    expect(files).toEqual(expect.arrayContaining(['src/plane/store/record-store.ts', 'src/plane/drivers/record-driver.ts', 'src/plane/drivers/record-memory.ts', 'src/plane/drivers/record-idb.ts', 'src/plane/drivers/record-sql.ts', 'src/plane/drivers/record-sql-lexical.ts']));
    // the resident state, split by job (issue 22: namespace.ts was 1,056 lines)
    expect(files).toEqual(expect.arrayContaining(['src/plane/resident/namespace.ts', 'src/plane/resident/resident-core.ts', 'src/plane/resident/book.ts', 'src/plane/resident/body-cache.ts', 'src/plane/resident/checkpoint-format.ts', 'src/plane/resident/open.ts', 'src/plane/resident/vector-slot.ts']));
    // the vector indexes, split by job (vector-hnsw.ts was 652 lines, vector-ann.ts 643, vector-flat.ts 533)
    expect(files).toEqual(expect.arrayContaining(['src/plane/indexes/vector-hnsw.ts', 'src/plane/indexes/vector-hnsw-wasm.ts', 'src/plane/indexes/vector-hnsw-files.ts', 'src/plane/indexes/vector-factory.ts', 'src/plane/indexes/vector-ann.ts', 'src/plane/indexes/vector-ann-graph.ts', 'src/plane/indexes/vector-flat.ts', 'src/plane/indexes/vector-math.ts']));
    expect(files.filter((f) => linesOf(f) > MAX_LINES)).toEqual([]);
  });

  it(`keep every module of the CLI at ${MAX_LINES} lines or fewer`, () => {
    const files = tsUnder('src/cli');
    // main.ts was 457 lines: ingest moved to ingest.ts
    expect(files).toEqual(expect.arrayContaining(['src/cli/main.ts', 'src/cli/ingest.ts', 'src/cli/commands.ts', 'src/cli/open.ts']));
    expect(files.filter((f) => linesOf(f) > MAX_LINES)).toEqual([]);
  });
});
