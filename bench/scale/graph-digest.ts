/**
 * The graph a tree builds from the LoCoMo dev conversations (0-4), as digests (h-writeperf2, issue
 * 22: a write-path speed change must leave every decision as it was). Each conversation goes
 * through `<repo>`'s own `createNodeMemory` (in-memory storage, its encoder and local System One,
 * one `addMany`, fixed clock and ids `n0`, `n1`, …), then `export()`; printed per conversation:
 * nodes, edges, superseded nodes and a SHA-256 (16 hex) of the sorted edges (from, to, view,
 * subtype, weight) and node states (id, status, supersededBy). Equal lines, equal graphs.
 *
 * `cd <repo> && node --import tsx <this repo>/bench/scale/graph-digest.ts <repo> [--data locomo10.json]`
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

const repo = resolve(process.argv[2] ?? '.');
const dataIndex = process.argv.indexOf('--data');
const { createNodeMemory } = (await import(`${repo}/src/node.ts`)) as typeof import('../../src/node.js');
const { createMemoryStorage } = (await import(`${repo}/src/plane/store/memory-storage.ts`)) as typeof import('../../src/plane/store/memory-storage.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');
const { sharedEncoder } = (await import(`${repo}/bench/lib/jev.ts`)) as typeof import('../lib/jev.js');

const data = await loadLocomo(dataIndex > 0 ? (process.argv[dataIndex + 1] as string) : defaultLocomoPath());
const encoder = sharedEncoder(await createDefaultNodeEncoder());
for (const conv of data.conversations.slice(0, 5)) {
  let next = 0;
  const memory = await createNodeMemory({
    store: `/tmp/graph-digest-unused-${process.pid}`,
    storage: createMemoryStorage(),
    namespace: conv.sampleId,
    encoder,
    systemOne: await createSystemOneFromName('local', { env: process.env }),
    now: () => new Date('2026-01-01T00:00:00Z'),
    newId: () => `n${next++}`,
  });
  const cpu = process.cpuUsage();
  await memory.addMany(conv.observations);
  const u = process.cpuUsage(cpu);
  const dump = (await memory.export()) as unknown as { nodes: Array<{ id: string; status: string; supersededBy?: string[] }>; edges: Array<{ from: string; to: string; view: string; subtype?: string; weight: number }> };
  const edges = dump.edges.map((e) => `${e.from} ${e.to} ${e.view} ${e.subtype ?? ''} ${e.weight}`).sort();
  const nodes = dump.nodes.map((n) => `${n.id} ${n.status} ${(n.supersededBy ?? []).join(',')}`).sort();
  const hash = createHash('sha256').update(edges.join('\n')).update('\n--\n').update(nodes.join('\n')).digest('hex').slice(0, 16);
  const superseded = dump.nodes.filter((n) => n.status === 'superseded').length;
  console.log(JSON.stringify({ conversation: conv.sampleId, nodes: nodes.length, edges: edges.length, superseded, digest: hash, buildCpuS: Number(((u.user + u.system) / 1e6).toFixed(1)) }));
  await memory.close();
}
