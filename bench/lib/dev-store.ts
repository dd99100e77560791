/**
 * A development conversation's SQLite file store for the dev loops of bench/training (multi-dev,
 * miss-causes): built once under `<stores>/<id>` and marked by a `BUILT` file, then reopened by
 * later runs (a read-path change does not change the build). Node-only.
 *
 * @module
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { Memory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import type { Observation } from '../../src/types.js';

/**
 * Opens the store of conversation `id` under `stores` (namespace `id`, flat vector index), adding
 * `observations` first when no earlier run finished building it.
 * @throws what `createNodeMemory` and `addMany` throw (a store of another encoder, bad input).
 */
export async function openDevStore(stores: string, id: string, observations: readonly Observation[], encoder: Encoder, systemOne: SystemOneBackend): Promise<Memory> {
  const dir = join(stores, id);
  const built = await stat(join(dir, 'BUILT')).then(
    () => true,
    () => false,
  );
  await mkdir(dir, { recursive: true });
  const memory = await createNodeMemory({ store: dir, namespace: id, encoder, systemOne, vectorIndex: 'flat' });
  if (!built) {
    await memory.addMany([...observations]);
    await writeFile(join(dir, 'BUILT'), 'ok');
  }
  return memory;
}
