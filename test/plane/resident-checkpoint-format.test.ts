/**
 * Issue 22 (namespace.ts split): checkpoints written by the resident state of commit 27aa880
 * (`fixtures/checkpoint-27aa880.json`, made by `fixtures/make-checkpoint-27aa880.ts` from that
 * commit's sources; format @2, which BASE f54a82d still wrote byte for byte) still load with
 * today's code. Stop 33 (checkpoint @3, each vector stored once): today's code writes the same
 * bytes except that `dir.vecrow` (each slot's row number in the int8 rows of `vectors`) replaces
 * `dir.vec`, `header.json` names that part (`vecRows`) and lists the id of a slot with a row as 0
 * (the id of that row in `vectors`), `vectors.exact` is gone, and the book's
 * repeat keys move from `book.json` to the binary `book.dedup` (hash, directory slot); the rows
 * the directory points at are exactly 27aa880's `dir.vec`, the keys exactly its `dedup` pairs. An @2 checkpoint opens stale, so it is
 * rewritten as @3 at the next checkpoint.
 *
 * One addition since (issue 22/24): `book.json` of a namespace built by today's code ends with
 * the per-scope bookkeeping (`scopes`, plane/resident/scopes.ts); it is checked, then taken out
 * before the comparison. A book restored from 27aa880's checkpoint has no `scopes` and writes none.
 *
 * Issue 22/24 (h-lexver): `LEXICAL_VERSION` 4. The fixture's `lexical.json` (version 3) is no
 * longer restored: such a checkpoint opens from a scan (tested below). The other tests store
 * the fixture's checkpoints with a version-4 header on the same MiniSearch index (what a
 * version-4 build writes for these texts: their terms did not change) and compare this build's
 * `lexical.json` with 27aa880's once its header is read back as version 3 (`language` null).
 * h-person2 (issue 24): `LEXICAL_VERSION` 5; the header is this build's version, whatever it is
 * (English terms did not change in 4 or 5).
 *
 * h-fair (checkpoint @4, the repeat key gains the speaker: h-break13's a549d4a): the only bytes
 * that differ are `book.dedup`'s hashes of the nodes this build files (every fixture node has a
 * speaker, so its key is the 7-element one). Read in 27aa880's terms, each such hash is replaced
 * by the hash of its node's key without the speaker, and how many were so counted is asserted:
 * all of them in a state built by this build, none in 27aa880's checkpoint restored and written
 * again (restored keys are kept as they were), the 3 nodes put after it when it is replayed. The
 * state's repeat lookups (`answers`) go as the write path's do: the node's key, then its older
 * keys; they find the same nodes as 27aa880's did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FORMAT, NamespaceState, dedupKey, dedupScopeOf, nodeDedupKey, nodeOlderDedupKeys, type IndexFactories } from '../../src/plane/resident/namespace.js';
import { hash53 } from '../../src/plane/resident/node-directory.js';
import type { MemoryNode } from '../../src/types.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { Checkpoint, StorageAdapter, WriteBatch } from '../../src/plane/store/storage.js';
import { createLexicalIndex, LEXICAL_VERSION } from '../../src/plane/indexes/lexical.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createAnnVectorIndex } from '../../src/plane/indexes/vector-ann.js';
import { restoreVectorIndex } from '../../src/plane/indexes/vector-factory.js';
import { gridRowIdsOf, gridRowsOf } from '../../src/plane/indexes/vector-rows.js';

interface StoredCheckpoint {
  change: number;
  format: string;
  parts: Record<string, string>;
}
interface Namespace {
  commits: WriteBatch[];
  /** Written by the write path after stage 1 (3 commits) and stage 2 (5 commits). */
  checkpoint1: StoredCheckpoint;
  checkpoint2: StoredCheckpoint;
  /** Written after reopening stage 1 / stage 2 from checkpoint 1. */
  reopened1: StoredCheckpoint;
  reopened2: StoredCheckpoint & { replayed: number };
  answers: Record<string, unknown>;
  reopenedAnswers: Record<string, unknown>;
}
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/checkpoint-27aa880.json'), 'utf8')) as {
  dimension: number;
  encoder: string;
  flat: Namespace;
  auto: Namespace;
};
const STAGE1 = 3;
/** `book.json`'s `scopes` after stage 1 and stage 2: one unscoped scope holding every node, its 8 latest ids kept (no seqs: a lone scope's are every node's). */
const SCOPES1 = (kind: string): unknown => [['[null,null]', 7, [0, 1, 2, 4, 5, 6, 7].map((i) => `${kind}-n${i}`)]]; // 8 put, n3 deleted
const SCOPES2 = (kind: string): unknown => [['[null,null]', 10, [2, 4, 5, 6, 7, 8, 9, 10].map((i) => `${kind}-n${i}`)]];

function factoriesOf(kind: 'flat' | 'auto'): IndexFactories {
  return {
    lexical: createLexicalIndex,
    vector: (d: number) => createFlatVectorIndex(d),
    restoreVector: restoreVectorIndex,
    ...(kind === 'auto' ? { upgrade: { threshold: 4, exactOpenBelow: 100, create: async (d: number) => createAnnVectorIndex({ dimension: d }) } } : {}),
  };
}

/** `lexical.json` of 27aa880 (version 3) with the header this build writes: `LEXICAL_VERSION`, no language. */
function lexicalV4(bytes: Uint8Array): Uint8Array {
  const { format, version, minisearch } = JSON.parse(Buffer.from(bytes).toString('utf8')) as { format: string; version: number; minisearch: unknown };
  expect(version).toBe(3);
  return new Uint8Array(Buffer.from(JSON.stringify({ format, version: LEXICAL_VERSION, language: null, minisearch })));
}
/** This build's `lexical.json` (`LEXICAL_VERSION`, no language) as 27aa880 wrote the same index (version 3). */
function lexicalV3(bytes: Uint8Array): Uint8Array {
  const { format, version, language, minisearch } = JSON.parse(Buffer.from(bytes).toString('utf8')) as { format: string; version: number; language: unknown; minisearch: unknown };
  expect([version, language]).toEqual([LEXICAL_VERSION, null]);
  return new Uint8Array(Buffer.from(JSON.stringify({ format, version: 3, minisearch })));
}
/** 27aa880's checkpoint with its `lexical.json` under this build's header. */
const withLexicalV4 = (cp: Checkpoint): Checkpoint => ({ ...cp, parts: { ...cp.parts, 'lexical.json': lexicalV4(cp.parts['lexical.json']!) } });
const decoded = (cp: StoredCheckpoint): Checkpoint => ({ change: cp.change, format: cp.format, parts: Object.fromEntries(Object.entries(cp.parts).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))])) });
const encoded = (cp: Checkpoint): StoredCheckpoint => ({ change: cp.change, format: cp.format, parts: Object.fromEntries(Object.entries(cp.parts).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) });
/** How many repeat keys the last {@link asPrevious} read as the key with the speaker (filed by this build). */
let filedWithSpeaker = 0;
/** The fixture's nodes (both namespaces) by id. */
const fixtureNodes = new Map((['flat', 'auto'] as const).flatMap((kind) => fixture[kind].commits.flatMap((c) => c.putNodes ?? [])).map((n) => [n.id, n as MemoryNode]));
/** The repeat key 27aa880 filed node `n` under: the key without its speaker (checkpoints before @4). */
const keyWithoutSpeaker = (n: MemoryNode): string => dedupKey(n.text, n.observedAt, n.provenance.source, dedupScopeOf(n.provenance.metadata), n.provenance.metadata);

/**
 * What a checkpoint of this build (@4) says, in 27aa880's terms (@2): `dir.vec` gathered from the
 * rows `dir.vecrow` numbers in `vectors` (−1: a zero row), `vecRows` taken out of the header, and
 * (@4, h-fair) each repeat key of `book.dedup` that this build filed, the node's key with its
 * speaker (every fixture node has one), read as the key without it, which 27aa880 filed; a key
 * restored from 27aa880's checkpoint is that key already. Every entry is one or the other.
 */
function asPrevious(cp: StoredCheckpoint): StoredCheckpoint {
  expect(cp.format).toBe('jev-mem/namespace-checkpoint@4');
  filedWithSpeaker = 0;
  expect(Object.keys(cp.parts)).not.toContain('dir.vec');
  expect(Object.keys(cp.parts)).not.toContain('vectors.exact');
  expect(Object.keys(cp.parts)).toContain('book.dedup');
  const parts = decoded(cp).parts;
  const header = JSON.parse(Buffer.from(parts['header.json']!).toString('utf8')) as { vecRows?: string; directory: { count: number; ids: Array<string | null | 0> } };
  const numbers = new Int32Array(parts['dir.vecrow']!.slice().buffer);
  // A slot's id 0: the id of its row in `vectors`
  const rowIds = gridRowIdsOf(parts.vectors!)!;
  header.directory.ids = header.directory.ids.map((id, slot) => (id === 0 ? rowIds[numbers[slot]!]! : id));
  expect(header.directory.ids.every((id) => id !== 0)).toBe(true);
  // book.dedup: n float64 hashes, then n int32 directory slots, back into book.json's pairs
  const book = JSON.parse(Buffer.from(parts['book.json']!).toString('utf8')) as { dedup: Array<[number, string]> };
  expect(book.dedup).toEqual([]);
  const dedup = parts['book.dedup']!.slice();
  const n = dedup.length / 12;
  const hashes = new Float64Array(dedup.buffer, 0, n);
  const slots = new Int32Array(dedup.buffer, 8 * n, n);
  book.dedup = Array.from(hashes, (h, i) => {
    const id = header.directory.ids[slots[i]!] as string;
    const node = fixtureNodes.get(id)!;
    expect(node.provenance.speaker).toBeTruthy();
    const older = hash53(keyWithoutSpeaker(node));
    expect([hash53(nodeDedupKey(node)), older]).toContain(h);
    if (h !== older) filedWithSpeaker++;
    return [older, id];
  });
  expect(header.vecRows).toBe('vectors');
  delete header.vecRows;
  const rows = gridRowsOf(parts.vectors!)!;
  const d = fixture.dimension;
  const vec = new Int8Array(header.directory.count * d);
  numbers.forEach((r, slot) => {
    if (r >= 0) vec.set(rows.subarray(r * d, (r + 1) * d), slot * d);
  });
  const out: Record<string, Uint8Array> = {};
  for (const [name, bytes] of Object.entries(parts)) {
    if (name === 'dir.vecrow') out['dir.vec'] = new Uint8Array(vec.buffer);
    else if (name === 'book.json') out[name] = new Uint8Array(Buffer.from(JSON.stringify(book)));
    else if (name === 'lexical.json') out[name] = lexicalV3(bytes);
    else if (name !== 'book.dedup') out[name] = name === 'header.json' ? new Uint8Array(Buffer.from(JSON.stringify(header))) : bytes;
  }
  return encoded({ change: cp.change, format: 'jev-mem/namespace-checkpoint@2', parts: out });
}

/** 27aa880's checkpoint without its `vectors.exact` part (not written from @3). */
function withoutExact(cp: StoredCheckpoint): StoredCheckpoint {
  const { 'vectors.exact': _exact, ...parts } = cp.parts;
  return { ...cp, parts };
}

/**
 * A checkpoint of this build matches 27aa880's `expected`, read as @2 (see the module), once its
 * per-scope bookkeeping (checked against `scopes` first; none for a book restored from 27aa880) is taken out.
 */
const sameAs = (cp: Checkpoint, expected: StoredCheckpoint, filed: number, scopes?: unknown): void => {
  expect(asPrevious(withoutScopes(cp, scopes))).toEqual(withoutExact(expected));
  expect(filedWithSpeaker).toBe(filed); // repeat keys this build filed (with the speaker); the rest restored as 27aa880 wrote them
};

/**
 * `cp` with `scopes` taken out of its `book.json` (checked against `scopes` first): what
 * 27aa880 wrote for the same state.
 */
function withoutScopes(cp: Checkpoint, scopes: unknown): StoredCheckpoint {
  const out = encoded(cp);
  const book = JSON.parse(Buffer.from(out.parts['book.json'] as string, 'base64').toString('utf8')) as Record<string, unknown>;
  expect(book['scopes']).toEqual(scopes);
  delete book['scopes'];
  out.parts['book.json'] = Buffer.from(JSON.stringify(book)).toString('base64');
  return out;
}
const open = (kind: 'flat' | 'auto', storage: StorageAdapter): Promise<NamespaceState> =>
  NamespaceState.open({ namespace: kind, storage, factories: factoriesOf(kind), dimension: fixture.dimension, encoder: fixture.encoder });

/** A store holding the fixture's first `commits` commits and its checkpoint 1 (`asWritten`: its version-3 `lexical.json` as 27aa880 wrote it, else under a version-4 header). */
async function storeOf(kind: 'flat' | 'auto', commits: number, asWritten = false): Promise<StorageAdapter> {
  const storage = createMemoryStorage();
  const f = fixture[kind];
  for (const batch of f.commits.slice(0, STAGE1)) await storage.commit(kind, batch);
  await storage.writeCheckpoint(kind, asWritten ? decoded(f.checkpoint1) : withLexicalV4(decoded(f.checkpoint1)));
  for (const batch of f.commits.slice(STAGE1, commits)) await storage.commit(kind, batch);
  return storage;
}

/** What make-checkpoint-27aa880.ts recorded of a state (`probe` there). */
function answersOf(s: NamespaceState, kind: 'flat' | 'auto'): Record<string, unknown> {
  const nodes = new Map(fixture[kind].commits.flatMap((c) => c.putNodes ?? []).map((n) => [n.id, n]));
  const first = (i: number): number[] => nodes.get(`${kind}-n${i}`)!.embedding.vector;
  return {
    vectorKind: s.vector.kind,
    size: s.size,
    seq: s.seq,
    lastId: s.lastId ?? null,
    sessions: [...s.sessions],
    mentions: [...s.mentions],
    speakers: [...s.speakers],
    keywordDf: [...s.keywordDf],
    dominantLanguage: s.dominantLanguage,
    // Looked up as the write path does (memory/write.ts): the node's key, then the older keys a
    // restored checkpoint holds it under (checkpoint @4: the key gained the speaker).
    dedup: [...nodes.values()].map((n) => [nodeDedupKey(n as MemoryNode), ...nodeOlderDedupKeys(n as MemoryNode)].map((k) => s.dedupCandidate(k)).find((id) => id !== undefined) ?? null),
    vector: [0, 3, 7].map((i) => s.vector.search(Float32Array.from(first(i).map((x, j) => x + (j === 0 ? 0.05 : 0))), 3)),
    lexical: ['Lisbon', 'Fahrrad', 'glazing pottery'].map((q) => s.lexical.search(q, 3)),
  };
}

describe('checkpoints written by commit 27aa880', () => {
  it('use the previous format tag and its part names', () => {
    expect(fixture.flat.checkpoint1.format).toBe('jev-mem/namespace-checkpoint@2');
    expect(CHECKPOINT_FORMAT).toBe('jev-mem/namespace-checkpoint@4');
    expect(Object.keys(fixture.auto.checkpoint1.parts)).toEqual(['dir.seq', 'dir.status', 'dir.session', 'dir.hash', 'dir.lang', 'dir.vec', 'dir.scale', 'header.json', 'book.json', 'lexical.json', 'vectors', 'vectors.exact']);
  });

  for (const kind of ['flat', 'auto'] as const) {
    it(`${kind}: the write path applies the same commits into byte-identical checkpoints and answers`, async () => {
      const storage = createMemoryStorage();
      const s = await open(kind, storage);
      expect(s.openReport.from).toBe('empty');
      const commits = fixture[kind].commits;
      for (const [i, batch] of commits.entries()) {
        await s.use(async () => {
          await s.loadNodes([...(batch.deleteNodeIds ?? []), ...(batch.putNodes ?? []).map((n) => n.id)]);
          s.apply(batch);
          await storage.commit(kind, batch);
          await s.maybeUpgradeVector();
        });
        if (i + 1 === STAGE1) sameAs(await s.checkpoint(STAGE1, fixture.encoder), fixture[kind].checkpoint1, 7, SCOPES1(kind));
      }
      sameAs(await s.checkpoint(commits.length, fixture.encoder), fixture[kind].checkpoint2, 10, SCOPES2(kind));
      expect(answersOf(s, kind)).toEqual(fixture[kind].answers);
      s.dispose();
    });

    it(`${kind}: opens checkpoint 1 with nothing to replay, stale (@2), and rewrites it as @3 with what 27aa880 wrote`, async () => {
      const storage = await storeOf(kind, STAGE1);
      const s = await open(kind, storage);
      expect([s.openReport.from, s.openReport.replayed]).toEqual(['checkpoint', 0]);
      expect(s.size).toBe(7); // 8 put, 1 deleted
      expect(s.changedSinceCheckpoint).toBe(1); // an @2 checkpoint is replaced at the next checkpoint
      await s.maybeUpgradeVector();
      const cp = await s.checkpoint(STAGE1, fixture.encoder);
      sameAs(cp, fixture[kind].reopened1, 0);
      s.dispose();
      // The @3 checkpoint opens current, with the same answers as 27aa880's state.
      await storage.writeCheckpoint(kind, cp);
      const again = await open(kind, storage);
      expect([again.openReport.from, again.openReport.replayed, again.changedSinceCheckpoint]).toEqual(['checkpoint', 0, 0]);
      const fresh = await open(kind, await storeOf(kind, STAGE1));
      await Promise.all([again.maybeUpgradeVector(), fresh.maybeUpgradeVector()]);
      expect(answersOf(again, kind)).toEqual(answersOf(fresh, kind));
      again.dispose();
      fresh.dispose();
    });

    it(`${kind}: a checkpoint whose lexical index is version 3 opens from a scan (not as damaged), with the same answers, and is replaced by one of this build's version`, async () => {
      const storage = await storeOf(kind, fixture[kind].commits.length, true);
      const s = await open(kind, storage);
      expect(s.openReport.from).toBe('scan');
      expect(s.openReport.reason).toMatch(new RegExp(`lexical index is of another version.*version 3.*version ${LEXICAL_VERSION}`));
      expect(s.openReport.checkpointDamaged).toBeUndefined();
      expect(s.changedSinceCheckpoint).toBe(s.size);
      // The same answers as a state built by a scan of the same commits (a store without checkpoint).
      const bare = createMemoryStorage();
      for (const batch of fixture[kind].commits) await bare.commit(kind, batch);
      const scanned = await open(kind, bare);
      expect(scanned.openReport.from).toBe('scan');
      await Promise.all([s.maybeUpgradeVector(), scanned.maybeUpgradeVector()]);
      expect(answersOf(s, kind)).toEqual(answersOf(scanned, kind));
      scanned.dispose();
      const cp = await s.checkpoint(fixture[kind].commits.length, fixture.encoder);
      expect(JSON.parse(Buffer.from(cp.parts['lexical.json']!).toString('utf8'))).toMatchObject({ version: LEXICAL_VERSION, language: null });
      s.dispose();
      await storage.writeCheckpoint(kind, cp);
      const again = await open(kind, storage);
      expect([again.openReport.from, again.openReport.replayed, again.changedSinceCheckpoint]).toEqual(['checkpoint', 0, 0]);
      again.dispose();
    });

    it(`${kind}: replays the 4 ids changed after checkpoint 1 into 27aa880's answers and checkpoint`, async () => {
      const s = await open(kind, await storeOf(kind, fixture[kind].commits.length));
      expect([s.openReport.from, s.openReport.replayed]).toEqual(['checkpoint', 4]);
      expect(s.changedSinceCheckpoint).toBe(4);
      await s.maybeUpgradeVector(); // the first write restores the deferred ANN index (auto)
      expect(answersOf(s, kind)).toEqual(fixture[kind].reopenedAnswers);
      const { replayed, ...cp } = fixture[kind].reopened2;
      expect(replayed).toBe(4);
      sameAs(await s.checkpoint(fixture[kind].commits.length, fixture.encoder), cp, 3); // the 3 nodes put after checkpoint 1
      s.dispose();
    });
  }
});
