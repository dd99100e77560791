import { readFileSync, mkdtempSync, existsSync } from 'node:fs';
import { createNodeMemory } from '../src/node.js';
const data = JSON.parse(readFileSync('/work/shared/data/locomo10.json', 'utf8'));
const obs: any[] = [];
for (const c of data) for (const [k, v] of Object.entries(c.conversation)) if (Array.isArray(v)) for (const t of v as any[]) obs.push({ text: `${t.speaker}: ${t.text}`, speaker: t.speaker, sessionId: `${c.sample_id}/${k}`, turnId: t.dia_id });
const qs: string[] = []; for (const c of data) for (const q of c.qa) if (qs.length < 50) qs.push(q.question);
const dir = '/tmp/prof-recall-store';
const fresh = !existsSync(dir);
let m = await createNodeMemory({ store: dir });
if (fresh) { for (let i = 0; i < 5800; i += 200) await m.addMany(obs.slice(i, i + 200)); await m.close(); m = await createNodeMemory({ store: dir }); }
let t = performance.now();
await m.recall(qs[0]!);
console.log('first recall ms', Math.round(performance.now() - t));
const lat: number[] = [];
for (const q of qs) { const s = performance.now(); await m.recall(q); lat.push(performance.now() - s); }
lat.sort((a, b) => a - b);
console.log('p50', lat[25]!.toFixed(1), 'p95', lat[47]!.toFixed(1), (await m.stats()).opened);
await m.close();
