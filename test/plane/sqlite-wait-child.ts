// A waiter process for lexical-lease.test.ts and idle-lease.test.ts. Usage: sqlite-wait-child.ts <db> [busy]
// Opens the database, prints "open", and for each line "go" on its stdin, after a timer of 10 ms
// (as a server answers after a model call), waits for the database lock (ready('read'), queued
// as every waiter is), reads, and prints "got <n>"; its lease is to end with that turn. Exits
// when its stdin ends. With `busy`, two turns of the event loop follow each answer (the lease's
// end-of-turn look runs, as in a process that is doing other work); without it, the process idles.
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';

const [path, mode] = process.argv.slice(2) as [string, string | undefined];
const d = openNodeSqlDriver(path);
writeSync(1, 'open\n');
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'go') continue;
  await new Promise((done) => setTimeout(done, 10));
  await d.ready('read');
  d.query('SELECT count(*) AS n FROM sqlite_master');
  writeSync(1, `got ${++n}\n`);
  if (mode === 'busy') for (let i = 0; i < 2; i++) await new Promise((done) => setImmediate(done));
}
d.close();
