// A second writer for ingest-beside-writer.test.ts. Usage: steady-adder-child.ts <store dir> <every ms>
// Opens namespace "n" of the Node store at <store dir> and adds one short turn every <every ms>
// until its stdin closes, printing "open" once open, "added <i>" after each add and
// "done <count>" at the end ("failed <message>" and exit code 1 when an add fails).
import { writeSync } from 'node:fs';
import { createNodeMemory } from '../../src/node.js';

const [dir, every] = process.argv.slice(2) as [string, string];
const memory = await createNodeMemory({ store: dir, namespace: 'n', systemOne: 'heuristic' });
writeSync(1, 'open\n');
let stop = false;
process.stdin.on('end', () => (stop = true));
process.stdin.resume();
let count = 0;
try {
  while (!stop) {
    await memory.add({ text: `Theo: side note number ${count}, the kettle is on shelf ${count}.`, speaker: 'Theo' });
    count++;
    writeSync(1, `added ${count}\n`);
    await new Promise((done) => setTimeout(done, Number(every)));
  }
} catch (e) {
  writeSync(1, `failed ${String(e)}\n`);
  await memory.close().catch(() => undefined);
  process.exit(1);
}
await memory.close();
writeSync(1, `done ${count}\n`);
