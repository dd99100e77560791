/**
 * What `Memory.stats()` reports of one namespace ({@link MemoryStats}; the interface is in
 * api.ts, which re-exports this name). Types only.
 *
 * @module
 */
import type { OpenReport } from '../plane/resident/namespace.js';
import type { View } from '../types.js';

/** Counts of one namespace. */
export interface MemoryStats {
  namespace: string;
  nodes: number;
  activeNodes: number;
  supersededNodes: number;
  edges: number;
  edgesByView: Record<View, number>;
  /**
   * Estimated bytes of the namespace's records, kept by every commit (`record-counters.ts`): each
   * record's namespace, key and value as data (strings as UTF-8, numbers 8 bytes, byte arrays at
   * their length, object member names included; adjacency records at their packed size), plus
   * the checkpoint record. The same measure in every store kind, so namespaces and stores compare;
   * it is not the size of a file: a SQLite file stores values more compactly than this counts
   * them (`record-sql-binary.ts`) but adds the key index, page slack and the FTS5 index
   * (`docs/bench/scale/PROFILE.md`, "100k bytes"). Undefined when the adapter cannot tell.
   */
  storageBytes?: number;
  /**
   * Erasures (deletes, forgets, expiries) of the whole store whose older copies its file may
   * still hold until it is rewritten (`VACUUM` by `maintain()`, `close()`, or an erasing call on
   * a file of at most 32 MiB; issue 22, README "Erasure"). Always 0 in a store other than
   * the Node SQLite store, which rewrites no file (see the README).
   */
  erasuresPending: number;
  encoder: string;
  systemOne: string;
  vectorIndex: string;
  /**
   * System-One requests of the writes this memory committed to this namespace since it was
   * opened (add, addMany, update, and the maintenance passes they and `maintain()` ran; not
   * persisted, per namespace), and how many of them the deterministic fallback answered because
   * the configured backend failed, was late or hit the call cap. Each write's own counts are in
   * its `AddResult.systemOne`. A failed write counts nothing (it is reported by its error).
   */
  systemOneWrites: { calls: number; fallbacks: number; lastFallbackReason?: string };
  /** Automatic maintenance passes (run every J_c writes) that failed since open; their nodes stay pending. */
  maintenanceFailures: number;
  /** Checkpoints of the namespace that could not be written since open (issue 13; logged as `CHECKPOINT_FAILED`). */
  checkpointFailures: number;
  /**
   * Writes and maintenance passes of this namespace since open whose System-One plan, made
   * outside the namespace lock, was made again because the namespace changed before their commit
   * (issue 22; see `memory/plan-commit.ts`).
   */
  replans: number;
  /**
   * Namespaces this memory holds open now, this one included (at most `maxOpenNamespaces` while
   * some are idle; issue 22).
   */
  openNamespaces: number;
  /** How the namespace was opened: from its checkpoint plus `replayed` logged node changes, or by a scan of the store; `ms` = wall time of the open. */
  opened: OpenReport;
  /** Why the vector index could not switch to HNSW (it stays exact: `vectorIndex` is `flat`), when it failed. */
  vectorIndexError?: string;
  /**
   * Damaged records of the namespace already detected (issue 22; issue 25: `stats()` makes no
   * full pass, it is O(1)): what this memory's reads met (an open by a scan reads every record;
   * recall and writes read what they touch) and what an earlier full pass of its store found
   * (`StorageAdapter.damaged`; `jev-mem check` makes that pass over the whole store). `count` is
   * the damaged node records (`ids`, sorted: failed their checksum, could not be decoded, or held
   * by the namespace but not given back by the store, their page unreadable or gone; reads
   * skip them and puts are refused with `STORE_DAMAGED` until `jev-mem repair`) plus those the
   * store counts but no read could reach (no id known); `checkpoint`: the checkpoint was found
   * damaged (at this open, rebuilt from the rows and logged as `CHECKPOINT_DAMAGED`, or since);
   * `records` (absent when none, counted in `count`): the other damaged records, named
   * `<table>:<key>` (`adj:<node id>`: its edges are read from their other ends; `meta:<key>`:
   * read as never written; `spaces:`: the counters, counted again from the records).
   */
  damaged: { count: number; ids: string[]; checkpoint: boolean; records?: string[] };
}
