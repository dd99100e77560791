// A writer process for reader-during-ingest.test.ts. Usage: long-ingest-child.ts <store dir> <turns>
// Writes <turns> long turns (300–900 words, made from examples/sample-conversation.jsonl) with one
// addMany into namespace "n" of the Node store at <store dir>, printing "open" once the memory is
// open and "done <committed>" at the end.
import { writeSync } from 'node:fs';
import { createNodeMemory } from '../../src/node.js';
import { longTurns } from './long-turns.js';

const [dir, count] = process.argv.slice(2) as [string, string];
const turns = longTurns(Number(count));
const memory = await createNodeMemory({ store: dir, namespace: 'n', systemOne: 'heuristic' });
writeSync(1, 'open\n');
const added = await memory.addMany(turns);
writeSync(1, `done ${added.length}\n`);
await memory.close();
