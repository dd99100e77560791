import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createSqliteFileStorage } from '../../src/plane/sqlite-file-storage.js';
import { describeStorageContract } from './storage-contract.js';

const root = await mkdtemp(join(tmpdir(), 'jev-mem-sqlite-'));
let counter = 0;
const freshDir = (): string => join(root, `store-${++counter}`);
afterAll(() => rm(root, { recursive: true, force: true }));

describeStorageContract('sqlite file', () => createSqliteFileStorage({ dir: freshDir() }), 25);
