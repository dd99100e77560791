import { describe, expect, it } from 'vitest';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import { describeStorageContract } from './storage-contract.js';
import { memorySqlConnection } from './sql-connection.js';

const open = (lexical: 'fts5' | 'minisearch') => async () => {
  const conn = memorySqlConnection();
  const store = createSqlRecordStore(conn, { kind: 'sqlite', label: 'the test SQL store', quotaRemedy: 'Free space.', lexical, vacuum: false });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    conn.close();
  };
  return store;
};

describeStorageContract('record store over SQL (minisearch)', open('minisearch'), 25);
describeStorageContract('record store over SQL (fts5)', open('fts5'), 25);
