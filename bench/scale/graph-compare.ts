/**
 * Bulk against per-write ingestion of one LoCoMo dev conversation (issue 25, h-fast): the graph
 * `<repo>`'s memory builds with one `add` per turn, and with one `addMany` (in-memory storage,
 * its encoder and local System One, a fixed clock and ids counted from 1), compared edge for edge:
 * per `view:subtype:origin` the counts of both and the edges in one graph only, the superseded
 * nodes of each, and the CPU of each build (`process.cpuUsage`).
 *
 * `node --import tsx bench/scale/graph-compare.ts <repo> [conversation index 0-4] [turns] [--data locomo10.json] [--param name=value]…`
 *
 * Dev conversations only (0-4): this is a tuning tool.
 *
 * @module
 */
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const take = (name: string): string[] => {
  const out: string[] = [];
  for (let i = args.indexOf(name); i >= 0; i = args.indexOf(name)) {
    out.push(args[i + 1] as string);
    args.splice(i, 2);
  }
  return out;
};
const dataPath = take('--data')[0];
const parameters: Record<string, unknown> = {};
for (const p of take('--param')) {
  const [k, v] = p.split('=') as [string, string];
  parameters[k] = Number.isFinite(Number(v)) ? Number(v) : v;
}
const repo = resolve(args[0] ?? '.');
const index = Number(args[1] ?? 0);
if (!(index >= 0 && index <= 4)) throw new Error('dev conversations only: index 0-4');
const turns = args[2] === undefined ? Number.POSITIVE_INFINITY : Number(args[2]);
const { createMemory } = (await import(`${repo}/src/memory.ts`)) as typeof import('../../src/memory.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');

const data = await loadLocomo(dataPath ?? defaultLocomoPath());
const conv = data.conversations[index] as (typeof data.conversations)[number];
const observations = conv.observations.slice(0, turns);
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
type G = { nodes: Array<{ id: string; status: string }>; edges: Array<{ id: string; view: string; subtype?: string; origin: { kind: string } }>; cpuMs: number };
async function build(bulk: boolean): Promise<G> {
  let n = 0;
  const memory = await createMemory({ encoder, systemOne, now: () => new Date('2026-01-01T00:00:00.000Z'), newId: () => `n${++n}`, parameters });
  const cpu0 = process.cpuUsage();
  if (bulk) await memory.addMany(observations);
  else for (const o of observations) await memory.add(o);
  const cpu = process.cpuUsage(cpu0);
  const ex = (await memory.export()) as unknown as G;
  await memory.close();
  return { nodes: ex.nodes, edges: ex.edges, cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
}
const a = await build(false);
const b = await build(true);
const kind = (e: G['edges'][number]): string => `${e.view}:${e.subtype ?? ''}:${e.origin.kind}`;
const ia = new Set(a.edges.map((e) => e.id));
const ib = new Set(b.edges.map((e) => e.id));
const rows: Record<string, { perWrite: number; bulk: number; onlyPerWrite: number; onlyBulk: number }> = {};
const row = (k: string) => (rows[k] ??= { perWrite: 0, bulk: 0, onlyPerWrite: 0, onlyBulk: 0 });
for (const e of a.edges) { row(kind(e)).perWrite++; if (!ib.has(e.id)) row(kind(e)).onlyPerWrite++; }
for (const e of b.edges) { row(kind(e)).bulk++; if (!ia.has(e.id)) row(kind(e)).onlyBulk++; }
const sup = (g: G) => g.nodes.filter((x) => x.status === 'superseded').map((x) => x.id);
const sa = sup(a);
const sb = sup(b);
console.log(JSON.stringify({ repo, conversation: conv.sampleId, turns: observations.length, parameters, edges: { perWrite: a.edges.length, bulk: b.edges.length, onlyPerWrite: a.edges.filter((e) => !ib.has(e.id)).length, onlyBulk: b.edges.filter((e) => !ia.has(e.id)).length }, superseded: { perWrite: sa.length, bulk: sb.length, both: sa.filter((x) => sb.includes(x)).length }, cpuMs: { perWrite: a.cpuMs, bulk: b.cpuMs } }));
for (const [k, r] of Object.entries(rows).sort()) console.log(k.padEnd(36), JSON.stringify(r));
await systemOne.close?.();
await encoder.close?.();
