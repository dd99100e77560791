/**
 * `jev-mem maintain` (issue 22): runs `Memory.maintain()` on a namespace of the store (the
 * maintenance pass over the memories written since the last one, expired memories erased) and,
 * last, rewrites the store file when erasures are pending (`stats().erasuresPending`, of every
 * namespace and whatever the file's size), the way to settle erasures a crash left pending:
 * commands that only read (`recall`, `stats`, `export` …) leave them to the next writer.
 * Prints one JSON object `{ namespace, redundant, contradiction, obsolete, link, expired,
 * erasuresPending }` (the counts of the pass; `erasuresPending` after it, 0 once the file is
 * byte-clean); exit 0, and the other commands' exit codes on failure (1, or 3 for a damaged
 * store).
 *
 * @module
 */
import type { Memory } from '../memory.js';
import { quoteVisible } from '../util/invisible.js';
import type { CliIO } from './io.js';

/**
 * Runs `jev-mem maintain` on `memory` (opened on the store) for `namespace`.
 * @returns 0.
 * @throws JevMemError what `Memory.maintain` throws (`STORAGE_FAILED` when the rewrite failed:
 *   the erasures stay pending; `STORE_DAMAGED`).
 */
export async function runMaintain(memory: Memory, namespace: string, io: CliIO): Promise<number> {
  const held = (await memory.namespaces()).includes(namespace);
  const counts = await memory.maintain({ namespace });
  const { erasuresPending } = await memory.stats({ namespace });
  io.out(JSON.stringify({ namespace, ...counts, erasuresPending }));
  if (!held) io.err(`jev-mem: warning: the store holds no namespace ${quoteVisible(namespace)}; only the pending erasures of the store were settled`);
  return 0;
}
