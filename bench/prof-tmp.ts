import { readFileSync, mkdtempSync } from 'node:fs';
import { createNodeMemory } from '../src/node.js';
const data = JSON.parse(readFileSync('/work/shared/data/locomo10.json', 'utf8'));
const obs: any[] = [];
for (const c of data) for (const [k, v] of Object.entries(c.conversation)) if (Array.isArray(v)) for (const t of v as any[]) obs.push({ text: `${t.speaker}: ${t.text}`, speaker: t.speaker, sessionId: `${c.sample_id}/${k}`, turnId: t.dia_id });
const dir = mkdtempSync('/tmp/prof-');
const m = await createNodeMemory({ store: dir });
let t = performance.now();
const N = Number(process.argv[2] ?? 1500);
for (let i = 0; i < N; i += 100) {
  await m.addMany(obs.slice(i, i + 100));
  const now = performance.now();
  console.log(i + 100, 'writes/s', Math.round(100000 / (now - t)));
  t = now;
}
await m.close();
