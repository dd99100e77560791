/**
 * Development-split candidate dump for the offline ranking loop (never the test split): builds each
 * development conversation with the shipped System One, recalls every question of categories 1-4,
 * and writes every logged candidate request (query, candidate text, signals, via) with the gold
 * evidence turns and the returned ranking, as JSON lines.
 *
 *   npx tsx bench/training/dump-candidates.ts --out /tmp/jev/dump.jsonl [--explore] [--parameters '{"poolThreshold":0.5}']
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { LOCOMO_DEV, locomoConversation, parseLocomo } from '../../src/formats/locomo.js';
import { createMemory } from '../../src/memory.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(root, '..', 'shared', 'data', 'locomo10.json') },
    out: { type: 'string', default: '/tmp/jev/dump.jsonl' },
    explore: { type: 'boolean', default: false },
    // read parameters over the defaults (and over --explore), e.g. '{"poolThreshold":0.5}'
    parameters: { type: 'string', default: '{}' },
  },
});
const EXPLORE = { thetaSuff: 1, thetaCont: 0, maintenanceInterval: 0, anchors: 60, maxVisited: 200, budget: 200, maxControllerCalls: 24 };
const samples = parseLocomo(await readFile(values.data as string, 'utf8')).filter((s) => LOCOMO_DEV.includes(s.sample_id));
const encoder = await createDefaultNodeEncoder();
const inner = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
const log: SystemOneRequest[] = [];
const backend: SystemOneBackend = {
  kind: inner.kind,
  modelId: inner.modelId,
  ...(inner.parameters !== undefined ? { parameters: inner.parameters } : {}),
  decide: (r, o) => (log.push(r), inner.decide(r, o)),
  decideMany: (rs, o) => (log.push(...rs), inner.decideMany(rs, o)),
  close: () => inner.close(),
};
const lines: string[] = [];
for (const s of samples) {
  const conv = locomoConversation(s);
  const parameters = { ...(values.explore ? EXPLORE : {}), ...(JSON.parse(values.parameters as string) as Record<string, number>) };
  const memory = await createMemory({ encoder, systemOne: backend, parameters });
  const added = await memory.addMany(conv.observations);
  const turnOf = new Map(added.map((a, i) => [a.id, conv.observations[i]?.turnId as string]));
  for (const q of conv.questions) {
    if (q.category === 5 || q.evidence.length === 0 || q.brokenEvidence) continue;
    log.length = 0;
    const r = await memory.recall(q.question, { k: 50 });
    const reqs = log
      .filter((x) => (x.state as { kind?: string }).kind === 'candidates')
      .map((x) => (x.state as unknown as { candidates: Array<Record<string, unknown>> }).candidates.map((c) => ({ ...c, turn: turnOf.get(c.ref as string) })));
    lines.push(JSON.stringify({ conv: conv.sampleId, id: q.id, category: q.category, question: q.question, gold: q.evidence, ranked: r.memories.map((m) => turnOf.get(m.id)), reqs }));
  }
  await memory.close();
  console.log(`${conv.sampleId}: ${lines.length} questions so far`);
}
await writeFile(values.out as string, lines.join('\n') + '\n');
await backend.close();
