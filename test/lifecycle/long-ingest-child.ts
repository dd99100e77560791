// A writer process for reader-during-ingest.test.ts. Usage: long-ingest-child.ts <store dir> <turns>
// Writes <turns> long turns (300–900 words, made from examples/sample-conversation.jsonl) with one
// addMany into namespace "n" of the Node store at <store dir>, printing "open" once the memory is
// open and "done <committed>" at the end.
import { readFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createNodeMemory } from '../../src/node.js';

const [dir, count] = process.argv.slice(2) as [string, string];
const lines = readFileSync(fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url)), 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { text: string }).text);
/** Turn i: the sample's lines from line i on, round and round, up to 300 + (211·i mod 601) words. */
function longTurn(i: number): string {
  const want = 300 + ((211 * i) % 601);
  const out: string[] = [];
  for (let j = i, words = 0; words < want; j++) {
    const line = lines[j % lines.length] as string;
    out.push(line);
    words += line.split(/\s+/).length;
  }
  return out.join('\n');
}
const t0 = Date.UTC(2024, 4, 1);
const turns = Array.from({ length: Number(count) }, (_, i) => ({ text: longTurn(i), speaker: i % 2 ? 'Theo' : 'Maya', observedAt: new Date(t0 + i * 3_600_000).toISOString() }));
const memory = await createNodeMemory({ store: dir, namespace: 'n', systemOne: 'heuristic' });
writeSync(1, 'open\n');
const added = await memory.addMany(turns);
writeSync(1, `done ${added.length}\n`);
await memory.close();
