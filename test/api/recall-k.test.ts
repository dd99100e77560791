/**
 * The upper bound of a recall's `k` (MAX_RECALL_K = 1,000, config.ts): `recall(q, { k: 1e9 })`
 * was accepted. Above the bound the API refuses with INVALID_INPUT naming `options.k`, the
 * parameters `k` / `kMultiHop` with INVALID_OPTION, the AI SDK middleware's `k` with
 * INVALID_OPTION, and a LangGraph search whose page lies past the bound with INVALID_INPUT
 * naming `offset` (its recall's `k`, offset + limit + slack, is capped at the bound).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECALL_K, resolveParameters } from '../../src/config.js';
import { memoryMiddleware } from '../../src/integrations/ai-sdk.js';
import { createJevMemStore } from '../../src/integrations/langgraph.js';
import type { Memory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-recall-k-'));
let memory: Memory;

beforeAll(async () => {
  memory = await createNodeMemory({ store: join(dir, 'store'), systemOne: 'heuristic', create: true });
  await memory.addMany([{ text: 'My dog Biscuit is a beagle.' }, { text: 'I work at Acme as a welder.' }, { text: 'We went to Lisbon in May.' }]);
});
afterAll(async () => {
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('recall k has an upper bound', () => {
  it('is 1,000', () => {
    expect(MAX_RECALL_K).toBe(1000);
  });

  it('k = 1e9 and k = 1001 are refused naming options.k; k = 1000 is accepted (and returns the 3 memories there are)', async () => {
    await expect(memory.recall('dog', { k: 1e9 })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'options.k', message: 'options.k: expected at most 1000 (MAX_RECALL_K), got 1000000000' });
    await expect(memory.recall('dog', { k: 1001 })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'options.k' });
    expect((await memory.recall('dog', { k: 1000 })).memories).toHaveLength(3);
  });

  it('the parameters k and kMultiHop are bounded the same way, at creation and per call', async () => {
    expect(() => resolveParameters({ k: 1001, kMultiHop: 1001 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'parameters.k' }));
    expect(() => resolveParameters({ kMultiHop: 2000 })).toThrow('option parameters.kMultiHop: expected at most 1000 (MAX_RECALL_K), got 2000');
    expect(resolveParameters({ k: 1000, kMultiHop: 1000 }).kMultiHop).toBe(1000);
    await expect(memory.recall('dog', { parameters: { kMultiHop: 1e6 } })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'options.parameters.kMultiHop' });
  });

  it('the AI SDK middleware refuses k above the bound', () => {
    expect(() => memoryMiddleware(memory, { k: 1001 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'k' }));
    expect(() => memoryMiddleware(memory, { k: 1000 })).not.toThrow();
  });

  it('a LangGraph search caps its recall at the bound and refuses a page past it', async () => {
    const ks: Array<number | undefined> = [];
    const spy: Memory = Object.create(memory, {
      recall: { value: (q: string, o?: Parameters<Memory['recall']>[1]) => (ks.push(o?.k), memory.recall(q, o)) },
    }) as Memory;
    const store = await createJevMemStore(spy);
    await store.put(['u'], 'pet', { text: 'My cat Miso is grey.' });
    // offset + limit + slack = 0 + 995 + 10 = 1005, capped at 1000.
    expect((await store.search(['u'], { query: 'cat', limit: 995 })).map((i) => i.key)).toEqual(['pet']);
    expect(ks).toEqual([1000]);
    await expect(store.search(['u'], { query: 'cat', offset: 995, limit: 10 })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'offset' });
    await expect(createJevMemStore(memory, { recallSlack: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'recallSlack' });
  });
});
