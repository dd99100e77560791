/**
 * The edge Worker in workerd (Miniflare), over HTTP on 127.0.0.1: the API, LoCoMo ingestion and
 * recall parity with the Node build, namespace isolation, auth, every error status, System Two,
 * and durability of the SQLite-backed Durable Object across a runtime restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { locomoConversation, type LocomoSample } from '../../src/formats/locomo.js';
import type { Memory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import type { MemoryEdge, MemoryNode } from '../../src/types.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { buildEdgeBundle, call, startEdge, type EdgeBundle, type RunningEdge } from './harness.js';
import { locomoConv26, sampleConversationAsLocomo } from './locomo-sample.js';

const TOKEN = 'all-namespaces-token';
const CAROL_TOKEN = 'carol-only-token';
/** Stated tolerance of Worker vs Node recall scores (the top-10 ids must be identical, in order). */
const SCORE_TOLERANCE = 1e-6;

let bundle: EdgeBundle;
let edge: RunningEdge;
let chat: ChatServer;

beforeAll(async () => {
  bundle = buildEdgeBundle();
  chat = await startChatServer({ reply: () => 'Theo runs the half marathon on 14 April.' });
  edge = await startEdge(bundle, {
    bindings: {
      JEV_MEM_TOKEN: TOKEN,
      JEV_MEM_TOKENS: JSON.stringify({ carol: CAROL_TOKEN }),
      JEV_MEM_LLM_BASE_URL: chat.url.replace(/\/chat\/completions$/, ''),
      JEV_MEM_LLM_MODEL: 'test-model',
    },
  });
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  await chat?.close();
  bundle?.remove();
});

/** A call with the all-namespaces token (or `token`). */
function api(method: string, path: string, body?: unknown, token: string | undefined = TOKEN) {
  return call(edge, method, path, { token, ...(body !== undefined ? { body } : {}) });
}

describe('HTTP API', () => {
  it('writes one observation and answers 201 with its id', async () => {
    const r = await api('POST', '/v1/namespaces/api-one/memories', { text: 'Maya: I adopted a greyhound called Pepper.', observedAt: '2024-05-01T09:00:00Z', speaker: 'Maya' });
    expect(r.status).toBe(201);
    expect(r.json.added).toBe(1);
    expect(r.json.results).toHaveLength(1);
    expect(r.json.results[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes a batch and answers one result per observation, in order', async () => {
    const r = await api('POST', '/v1/namespaces/api-batch/memories', { observations: [{ text: 'first note' }, { text: 'second note' }, { text: 'third note' }] });
    expect(r.status).toBe(201);
    expect(r.json.added).toBe(3);
    const exp = await api('GET', '/v1/namespaces/api-batch/export');
    expect(exp.json.nodes.map((n: { id: string }) => n.id)).toEqual(r.json.results.map((x: { id: string }) => x.id));
    expect(exp.json.nodes.map((n: { text: string }) => n.text)).toEqual(['first note', 'second note', 'third note']);
  });

  it('accepts a bare JSON array as a batch', async () => {
    const r = await api('POST', '/v1/namespaces/api-array/memories', [{ text: 'one' }, { text: 'two' }]);
    expect(r.status).toBe(201);
    expect(r.json.results).toHaveLength(2);
  });

  it('recall answers the memories, best first, with the trace', async () => {
    await api('POST', '/v1/namespaces/api-recall/memories', { observations: [{ text: 'Theo: I replaced the chain on my bike.' }, { text: 'Maya: The pottery class is on Tuesday.' }] });
    const r = await api('POST', '/v1/namespaces/api-recall/recall', { query: 'What did Theo replace on his bike?', k: 1 });
    expect(r.status).toBe(200);
    expect(r.json.memories.map((m: { text: string }) => m.text)).toEqual(['Theo: I replaced the chain on my bike.']);
    expect(r.json.trace.namespace).toBe('api-recall');
    expect(typeof r.json.trace.stopReason).toBe('string');
  });

  it('deletes one memory (200), then answers 404 for it', async () => {
    const w = await api('POST', '/v1/namespaces/api-delete/memories', { observations: [{ text: 'keep me' }, { text: 'drop me' }] });
    const id = w.json.results[1].id as string;
    expect((await api('DELETE', `/v1/namespaces/api-delete/memories/${id}`)).json).toEqual({ deleted: true, id });
    const again = await api('DELETE', `/v1/namespaces/api-delete/memories/${id}`);
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('NOT_FOUND');
    const exp = await api('GET', '/v1/namespaces/api-delete/export');
    expect(exp.json.nodes.map((n: { text: string }) => n.text)).toEqual(['keep me']);
  });

  it('deletes a whole namespace: its export is empty afterwards and it can be written again', async () => {
    await api('POST', '/v1/namespaces/api-drop/memories', { observations: [{ text: 'a' }, { text: 'b' }] });
    const d = await api('DELETE', '/v1/namespaces/api-drop');
    expect(d.status).toBe(200);
    expect(d.json).toEqual({ deleted: true, namespace: 'api-drop' });
    expect((await api('GET', '/v1/namespaces/api-drop/export')).json.nodes).toEqual([]);
    expect((await api('POST', '/v1/namespaces/api-drop/memories', { text: 'c' })).status).toBe(201);
    expect((await api('GET', '/v1/namespaces/api-drop')).json.nodes).toBe(1);
  });

  it('GET on a namespace answers its counts', async () => {
    await api('POST', '/v1/namespaces/api-stats/memories', { observations: [{ text: 'x one', sessionId: 's' }, { text: 'x two', sessionId: 's' }] });
    const r = await api('GET', '/v1/namespaces/api-stats');
    expect(r.status).toBe(200);
    expect(r.json.nodes).toBe(2);
    expect(r.json.vectorIndex).toBe('flat');
    expect(r.json.systemOne).toMatch(/^jev-mem\/system-one@/);
  });

  it('concurrent writes (8 at a time) all land: the count and the export match', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `concurrent note number ${i}`);
    const ids: string[] = [];
    for (let i = 0; i < texts.length; i += 8) {
      const rs = await Promise.all(texts.slice(i, i + 8).map((text) => api('POST', '/v1/namespaces/api-concurrent/memories', { text })));
      for (const r of rs) ids.push(r.json.results[0].id);
    }
    const exp = await api('GET', '/v1/namespaces/api-concurrent/export');
    expect(new Set(exp.json.nodes.map((n: { id: string }) => n.id))).toEqual(new Set(ids));
    expect(exp.json.nodes.map((n: { text: string }) => n.text).sort()).toEqual([...texts].sort());
  });
});

/** Writes `sample` through the Worker and the Node build; compares recall top-10 for `queries`. */
async function compareWithNode(sample: LocomoSample, namespace: string, queries: string[]): Promise<{ mismatches: string[]; compared: number; graph: { worker: string[]; node: string[]; typeDiff: number } }> {
  const conv = locomoConversation(sample);
  // The Node build as the CLI runs it: createNodeMemory + the local System One (onnxruntime engine),
  // on a SQLite store with the lexical engine of the Durable Object (FTS5 kept by the store).
  // It writes first: its seconds of synchronous work would leave the HTTP keep-alive socket idle.
  const systemOne: SystemOneBackend = await createLocalSystemOne({ load: createNodeAssetLoader() });
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-parity-'));
  const node: Memory = await createNodeMemory({ systemOne, storage: await createSqliteFileStorage({ dir, lexical: 'fts5' }) });
  try {
    await node.addMany(conv.observations);
    const w = await api('POST', `/v1/namespaces/${namespace}/memories`, { observations: conv.observations });
    expect(w.status).toBe(201);
    expect(w.json.results).toHaveLength(conv.observations.length);
    // The write path's decisions: typing (node types) and relations (edges), keyed by turn.
    const edgeExport = (await api('GET', `/v1/namespaces/${namespace}/export`)).json as { nodes: MemoryNode[]; edges: MemoryEdge[] };
    const nodeExport = await node.export();
    const graphOf = (x: { nodes: MemoryNode[]; edges: MemoryEdge[] }): string[] => {
      const turn = new Map(x.nodes.map((n) => [n.id, n.provenance.turnId]));
      return x.edges.map((e) => `${turn.get(e.from)}>${turn.get(e.to)} ${e.view}/${e.subtype} ${e.origin.kind} ${e.weight.toFixed(6)}`).sort();
    };
    const typesByTurn = new Map(nodeExport.nodes.map((n) => [n.provenance.turnId, n.types]));
    let typeDiff = 0;
    for (const n of edgeExport.nodes) {
      const t = typesByTurn.get(n.provenance.turnId) as MemoryNode['types'];
      for (const k of ['episodic', 'semantic', 'procedural', 'preference'] as const) typeDiff = Math.max(typeDiff, Math.abs(n.types[k] - t[k]));
    }
    const graph = { worker: graphOf(edgeExport), node: graphOf(nodeExport), typeDiff };
    const mismatches: string[] = [];
    for (const query of queries) {
      const [fromEdge, fromNode] = await Promise.all([api('POST', `/v1/namespaces/${namespace}/recall`, { query, k: 10 }), node.recall(query, { k: 10 })]);
      const edgeTop = (fromEdge.json.memories as Array<{ provenance: { turnId: string }; score: number }>).map((m) => [m.provenance.turnId, m.score] as const);
      const nodeTop = fromNode.memories.map((m) => [m.provenance.turnId as string, m.score] as const);
      const sameIds = edgeTop.map((x) => x[0]).join() === nodeTop.map((x) => x[0]).join();
      const closeScores = sameIds && edgeTop.every((x, i) => Math.abs(x[1] - (nodeTop[i] as readonly [string, number])[1]) <= SCORE_TOLERANCE);
      if (!closeScores) mismatches.push(`${query}: worker [${edgeTop.map((x) => x[0]).join(' ')}] node [${nodeTop.map((x) => x[0]).join(' ')}]`);
    }
    return { mismatches, compared: queries.length, graph };
  } finally {
    await node.close();
    await systemOne.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('LoCoMo conversation: ingestion and parity with the Node build', () => {
  const sample = sampleConversationAsLocomo();

  it('stores one node per turn, in order, with the dia_id and the session date', async () => {
    const conv = locomoConversation(sample);
    const w = await api('POST', '/v1/namespaces/locomo-ingest/memories', { observations: conv.observations });
    expect(w.status).toBe(201);
    const exp = await api('GET', '/v1/namespaces/locomo-ingest/export');
    expect(exp.json.nodes.map((n: { provenance: { turnId: string } }) => n.provenance.turnId)).toEqual(conv.observations.map((o) => o.turnId));
    expect(exp.json.nodes[10].observedAt).toBe('2024-03-16T18:40:00.000Z'); // "6:40 pm on 16 March, 2024"
    expect(exp.json.nodes.map((n: { text: string }) => n.text)).toEqual(conv.observations.map((o) => o.text));
  });

  it('writes the same graph and recalls the same top-10 as the Node build, for every question and turn', async () => {
    const conv = locomoConversation(sample);
    const queries = [...conv.questions.map((q) => q.question), ...conv.observations.map((o) => o.text)];
    const { mismatches, compared, graph } = await compareWithNode(sample, 'locomo-parity', queries);
    expect(compared).toBe(38);
    expect(mismatches).toEqual([]);
    // The same System-One decisions on the write path: the same edges, the same type scores.
    expect(graph.worker.length).toBeGreaterThan(30);
    expect(graph.worker).toEqual(graph.node);
    expect(graph.typeDiff).toBeLessThanOrEqual(SCORE_TOLERANCE);
  });

  const conv26 = locomoConv26();
  it.runIf(conv26 !== undefined)('on LoCoMo conv-26 (../shared/data/locomo10.json), the graph and the top-10 of 100 questions equal the Node build', async () => {
    const conv = locomoConversation(conv26 as LocomoSample);
    const { mismatches, graph } = await compareWithNode(conv26 as LocomoSample, 'locomo-conv-26', conv.questions.slice(0, 100).map((q) => q.question));
    expect(mismatches).toEqual([]);
    expect(graph.worker).toEqual(graph.node);
    expect(graph.typeDiff).toBeLessThanOrEqual(SCORE_TOLERANCE);
  }, 120_000);
});

describe('namespaces', () => {
  it('a memory written to one namespace is not recalled, exported or counted in another', async () => {
    await api('POST', '/v1/namespaces/iso-a/memories', { text: 'The vault code is 4812.' });
    await api('POST', '/v1/namespaces/iso-b/memories', { text: 'Groceries: milk and eggs.' });
    const r = await api('POST', '/v1/namespaces/iso-b/recall', { query: 'What is the vault code?', k: 10 });
    expect(r.json.memories.map((m: { text: string }) => m.text)).toEqual(['Groceries: milk and eggs.']);
    expect((await api('GET', '/v1/namespaces/iso-b/export')).json.nodes).toHaveLength(1);
  });

  it('deleting one namespace leaves the others as they were', async () => {
    await api('POST', '/v1/namespaces/iso-keep/memories', { text: 'stays' });
    await api('POST', '/v1/namespaces/iso-gone/memories', { text: 'goes' });
    await api('DELETE', '/v1/namespaces/iso-gone');
    expect((await api('GET', '/v1/namespaces/iso-keep/export')).json.nodes.map((n: { text: string }) => n.text)).toEqual(['stays']);
  });

  it("a namespace's own token opens that namespace and no other", async () => {
    expect((await api('POST', '/v1/namespaces/carol/memories', { text: 'carol note' }, CAROL_TOKEN)).status).toBe(201);
    const other = await api('POST', '/v1/namespaces/dave/recall', { query: 'note' }, CAROL_TOKEN);
    expect(other.status).toBe(401);
    expect(other.json.error.message).toContain('"dave"');
  });
});

describe('auth', () => {
  it('refuses a request without a token: 401 with WWW-Authenticate', async () => {
    const r = await call(edge, 'POST', '/v1/namespaces/auth/recall', { body: { query: 'x' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="jev-mem"');
    expect(r.json.error.code).toBe('UNAUTHORIZED');
  });

  it('refuses a wrong token, and a token sent with another scheme', async () => {
    expect((await api('GET', '/v1/namespaces/auth/export', undefined, 'wrong-token')).status).toBe(401);
    const basic = await call(edge, 'GET', '/v1/namespaces/auth/export', { headers: { authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it('checks the token before reading the body (an unauthenticated bad body is 401, not 400)', async () => {
    const r = await call(edge, 'POST', '/v1/namespaces/auth/recall', { rawBody: '{not json' });
    expect(r.status).toBe(401);
  });
});

describe('errors', () => {
  it('bad JSON → 400 naming the body and the parser problem', async () => {
    const r = await call(edge, 'POST', '/v1/namespaces/err/recall', { token: TOKEN, rawBody: '{"query": "x",}', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_INPUT');
    expect(r.json.error.field).toBe('body');
    expect(r.json.error.message).toMatch(/not valid JSON \(.+\)/);
  });

  it('an empty observation text → 400 naming the field', async () => {
    const r = await api('POST', '/v1/namespaces/err/memories', { observations: [{ text: 'fine' }, { text: '   ' }] });
    expect(r.status).toBe(400);
    expect(r.json.error.field).toBe('observations[1].text');
    expect((await api('GET', '/v1/namespaces/err/export')).json.nodes).toEqual([]); // nothing half-written
  });

  it('an unknown field or a bad k → 400 naming it', async () => {
    expect((await api('POST', '/v1/namespaces/err/recall', { query: 'x', top: 3 })).json.error.field).toBe('top');
    expect((await api('POST', '/v1/namespaces/err/recall', { query: 'x', k: 0 })).json.error.field).toBe('k');
    expect((await api('POST', '/v1/namespaces/err/recall', { k: 3 })).json.error.field).toBe('query');
  });

  it('a body over the limit (1 MiB) → 413', async () => {
    const r = await api('POST', '/v1/namespaces/err/memories', { text: 'x'.repeat(1_100_000) });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('TOO_LARGE');
    expect(r.json.error.field).toBe('body');
  });

  it('more observations than JEV_MEM_MAX_BATCH (1000) in one request → 413 naming observations', async () => {
    const r = await api('POST', '/v1/namespaces/err/memories', { observations: Array.from({ length: 1001 }, (_, i) => ({ text: `n${i}` })) });
    expect(r.status).toBe(413);
    expect(r.json.error.field).toBe('observations');
  });

  it('an unknown route → 404; a known path with another method → 405 with Allow', async () => {
    const unknown = await api('GET', '/v1/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    expect((await api('POST', '/v1/namespaces/err/memories/abc/extra', {})).status).toBe(404);
    const wrong = await api('GET', '/v1/namespaces/err/recall');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('a namespace with characters outside A-Z a-z 0-9 . _ ~ - → 400 naming namespace', async () => {
    const r = await api('GET', '/v1/namespaces/bad%20name/export');
    expect(r.status).toBe(400);
    expect(r.json.error.field).toBe('namespace');
  });

  it('System Two failing upstream → 502 with its code', async () => {
    chat.enqueue({ kind: 'status', status: 500, body: 'upstream broke' }, { kind: 'status', status: 500, body: 'upstream broke' }, { kind: 'status', status: 500, body: 'upstream broke' });
    await api('POST', '/v1/namespaces/err-s2/memories', { text: 'something to recall' });
    const r = await api('POST', '/v1/namespaces/err-s2/answer', { query: 'what?' });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('SYSTEM_TWO_HTTP');
    chat.reset();
  });

  it('no error response carries a stack trace: each is a JSON error object', async () => {
    const bad = await Promise.all([
      call(edge, 'GET', '/v1/nowhere', { token: TOKEN }),
      call(edge, 'PUT', '/v1/namespaces/st/recall', { token: TOKEN }),
      call(edge, 'POST', '/v1/namespaces/st/recall', { token: 'nope', body: { query: 'x' } }),
      call(edge, 'POST', '/v1/namespaces/st/recall', { token: TOKEN, rawBody: '{"query": [' }),
      call(edge, 'POST', '/v1/namespaces/st/recall', { token: TOKEN, rawBody: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }),
      call(edge, 'POST', '/v1/namespaces/st/memories', { token: TOKEN, body: { text: 'x', observedAt: 'not a date' } }),
      call(edge, 'POST', '/v1/namespaces/st/memories', { token: TOKEN, body: { text: 'x'.repeat(1_100_000) } }),
      call(edge, 'DELETE', '/v1/namespaces/st/memories/%E0%A4%A', { token: TOKEN }),
      call(edge, 'GET', '/v1/namespaces/..%2F/export', { token: TOKEN }),
      call(edge, 'DELETE', '/v1/namespaces/st/memories/no-such-id', { token: TOKEN }),
    ]);
    expect(bad.map((r) => r.status)).toEqual([404, 405, 401, 400, 400, 400, 413, 400, 400, 404]);
    for (const r of bad) {
      expect(r.text).not.toMatch(/\n\s+at\s|\.(?:js|ts):\d+:\d+/);
      expect(Object.keys(r.json)).toEqual(['error']);
      expect(typeof r.json.error.message).toBe('string');
    }
  });
});

describe('System Two', () => {
  it('answer writes the System-Two reply from the recalled evidence', async () => {
    await api('POST', '/v1/namespaces/s2/memories', { text: "Theo: The race is on 14 April, so I'm running 40 km a week.", observedAt: '2024-03-02T10:15:00Z', speaker: 'Theo' });
    const r = await api('POST', '/v1/namespaces/s2/answer', { query: "When is Theo's half marathon?", k: 5 });
    expect(r.status).toBe(200);
    expect(r.json.text).toBe('Theo runs the half marathon on 14 April.');
    expect(r.json.memories[0].text).toContain('14 April');
    const sent = chat.requests.at(-1)?.body as { model: string; messages: Array<{ content: string }> };
    expect(sent.model).toBe('test-model');
    expect(sent.messages.map((m) => m.content).join('\n')).toContain('The race is on 14 April');
  });
});

describe('durability', () => {
  it('memories survive a restart of the runtime (SQLite-backed Durable Object); answer without System Two → 501', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-edge-persist-'));
    try {
      const first = await startEdge(bundle, { bindings: { JEV_MEM_TOKEN: TOKEN }, persistDir: dir });
      await call(first, 'POST', '/v1/namespaces/durable/memories', { token: TOKEN, body: { observations: [{ text: 'written before the restart' }, { text: 'me too' }] } });
      const before = await call(first, 'GET', '/v1/namespaces/durable/export', { token: TOKEN });
      await first.dispose();
      const second = await startEdge(bundle, { bindings: { JEV_MEM_TOKEN: TOKEN }, persistDir: dir });
      try {
        const after = await call(second, 'GET', '/v1/namespaces/durable/export', { token: TOKEN });
        expect(after.json.nodes).toEqual(before.json.nodes);
        expect(after.json.edges).toEqual(before.json.edges);
        const r = await call(second, 'POST', '/v1/namespaces/durable/recall', { token: TOKEN, body: { query: 'restart' } });
        expect(r.json.memories[0].text).toBe('written before the restart');
        const a = await call(second, 'POST', '/v1/namespaces/durable/answer', { token: TOKEN, body: { query: 'restart' } });
        expect(a.status).toBe(501);
        expect(a.json.error.code).toBe('SYSTEM_TWO_NOT_CONFIGURED');
      } finally {
        await second.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
