// A second process for sqlite-lock.test.ts. Usage: sqlite-lock-child.ts <db> hold|store|crash|greedy
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
import { takeStoreLock } from '../../src/plane/store/store-lock.js';

const [path, mode] = process.argv.slice(2) as [string, string];
if (mode === 'store') await takeStoreLock(dirname(path), join(dirname(path), 'lock'));
const d = openNodeSqlDriver(path);
if (mode === 'greedy') {
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
