/**
 * `npm run bench -- scale --peers` (issue 16): the scale recipe's corpus in Orama 3
 * (`@orama/orama`), in Node, next to jev-mem: one database (`text` string + `embedding`
 * vector of the same GloVe-SIF encoder) grown to each size, with
 *
 * - insert rate over the last {@link SCALE_MEASURED_WRITES} documents before each size: Orama's
 *   `insertMultiple` alone (vectors given), and end to end (embedding the texts, then inserting);
 * - search latency over the same questions as jev-mem's recall: Orama hybrid search (`mode:
 *   'hybrid'`, defaults, `limit` 20) with the question's vector, embedding the question included
 *   (as jev-mem's recall includes its own), and the search alone;
 * - heap: `process.memoryUsage().heapUsed` at that point (as jev-mem's figure), and the heap the
 *   database retains (heap after a full GC minus the heap after a full GC before it was created);
 * - save / restore through `@orama/plugin-data-persistence` (`persistToFile` / `restoreFromFile`,
 *   its default `binary` format: msgpack written as hex in Node): ms, bytes on disk, and the
 *   first search after restoring. The run goes on with the restored database.
 *
 * Orama keeps everything in memory; it has no incremental store, so "save" writes the whole
 * database each time (jev-mem's file store is written as it goes; its "reopen" is the
 * counterpart of Orama's restore).
 *
 * @module
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRequire } from 'node:module';
import type { AnyOrama } from '@orama/orama';
import { persistToFile, restoreFromFile } from '@orama/plugin-data-persistence/server';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { Observation } from '../../src/types.js';
import { growOrama, type OramaScalePoint } from './orama-grow.js';

export type { OramaFailure, OramaPersistFigures, OramaScalePoint } from './orama-grow.js';

/** The Orama half of `bench scale --peers`. */
export interface OramaScaleResults {
  status: 'done';
  /** `@orama/orama` version. */
  version: string;
  setup: string;
  points: OramaScalePoint[];
  durationMs: number;
}

/** The installed `@orama/orama` version. */
export function oramaVersion(): string {
  return (createRequire(import.meta.url)('@orama/orama/package.json') as { version: string }).version;
}

/** A full GC, when V8 lets us have one (`--expose-gc` set at run time); undefined otherwise. */
export function fullGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Grows one Orama database with `observations` to each of `sizes` (ascending; `observations`
 * at least `max(sizes)` long) and measures every {@link OramaScalePoint} figure, saving into
 * `dir` (made when missing; the caller removes it).
 * @throws OramaStepError (see {@link growOrama}) wrapping whatever Orama, the plugin or the encoder throw.
 */
export async function runOramaScale(o: { observations: readonly Observation[]; questions: readonly string[]; sizes: readonly number[]; encoder: Encoder; dir: string; measuredWrites: number; log?: (line: string) => void }): Promise<OramaScaleResults> {
  const t0 = performance.now();
  const gc = fullGc();
  const file = (key: string): string => join(o.dir, `${key}.msp`);
  await mkdir(o.dir, { recursive: true }); // with --peers-only no jev-mem store made it
  const points = await growOrama({
    ...o,
    heap: () => process.memoryUsage().heapUsed,
    ...(gc ? { gc } : {}),
    persistence: {
      where: 'file',
      // one plugin call each way (serialise + write, read + deserialise): the steps stay `save` / `restore`
      async save(db, key, step) {
        step('save', "persistToFile 'binary'");
        await persistToFile(db, 'binary', file(key));
        return { bytes: (await stat(file(key))).size };
      },
      async restore(key, step) {
        step('restore', "restoreFromFile 'binary'");
        return { db: await restoreFromFile<AnyOrama>('binary', file(key)) };
      },
    },
  });
  return {
    status: 'done',
    version: oramaVersion(),
    setup: 'Node; one Orama database { text: string, embedding: vector[dim] } of the same GloVe-SIF vectors, defaults everywhere (hybrid search limit 20, similarity 0.8, weights 0.5/0.5); saved and restored with @orama/plugin-data-persistence persistToFile/restoreFromFile (default binary format) after each size; the run goes on with the restored database',
    points,
    durationMs: performance.now() - t0,
  };
}
