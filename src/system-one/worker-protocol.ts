/**
 * The contract between the worker-hosted System One (worker-backend.ts) and its worker
 * (`worker/system-one.worker.ts`): what the page sends to load the model, what the worker reports,
 * the API it exposes through comlink, and the transfer of `JevMemError`s across the boundary.
 *
 * @module
 */
import * as Comlink from 'comlink';
import { JevMemError, type JevMemErrorCode } from '../errors.js';
import type { LocalSystemOneOptions } from './local.js';
import type { SystemOneRequest, SystemOneResponse } from './wire.js';

/**
 * Options the worker needs to load the model (structured-cloneable): those of
 * `createLocalSystemOne` (same meanings and defaults), with a URL instead of an asset loader.
 */
export interface WorkerInitOptions extends Pick<LocalSystemOneOptions, 'engine' | 'executionProviders' | 'wasmPaths' | 'numThreads' | 'verify' | 'modelDir'> {
  /** Base URL of the `models/` directory (`file:` in Node, http(s) in browsers), ending in `/`. */
  modelBaseURL: string;
  /** URLs of single model files by path under `models/` (bundled assets); used before `modelBaseURL`. */
  modelFiles?: Record<string, string>;
}

/** What the worker reports after loading. */
export interface WorkerInfo {
  modelId: string;
  engine: 'onnx' | 'ts';
  executionProviders: string[];
  /** Calibrated memory parameters of the loaded model (see `calibratedParameters`). */
  parameters?: Record<string, unknown>;
}

/** The API the worker exposes through comlink (implemented by worker/system-one.worker.ts). */
export interface SystemOneWorkerApi {
  /**
   * Loads the model. @throws JevMemError `MODEL_LOAD_FAILED` (code kept across the boundary).
   */
  init(options: WorkerInitOptions): Promise<WorkerInfo>;
  /** Answers a batch in one model pass per head group. */
  decideMany(requests: SystemOneRequest[]): Promise<SystemOneResponse[]>;
  /** Drops the worker backend's cached cues of `texts`, or all when undefined (issue 22). */
  evict(texts: readonly string[] | undefined): void;
  /** Releases the model. */
  close(): Promise<void>;
  /** Test hook: makes the worker die at once (simulates a crash). */
  crashForTest(): void;
}

interface SerializedThrow {
  isError: boolean;
  value: unknown;
  jevMemError?: { code: JevMemErrorCode; message: string; field?: string; status?: number };
}

let registered = false;

/**
 * Makes `JevMemError`s thrown across comlink keep their class, `code`, `field` and `status`
 * (comlink's own handler keeps only message and stack). Call on both sides of the worker
 * boundary; idempotent.
 */
export function registerJevMemErrorTransfer(): void {
  if (registered) return;
  registered = true;
  const base = Comlink.transferHandlers.get('throw') as Comlink.TransferHandler<{ value: unknown }, SerializedThrow>;
  Comlink.transferHandlers.set('throw', {
    canHandle: (v: unknown): v is { value: unknown } => base.canHandle(v),
    serialize(thrown: { value: unknown }) {
      if (thrown.value instanceof JevMemError) {
        return [{ isError: true, value: { message: thrown.value.message, name: 'JevMemError' }, jevMemError: thrown.value.toJSON() }, []];
      }
      return base.serialize(thrown);
    },
    deserialize(s: SerializedThrow) {
      if (s.jevMemError !== undefined) throw JevMemError.fromJSON(s.jevMemError);
      return base.deserialize(s);
    },
  } satisfies Comlink.TransferHandler<{ value: unknown }, SerializedThrow>);
}
