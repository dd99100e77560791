// A reader process for damage-file-concurrency.test.ts. Usage: damage-reader-child.ts <store dir> <id>…
// Opens the Node store at <store dir> and reads node <id> of namespace "chat", one read per
// turn of the event loop (each damaged record it meets is kept beside the store as it is found:
// damage-file.ts), then closes and prints "done <nodes read>".
import { writeSync } from 'node:fs';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';

const [dir, ...ids] = process.argv.slice(2) as [string, ...string[]];
const storage = await createSqliteFileStorage({ dir, create: false, logger: () => undefined });
let read = 0;
for (const id of ids) {
  read += (await storage.getNodes('chat', [id])).length;
  await new Promise((done) => setImmediate(done));
}
await storage.close();
writeSync(1, `done ${read}\n`);
