/**
 * The Node System-One worker entry (`worker_threads`, through comlink's node adapter), started
 * by `createWorkerSystemOne` in Node (CLI `--system-one worker`). Browsers use
 * `system-one.worker.ts`.
 *
 * @module
 */
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { createWorkerApi } from './system-one-api.js';

const { default: nodeEndpoint } = (await import('comlink/dist/esm/node-adapter.mjs' as string)) as {
  default: (nep: NonNullable<typeof parentPort>) => Comlink.Endpoint;
};

if (parentPort === null) throw new Error('System-One worker: no parentPort (not started as a worker thread)');
Comlink.expose(createWorkerApi(), nodeEndpoint(parentPort));
