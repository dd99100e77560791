/**
 * Schema versioning of a stored namespace (issue 7 item 6). Every namespace records the version
 * of its data layout in the meta key {@link SCHEMA_META_KEY}, written with its first commit. On
 * load, a namespace of an older version is brought up to date by the steps of
 * {@link MIGRATIONS}, one version at a time, each step committed atomically with its new version
 * number (a crash between steps resumes from the last committed step); a namespace of a newer
 * version than this build knows is refused with `SCHEMA_MISMATCH`, so an old build never
 * rewrites data it does not understand.
 *
 * This is the layout of the records inside a namespace (nodes, edges, meta); it is separate from
 * the adapters' own container versions (`DB_VERSION` of IndexedDB, `FILE_STORE_VERSION` of the
 * file store) and from the export file's `version`.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { applyBatch, emptyNamespaceState, toSnapshot } from './memory-storage.js';
import type { NamespaceSnapshot, WriteBatch } from './storage.js';

/** Meta key holding a namespace's schema version (a positive integer). */
export const SCHEMA_META_KEY = 'schemaVersion' as const;

/** The schema version this build writes. */
export const SCHEMA_VERSION = 1 as const;

/**
 * One migration step: from version `from` to `from + 1`. `migrate` is pure: it reads the whole
 * namespace and returns the batch that rewrites it (deletes first, then puts, as any batch). It
 * must never drop evidence (node texts and provenance).
 */
export interface Migration {
  /** The version this step reads. The step writes `from + 1`. */
  from: number;
  /** One line saying what the step changes (for logs and the changelog). */
  description: string;
  migrate(snapshot: NamespaceSnapshot, namespace: string): WriteBatch;
}

/** The migration steps, in order. Version 1 is the first layout, so there are none yet. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([]);

/**
 * The schema version recorded in a snapshot. A namespace without the key holds either nothing
 * or data written before versioning existed, which is version 1.
 * @throws JevMemError `SCHEMA_MISMATCH` when the key holds something other than a positive integer.
 */
export function storedSchemaVersion(snapshot: NamespaceSnapshot, namespace: string): number {
  const v = snapshot.meta[SCHEMA_META_KEY];
  if (v === undefined) return 1;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new JevMemError('SCHEMA_MISMATCH', `namespace ${JSON.stringify(namespace)} has schema version ${JSON.stringify(v)}, which is not a version number`, {
      field: `meta.${SCHEMA_META_KEY}`,
      found: v,
      expected: SCHEMA_VERSION,
    });
  }
  return v;
}

/** One step to commit, and the namespace as it will be after it. */
export interface PlannedStep {
  /** Version after the step. */
  version: number;
  /** The step's batch, with the new schema version in its meta. */
  batch: WriteBatch;
}

/**
 * Plans the steps that bring `snapshot` from its stored version to `target` (pure: nothing is
 * written). Returns no steps when it is already there.
 *
 * @param migrations The steps to use. @default {@link MIGRATIONS}
 * @param target The version to reach. @default {@link SCHEMA_VERSION}
 * @returns The steps (each batch carries `meta.schemaVersion` of its result) and the snapshot
 *   after all of them.
 * @throws JevMemError `SCHEMA_MISMATCH` when the stored version is newer than `target` (upgrade
 *   jev-mem), is malformed, or a step between the two is missing.
 */
export function planMigrations(
  snapshot: NamespaceSnapshot,
  namespace: string,
  migrations: readonly Migration[] = MIGRATIONS,
  target: number = SCHEMA_VERSION,
): { steps: PlannedStep[]; snapshot: NamespaceSnapshot } {
  let version = storedSchemaVersion(snapshot, namespace);
  if (version > target) {
    throw new JevMemError(
      'SCHEMA_MISMATCH',
      `namespace ${JSON.stringify(namespace)} was written with schema version ${version}; this build reads up to version ${target}. Upgrade jev-mem to open it (nothing was changed).`,
      { field: `meta.${SCHEMA_META_KEY}`, found: version, expected: target },
    );
  }
  const steps: PlannedStep[] = [];
  let current = snapshot;
  while (version < target) {
    const step = migrations.find((m) => m.from === version);
    if (step === undefined) {
      throw new JevMemError('SCHEMA_MISMATCH', `no migration from schema version ${version} of namespace ${JSON.stringify(namespace)} (this build writes ${target})`, {
        field: `meta.${SCHEMA_META_KEY}`,
        found: version,
        expected: target,
      });
    }
    const batch = step.migrate(current, namespace);
    version += 1;
    const withVersion: WriteBatch = { ...batch, meta: { ...(batch.meta ?? {}), [SCHEMA_META_KEY]: version } };
    steps.push({ version, batch: withVersion });
    current = applyToSnapshot(current, withVersion);
  }
  return { steps, snapshot: current };
}

/** The snapshot after `batch` (the batch semantics of every adapter; inputs are not changed). */
export function applyToSnapshot(snapshot: NamespaceSnapshot, batch: WriteBatch): NamespaceSnapshot {
  const state = emptyNamespaceState();
  for (const n of snapshot.nodes) state.nodes.set(n.id, n);
  for (const e of snapshot.edges) state.edges.set(e.id, e);
  for (const [k, v] of Object.entries(snapshot.meta)) state.meta.set(k, v);
  applyBatch(state, batch);
  return toSnapshot(state);
}
