/**
 * Issue 22: the wrappers of the fault and lifecycle suites (`keepOpen`, `faulty`, `forwardPort`)
 * pass the whole storage port of every shipped store through, so a fault injected in a test never
 * changes which code path the memory takes (the old wrappers hid `lexicalIndex`, `health` and,
 * in `faulty`, the whole port, and sent the memory down the `load()` fallback).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { faulty, forwardPort, keepOpen, portMembers } from './helpers.js';
import { SHIPPED_STORES, storePlace } from './stores.js';
import { makeNode } from '../plane/fixtures.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'jev-mem-forward-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What a memory looks for on a store: which members are there, and of what type. */
const shape = (s: StorageAdapter): Record<string, string> => Object.fromEntries(portMembers(s).map((k) => [k, typeof (s as unknown as Record<string, unknown>)[k]]));

describe.each(SHIPPED_STORES)('wrappers over the %s store', (kind) => {
  it('keepOpen and faulty offer every member of the store, with the same types', async () => {
    const inner = await storePlace(kind, tempDir).open();
    const want = shape(inner);
    expect(Object.keys(want)).toEqual(expect.arrayContaining(['commit', 'load', 'getNodes', 'getEdges', 'scanNodes', 'counts', 'readCheckpoint', 'changesSince']));
    const kept = shape(keepOpen(inner));
    const fault = shape(faulty(inner));
    for (const [k, t] of Object.entries(want)) {
      expect(kept[k], `keepOpen.${k}`).toBe(t);
      expect(fault[k], `faulty.${k}`).toBe(t);
    }
    await inner.close();
  });

  it('forwarded methods act on the store, overrides replace only what they name', async () => {
    const inner = await storePlace(kind, tempDir).open();
    let closes = 0;
    const w = forwardPort(inner, { close: async (): Promise<void> => void closes++ });
    await w.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    expect((await w.getNodes?.('ns', ['a', 'missing']))?.map((n) => n.id)).toEqual(['a']);
    expect(await w.counts?.('ns')).toMatchObject({ nodes: 1, edges: 0 });
    expect(w.kind).toBe(inner.kind);
    await w.close();
    expect(closes).toBe(1);
    expect((await inner.load('ns')).nodes.map((n) => n.id)).toEqual(['a']); // the store stayed open
    await inner.close();
  });

  it('faulty fails the chosen commit before the store sees it, and records the accepted ones', async () => {
    const inner = await storePlace(kind, tempDir).open();
    const s = faulty(inner);
    s.failIf = (_b, n) => (n === 2 ? new Error('injected') : undefined);
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    await expect(s.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] })).rejects.toThrow('injected');
    await s.commit('ns', { putNodes: [makeNode('ns', 'c', 3)] });
    expect(s.committed.map((b) => b.putNodes?.[0]?.id)).toEqual(['a', 'c']);
    expect((await inner.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'c']);
    await inner.close();
  });
});

it('the SQLite store offers its own lexical index through the wrappers (FTS5, not the fallback)', async () => {
  const inner = await storePlace('sqlite', tempDir).open();
  expect(typeof inner.lexicalIndex).toBe('function');
  expect(typeof keepOpen(inner).lexicalIndex).toBe('function');
  expect(typeof faulty(inner).lexicalIndex).toBe('function');
  await inner.close();
});
