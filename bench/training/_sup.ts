import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createMemory } from '../../src/memory.js';
import { loadLocomo } from '../lib/data.js';
const data = await loadLocomo();
const encoder = await createDefaultNodeEncoder();
for (const id of process.argv.slice(2)) {
  const conv = data.conversations.find((c) => c.sampleId === id)!;
  const memory = await createMemory({ encoder });
  await memory.addMany(conv.observations);
  await memory.maintain();
  const ex = await memory.export() as unknown as { nodes: Array<{ id: string; text: string; status: string; supersededBy: string[] }> };
  const byId = new Map(ex.nodes.map((n) => [n.id, n]));
  const sup = ex.nodes.filter((n) => n.status === 'superseded');
  console.log(id, 'superseded', sup.length);
  for (const n of sup) console.log('  OLD', n.text.slice(0, 100), '\n  NEW', (byId.get(n.supersededBy[0]!)?.text ?? '?').slice(0, 120));
  await memory.close();
}
await encoder.close?.();
