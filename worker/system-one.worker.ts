/**
 * The browser System-One worker entry (SPEC 2, 9): the TypeScript kernels (engine `'ts'`), with
 * no onnxruntime-web in the bundle. Loaded as a module `Worker` by `createWorkerSystemOne`
 * (bundlers find it through `new URL(…, import.meta.url)`); Node uses `system-one.node.ts`.
 * Engine `'onnx'` here needs a page that serves onnxruntime-web under its bare name; bundled apps
 * use `jev-mem/browser/onnx` (`system-one-onnx.worker.ts`) instead.
 *
 * @module
 */
import * as Comlink from 'comlink';
import { createWorkerApi } from './system-one-api.js';

Comlink.expose(createWorkerApi());
