// A second process for sql-legacy-import-lock.test.ts. Usage: sqlite-import-reader-child.ts <db>
// Reads the store's layout version and whether the old layout's tables are there, back to back
// under the database lock as any reader of the store does (`ready('read')`), printing "reading"
// once and then every new state it sees as `state <version> <old tables>`; a read that fails
// prints `failed <message>` and exits 1. Killed by the test.
import { writeSync } from 'node:fs';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';

const d = openNodeSqlDriver(process.argv[2]!);
let last = '';
for (let i = 0; ; i++) {
  try {
    await d.ready('read');
    const version = d.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]?.value;
    const old = d.query(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('jev_mem_names', 'jev_mem_node', 'jev_mem_edge')`)[0]?.n;
    const state = `state ${String(version)} ${String(old)}`;
    if (i === 0) writeSync(1, 'reading\n');
    if (state !== last) writeSync(1, `${(last = state)}\n`);
  } catch (e) {
    writeSync(1, `failed ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
