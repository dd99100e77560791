/**
 * `jev-mem list` and `jev-mem history` (issue 23): what a namespace holds, page by page, and the
 * versions of one memory, over `Memory.list` / `Memory.history` (no embeddings). Output is JSONL
 * (one memory a line) or, with `--json`, one JSON object; the next page's cursor of `list` is in
 * the object (`cursor`) or, in JSONL, on stderr, so stdout holds only memories.
 *
 * @module
 */
import type { ListOptions, Memory, MemoryFilter } from '../memory.js';
import { showInvisible } from '../util/invisible.js';
import { positiveIntOption, UsageError, type OptionValues } from './commands.js';
import type { CliIO } from './io.js';

/**
 * `--filter` parsed: a JSON object (the `MemoryFilter` of docs/api.md), checked further by the memory.
 * @returns undefined when the option is absent.
 * @throws UsageError when it is not JSON or not a JSON object.
 */
export function filterOption(values: OptionValues): MemoryFilter | undefined {
  const raw = values.filter;
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new UsageError(`--filter: not JSON (${showInvisible((e as Error).message)}); expected an object such as '{"speaker":"Maya"}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--filter: expected a JSON object such as '{"speaker":"Maya"}', got ${showInvisible(raw)}`);
  return parsed as MemoryFilter;
}

/**
 * `jev-mem list [--limit N] [--cursor C] [--filter JSON] [--json]`: one page of the namespace in
 * insertion order. JSONL: one memory a line, then (stderr) `next page: --cursor <C>` when there
 * is one. `--json`: `{"memories": [...], "cursor"?: "<C>"}`.
 * @throws UsageError for a bad `--limit` or `--filter`; JevMemError `INVALID_INPUT`
 *   (`options.limit` above 1000, `options.cursor`, `options.filter.…`).
 */
export async function runList(memory: Memory, v: OptionValues, io: CliIO): Promise<void> {
  const o: ListOptions = {};
  const limit = positiveIntOption(v, 'limit');
  if (limit !== undefined) o.limit = limit;
  if (v.cursor !== undefined) o.cursor = v.cursor;
  const filter = filterOption(v);
  if (filter !== undefined) o.filter = filter;
  const page = await memory.list(o);
  if (v.json) {
    io.out(JSON.stringify(page.cursor === undefined ? { memories: page.memories } : { memories: page.memories, cursor: page.cursor }));
    return;
  }
  for (const m of page.memories) {
    if (io.outClosed?.aborted) return; // the reader has what it wanted (… | head)
    io.out(JSON.stringify(m));
  }
  if (page.cursor !== undefined) io.err(`next page: --cursor ${page.cursor}`);
}

/**
 * `jev-mem history <id> [--json]`: the versions of a memory across updates, oldest first. JSONL:
 * one version a line; `--json`: `{"versions": [...]}`.
 * @throws JevMemError `NOT_FOUND` (field `id`, from `Memory.history`) when the namespace holds no memory `id` (or it expired).
 */
export async function runHistory(memory: Memory, id: string, v: OptionValues, io: CliIO): Promise<void> {
  const versions = await memory.history(id); // NOT_FOUND for an unknown id
  if (v.json) {
    io.out(JSON.stringify({ versions }));
    return;
  }
  for (const m of versions) {
    if (io.outClosed?.aborted) return;
    io.out(JSON.stringify(m));
  }
}
