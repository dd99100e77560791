/**
 * jev-mem/langgraph against the real LangGraph.js (issue 23): a StateGraph compiled with our
 * store puts, searches and gets through `config.store` with namespace tuples
 * (examples/langgraph/graph.ts); then the store's own operations: overwrite (update keeps one
 * current item), filters, delete, listNamespaces with prefix / suffix / depth, and batch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryStore as GraphInMemoryStore } from '@langchain/langgraph';
import { InMemoryStore, type BaseStore } from '@langchain/langgraph-checkpoint';
import { afterAll, describe, expect, it } from 'vitest';
import { runGraphExample } from '../../examples/langgraph/graph.js';
import { createJevMemStore, indexText, namespaceOf, tupleOf } from '../../src/integrations/langgraph.js';
import { createNodeMemory } from '../../src/node.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-langgraph-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('jev-mem/langgraph', () => {
  it('a LangGraph graph uses the store passed at compile: put, search with a query, get', async () => {
    const { state, namespaces } = await runGraphExample(join(dir, 'graph'));
    expect(state.found[0]).toBe('My dog Biscuit is a three-year-old beagle.');
    expect(state.found).toHaveLength(2);
    expect(state.pet).toBe('My dog Biscuit is a three-year-old beagle.');
    expect(namespaces).toEqual([['users', 'alice', 'facts']]);
  }, 30_000);

  it('maps namespace tuples to jev-mem namespaces and back, parts with "/" included', () => {
    expect(namespaceOf('langgraph', ['users', 'a/b'])).toBe('langgraph/users/a%2Fb');
    expect(tupleOf('langgraph', 'langgraph/users/a%2Fb')).toEqual(['users', 'a/b']);
    expect(tupleOf('langgraph', 'default')).toBeUndefined();
    expect(() => namespaceOf('langgraph', [])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'namespace' }));
    expect(indexText({ text: 'hi', meta: { n: 2, tags: ['a', 'b'] } }, ['$'])).toBe('hi\nmeta.n: 2\na\nb');
    expect(indexText({ text: 'hi', other: 'x' }, ['text'])).toBe('hi');
  });

  it('puts of one key issued at once apply in issue order: one current item, the last put (h-break7 finding 4)', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'race'), systemOne: 'heuristic', create: true });
    try {
      const store = await createJevMemStore(memory);
      await Promise.all([0, 1, 2, 3, 4].map((i) => store.put(['users', 'carol'], 'pet', { text: `My pet is animal number ${i}` })));
      expect((await store.get(['users', 'carol'], 'pet'))?.value).toEqual({ text: 'My pet is animal number 4' });
      expect((await store.search(['users', 'carol'])).map((it) => it.value)).toEqual([{ text: 'My pet is animal number 4' }]);
      const listed = await memory.list({ namespace: 'langgraph/users/carol' });
      expect(listed.memories.filter((m) => m.status === 'active')).toHaveLength(1);
      // put, delete, put, delete issued at once: the last call wins, nothing is left.
      await Promise.all([store.put(['users', 'carol'], 'car', { text: 'A red Toyota' }), store.delete(['users', 'carol'], 'car'), store.put(['users', 'carol'], 'car', { text: 'A blue Fiat' }), store.delete(['users', 'carol'], 'car')]);
      expect(await store.get(['users', 'carol'], 'car')).toBeNull();
      // A get issued after a put sees it, also without awaiting the put first.
      const [, got] = await Promise.all([store.put(['users', 'carol'], 'pet', { text: 'A cat named Miso' }), store.get(['users', 'carol'], 'pet')]);
      expect(got?.value).toEqual({ text: 'A cat named Miso' });
    } finally {
      await memory.close();
    }
  });

  it('a put changes only its own key: re-putting `home` never supersedes `pet`, after maintenance too (issue 22, h-break9)', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'keys'), create: true, logger: () => {} });
    try {
      const store = await createJevMemStore(memory);
      await store.put(['users', 'alice'], 'home', { text: 'Alice lives in Lisbon', year: 2021 });
      await store.put(['users', 'alice'], 'pet', { text: 'Alice has a parrot named Kiwi', year: 2023 });
      await store.put(['users', 'alice'], 'home', { text: 'Alice moved to Madrid', year: 2024 });
      // An unkeyed memory of the same namespace does not replace a keyed item either.
      await memory.add({ text: 'Alice gave away her parrot and moved to Madrid', observedAt: '2030-01-01' }, { namespace: 'langgraph/users/alice' });
      await memory.maintain({ namespace: 'langgraph/users/alice' });
      expect((await store.get(['users', 'alice'], 'pet'))?.value).toEqual({ text: 'Alice has a parrot named Kiwi', year: 2023 });
      expect((await store.get(['users', 'alice'], 'home'))?.value).toEqual({ text: 'Alice moved to Madrid', year: 2024 });
      const listed = await memory.list({ namespace: 'langgraph/users/alice' });
      const status = Object.fromEntries(listed.memories.map((m) => [m.text.split('\n')[0], m.status]));
      expect(status).toEqual({ 'Alice lives in Lisbon': 'superseded', 'Alice has a parrot named Kiwi': 'active', 'Alice moved to Madrid': 'active', 'Alice gave away her parrot and moved to Madrid': 'active' });
    } finally {
      await memory.close();
    }
  }, 30_000);

  it('put overwrites (one current item, history kept out of sight), filters, deletes, lists namespaces, batches', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'ops'), systemOne: 'heuristic', create: true });
    try {
      const store = await createJevMemStore(memory);
      await store.put(['u', 'bob'], 'city', { text: 'Bob lives in Porto.', year: 2020 });
      await store.put(['u', 'bob'], 'city', { text: 'Bob moved to Madrid.', year: 2024 });
      await store.put(['u', 'bob'], 'food', { text: 'Bob is vegetarian.', year: 2021 });
      await store.put(['u', 'eve', 'notes'], 'x', { text: 'Eve plays chess.', year: 2022 });

      const city = await store.get(['u', 'bob'], 'city');
      expect(city?.value).toEqual({ text: 'Bob moved to Madrid.', year: 2024 });
      expect(city!.createdAt.getTime()).toBeLessThanOrEqual(city!.updatedAt.getTime());
      // Two items under u/bob (the Porto version is superseded history, not an item).
      const all = await store.search(['u', 'bob']);
      expect(all.map((i) => i.key).sort()).toEqual(['city', 'food']);
      expect((await store.search(['u'])).length).toBe(3);
      // Value filters: equality and a range.
      expect((await store.search(['u'], { filter: { year: 2021 } })).map((i) => i.key)).toEqual(['food']);
      expect((await store.search(['u'], { filter: { year: { $gte: 2022 } } })).map((i) => i.value.text).sort()).toEqual(['Bob moved to Madrid.', 'Eve plays chess.']);
      // A query ranks with recall; superseded versions never come back.
      const q = await store.search(['u', 'bob'], { query: 'Which city did Bob move to?', limit: 5 });
      expect(q[0]?.key).toBe('city');
      expect(q.map((i) => i.value.text)).not.toContain('Bob lives in Porto.');
      expect(typeof q[0]?.score).toBe('number');

      expect(await store.listNamespaces()).toEqual([['u', 'bob'], ['u', 'eve', 'notes']]);
      expect(await store.listNamespaces({ suffix: ['notes'] })).toEqual([['u', 'eve', 'notes']]);
      expect(await store.listNamespaces({ prefix: ['u', '*', 'notes'] })).toEqual([['u', 'eve', 'notes']]);
      expect(await store.listNamespaces({ maxDepth: 1 })).toEqual([['u']]);

      // Delete removes every version of the key.
      await store.delete(['u', 'bob'], 'city');
      expect(await store.get(['u', 'bob'], 'city')).toBeNull();
      expect((await memory.list({ namespace: 'langgraph/u/bob', limit: 100 })).memories.map((m) => m.text)).toEqual(['Bob is vegetarian.\nyear: 2021']);

      const [put, got, missing, found] = await store.batch([
        { namespace: ['u', 'bob'], key: 'pet', value: { text: 'Bob has a cat.' } },
        { namespace: ['u', 'bob'], key: 'pet' },
        { namespace: ['u', 'bob'], key: 'nothing' },
        { namespacePrefix: ['u', 'bob'], filter: { text: 'Bob has a cat.' } },
      ] as const);
      expect(put).toBeUndefined();
      expect(got?.value).toEqual({ text: 'Bob has a cat.' });
      expect(missing).toBeNull();
      expect(found.map((i) => i.key)).toEqual(['pet']);
    } finally {
      await memory.close();
    }
  }, 30_000);

  it("a search without a query keeps LangGraph InMemoryStore's order: a re-put key keeps its place, a deleted then re-put key goes last", async () => {
    const memory = await createNodeMemory({ store: join(dir, 'order'), systemOne: 'heuristic', create: true });
    try {
      const ours = await createJevMemStore(memory);
      const theirs = new InMemoryStore();
      const run = async (store: BaseStore): Promise<string[][]> => {
        await store.put(['o'], 'a', { text: 'Ana likes tea.', n: 1 });
        await store.put(['o'], 'b', { text: 'Ben rides a bike.', n: 2 });
        await store.put(['o'], 'c', { text: 'Cleo paints birds.', n: 1 });
        await store.put(['o'], 'a', { text: 'Ana now likes coffee.', n: 1 });
        await store.delete(['o'], 'b');
        await store.put(['o'], 'b', { text: 'Ben walks to work.', n: 2 });
        await store.put(['o'], 'd', { text: 'Dan plays the cello.', n: 1 });
        await store.put(['o'], 'c', { text: 'Cleo paints boats.', n: 1 });
        const keys = (items: Array<{ key: string }>) => items.map((i) => i.key);
        return [keys(await store.search(['o'])), keys(await store.search(['o'], { limit: 2 })), keys(await store.search(['o'], { offset: 1, limit: 2 })), keys(await store.search(['o'], { filter: { n: 1 } })), keys(await store.search(['o'], { filter: { n: 1 }, limit: 2 }))];
      };
      const expected = [['a', 'c', 'b', 'd'], ['a', 'c'], ['c', 'b'], ['a', 'c', 'd'], ['a', 'c']];
      expect(await run(theirs)).toEqual(expected);
      expect(await run(ours)).toEqual(expected);
    } finally {
      await memory.close();
    }
  }, 30_000);

  it('a search with a query and a filter finds the matching item even when 30 better-ranked items do not match (the filter goes into the recall)', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'filtered'), systemOne: 'heuristic', create: true });
    try {
      const store = await createJevMemStore(memory, { recallSlack: 2 });
      for (let i = 0; i < 30; i++) await store.put(['u'], `dog${i}`, { text: `My dog number ${i} likes the beach and long walks.`, kind: 'a' });
      await store.put(['u'], 'cat', { text: 'My cat sleeps on the sofa all day.', kind: 'b' });
      // Without the filter the dogs rank first: k = limit + slack = 3 would hold no cat.
      const plain = await store.search(['u'], { query: 'my dog likes the beach', limit: 1 });
      expect(plain[0]?.value.kind).toBe('a');
      const hits = await store.search(['u'], { query: 'my dog likes the beach', filter: { kind: 'b' }, limit: 1 });
      expect(hits.map((h) => h.key)).toEqual(['cat']);
    } finally {
      await memory.close();
    }
  });
  it('refuses a negative or fractional offset / limit, a key with a control character, and names the value when it is over 16 KiB (issue 22)', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'inputs'), systemOne: 'heuristic', create: true });
    try {
      const store = await createJevMemStore(memory);
      await store.put(['w'], 'a', { text: 'Ada keeps a greenhouse.' });
      await store.put(['w'], 'b', { text: 'Ben restores old radios.' });
      const refusal = async (p: Promise<unknown>): Promise<{ code?: string; field?: string; message?: string }> =>
        p.then(
          () => ({}),
          (e: { code?: string; field?: string; message?: string }) => ({ code: e.code, field: e.field, message: e.message }),
        );
      // slice(-1) read an offset of -1 as "the last item": it returned b.
      expect(await refusal(store.search(['w'], { offset: -1 }))).toMatchObject({ code: 'INVALID_INPUT', field: 'offset' });
      expect(await refusal(store.search(['w'], { offset: 0.5 }))).toMatchObject({ code: 'INVALID_INPUT', field: 'offset' });
      expect(await refusal(store.search(['w'], { limit: -2 }))).toMatchObject({ code: 'INVALID_INPUT', field: 'limit' });
      expect(await refusal(store.search(['w'], { query: 'greenhouse', offset: -1 }))).toMatchObject({ code: 'INVALID_INPUT', field: 'offset' });
      expect(await refusal(store.listNamespaces({ offset: -1 }))).toMatchObject({ code: 'INVALID_INPUT', field: 'offset' });
      expect((await store.search(['w'], { limit: 0 })).length).toBe(0);
      expect((await store.search(['w'], { offset: 1 })).map((i) => i.key)).toEqual(['b']);
      // A key is an id: no NUL (it would print as "a"), on put and get alike.
      expect(await refusal(store.put(['w'], 'a\u0000b', { text: 'x' }))).toMatchObject({ code: 'INVALID_INPUT', field: 'key', message: expect.stringContaining('U+0000') });
      expect(await refusal(store.get(['w'], 'a\u0000b'))).toMatchObject({ code: 'INVALID_INPUT', field: 'key' });
      // A value over the metadata limit is named as the value, not observation.metadata.
      const big = await refusal(store.put(['w'], 'c', { text: 'big', blob: 'x'.repeat(17_000) }));
      expect(big).toMatchObject({ code: 'TOO_LARGE', field: 'value' });
      expect(big.message).toMatch(/^value \(with its key, as stored\): \d+ bytes as JSON is over the limit of 16384/);
      // What add refuses inside the value is named there too.
      const nan = await refusal(store.put(['w'], 'd', { text: 'nan', score: Number.NaN }));
      expect(nan).toMatchObject({ code: 'INVALID_INPUT', field: 'value' });
      expect(nan.message).toBe('value: must hold finite numbers only; got NaN (at value.score), which JSON stores as null');
      expect((await store.search(['w'])).map((i) => i.key)).toEqual(['a', 'b']);
    } finally {
      await memory.close();
    }
  });

  it("keeps every key: two keys with the same value are two items, as in LangGraph's InMemoryStore (h-break10 finding 2)", async () => {
    const memory = await createNodeMemory({ store: join(dir, 'same-value'), systemOne: 'heuristic', create: true });
    try {
      const ours = await createJevMemStore(memory);
      // The review's lg.mjs sequence, against @langchain/langgraph's own InMemoryStore.
      const run = async (store: BaseStore): Promise<unknown[]> => {
        const out: unknown[] = [];
        const item = (i: { key: string; value: unknown } | null) => (i === null ? null : { key: i.key, value: i.value });
        await store.put(['t'], 'k1', { text: 'same text' });
        await store.put(['t'], 'k2', { text: 'same text' });
        out.push(item(await store.get(['t'], 'k1')), item(await store.get(['t'], 'k2')));
        out.push((await store.search(['t'])).map(item));
        await store.delete(['t'], 'k1');
        out.push(item(await store.get(['t'], 'k1')), item(await store.get(['t'], 'k2')));
        // k1 again with the value k2 holds: a third put of that value, its own item again.
        await store.put(['t'], 'k1', { text: 'same text' });
        out.push((await store.search(['t'])).map(item));
        await store.delete(['t'], 'k2');
        out.push((await store.search(['t'])).map(item));
        return out;
      };
      const same = { text: 'same text' };
      const expected = [{ key: 'k1', value: same }, { key: 'k2', value: same }, [{ key: 'k1', value: same }, { key: 'k2', value: same }], null, { key: 'k2', value: same }, [{ key: 'k2', value: same }, { key: 'k1', value: same }], [{ key: 'k1', value: same }]];
      expect(await run(new GraphInMemoryStore())).toEqual(expected);
      expect(await run(ours)).toEqual(expected);
    } finally {
      await memory.close();
    }
  }, 30_000);
});
