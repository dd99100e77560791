// A second process for sqlite-lock.test.ts. Usage: sqlite-lock-child.ts <db> hold|store|crash|greedy|again|store-again
//   again: takes the database lock (ready('read')), prints "held", keeps it through a synchronous
//          turn of 600 ms (as a write's planning does), lets the turn end and takes it again at once
//          (ready), prints "again <epoch ms>", keeps it 300 ms more and exits;
//   store-again: the same with the store's writer lock `<folder of db>/lock` (600 ms on timers,
//          given back, taken again with takeStoreLockWaiting, 300 ms);
//   greedy: reads in a loop that never waits for anything but the lock (a busy server answering
//          recalls back to back), printing "reading" once; killed by the test;
//   store: takes the writer lock `<folder of db>/lock` of a store folder, then holds as `hold`;
//   hold:  takes the database lock inside a write transaction, prints "held", and stays there
//          (this test process may block: it is killed by the test);
//   crash: overwrites every row and adds 400 rows of 4 kB in a transaction with a tiny page
//          cache (so SQLite writes changed pages into the database before the commit: a hot
//          journal), then SIGKILLs itself inside the transaction.
import { writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { releaseStoreLock, takeStoreLock, takeStoreLockWaiting } from '../../src/plane/store/store-lock.js';

const [path, mode] = process.argv.slice(2) as [string, string];
if (mode === 'store') await takeStoreLock(dirname(path), join(dirname(path), 'lock'));
const d = openNodeSqlDriver(path);
const spin = (ms: number): void => {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    // a synchronous turn (no Atomics.wait: the event loop is busy, not frozen)
  }
};
if (mode === 'again') {
  await d.ready('read');
  d.query('SELECT count(*) AS n FROM t');
  writeSync(1, 'held\n');
  spin(600);
  await new Promise((done) => setImmediate(done)); // the turn ends, and the lease with it
  await d.ready('read');
  writeSync(1, `again ${Date.now()}\n`);
  d.query('SELECT count(*) AS n FROM t');
  spin(300);
  d.close();
  process.exit(0);
} else if (mode === 'store-again') {
  const dir = dirname(path);
  await takeStoreLock(dir, join(dir, 'lock'));
  writeSync(1, 'held\n');
  await new Promise((done) => setTimeout(done, 600));
  await releaseStoreLock(dir, join(dir, 'lock'));
  await takeStoreLockWaiting(dir, join(dir, 'lock'), 15_000);
  writeSync(1, `again ${Date.now()}\n`);
  await new Promise((done) => setTimeout(done, 300));
  await releaseStoreLock(dir, join(dir, 'lock'));
  d.close();
  process.exit(0);
} else if (mode === 'greedy') {
  for (let i = 0; ; i++) {
    await d.ready('read');
    d.query('SELECT count(*) AS n FROM t');
    if (i === 0) writeSync(1, 'reading\n');
  }
} else if (mode === 'hold' || mode === 'store') {
  await d.ready('write');
  d.transaction(() => {
    d.query('INSERT INTO t (v) VALUES (?)', ['held']);
    writeSync(1, 'held\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // until killed
  });
} else {
  d.query('PRAGMA cache_size = 2');
  await d.ready('write');
  d.transaction(() => {
    d.query("UPDATE t SET v = 'overwritten ' || id"); // rows on many pages: changed in place
    for (let i = 0; i < 400; i++) d.query('INSERT INTO t (v) VALUES (?)', ['x'.repeat(4000)]);
    process.kill(process.pid, 'SIGKILL');
  });
}
