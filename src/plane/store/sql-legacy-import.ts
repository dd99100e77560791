import type { RecordKey, RecordTable } from '../drivers/record-driver.js';
import type { SqlParam, SqlRow } from '../drivers/record-sql.js';

export function importLegacySql(
  _q: (sql: string, params?: readonly SqlParam[]) => SqlRow[],
  _prefix: string,
  version: string,
  _put: (table: RecordTable, ns: string, key: RecordKey, value: unknown) => void,
): void {
  throw new Error(`import of layout ${version}: not yet`);
}
