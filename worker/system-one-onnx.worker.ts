/**
 * The browser System-One worker entry with onnxruntime-web bundled (engine `'onnx'`, WebGPU or
 * wasm): started by `jev-mem/browser/onnx`, so only apps that reference that entry bundle
 * onnxruntime-web (an optional peer dependency: `npm i onnxruntime-web`).
 *
 * @module
 */
import * as Comlink from 'comlink';
import { createWorkerApi } from './system-one-api.js';

Comlink.expose(createWorkerApi(() => import('onnxruntime-web')));
