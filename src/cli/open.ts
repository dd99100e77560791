/**
 * How a CLI command opens its memory: the Node memory of `--store` with the System One named by
 * `--system-one` (closed at the end of the run by {@link closeOpenedBackends}) and, for `answer`
 * and `mcp`, System Two from the environment; the cleanup commands' namespace check (a name from
 * before the namespace rule); and the refusal of a namespace that holds no memories.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { Memory } from '../memory.js';
import { createNodeMemory } from '../node.js';
import { checkNamespaceName, namespaceNameProblem } from '../plane/store/names.js';
import { createSystemOneFromName } from '../system-one/from-name.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import { systemTwoFromEnv } from '../system-two/from-env.js';
import { hasInvisible, quoteVisible } from '../util/invisible.js';
import { UsageError, type OptionValues } from './commands.js';

/** System-One backends opened by this run (closed at the end). */
const openedBackends: SystemOneBackend[] = [];

/** Closes, in order, the System-One backends {@link openMemory} opened since the last call. */
export async function closeOpenedBackends(): Promise<void> {
  for (const b of openedBackends.splice(0)) await b.close();
}

type Values = OptionValues;

/**
 * The value of a required flag.
 * @throws UsageError `missing --<name>` when absent or empty.
 */
export function need(v: string | undefined, name: string): string {
  if (v === undefined || v === '') throw new UsageError(`missing --${name}`);
  return v;
}

/**
 * Opens the memory of `--store` (`--namespace`, `--vector-index`, `--system-one`, `--base-url`).
 * @param withSystemTwo - Also System Two from the environment (`JEV_MEM_LLM_*`), when set.
 * @param create - May create a store that does not exist (ingest, import, mcp); else a missing
 *   store is `STORE_MISSING`.
 * @throws UsageError without `--store`; JevMemError from the System-One backend and the store.
 */
export async function openMemory(v: Values, withSystemTwo = false, create = false): Promise<Memory> {
  const store = need(v.store, 'store');
  // Only the commands that write into a new store (ingest, import) may create it: a mistyped
  // --store elsewhere is STORE_MISSING, not an empty memory.
  const systemOne: SystemOneBackend = await createSystemOneFromName(v['system-one'] ?? 'local', { baseURL: v['base-url'], env: process.env });
  openedBackends.push(systemOne);
  const opts: Parameters<typeof createNodeMemory>[0] = { store, systemOne, create };
  if (v.namespace !== undefined) opts.namespace = v.namespace;
  if (v['vector-index'] !== undefined) opts.vectorIndex = v['vector-index'] as 'flat' | 'hnsw' | 'ann' | 'auto';
  if (withSystemTwo) {
    const s2 = systemTwoFromEnv(process.env);
    if (s2) opts.systemTwo = s2;
  }
  return createNodeMemory(opts);
}

/** A namespace name in a list of the CLI's messages: as written, or quoted with its invisible characters escaped when it has any (a name from before the namespace rule). */
function listedName(name: string): string {
  return hasInvisible(name) || /^\s|\s$/.test(name) ? quoteVisible(name) : name;
}

/** `1 memory`, `419 memories`. */
function memoriesCount(n: number): string {
  return `${n} ${n === 1 ? 'memory' : 'memories'}`;
}

/**
 * Refuses a namespace that holds no memories (a mistyped `--namespace`, or a store filled under
 * another one): recall over it would print nothing and exit 0.
 * @throws JevMemError `NOT_FOUND` (field `namespace`) listing the store's namespaces with their
 *   counts in the message and in `details.namespaces`; `STORE_DAMAGED` (field `namespace`,
 *   `details.ids`) when it holds records but every one is damaged.
 */
export async function requireMemories(memory: Memory, namespace = memory.namespace): Promise<void> {
  const stats = await memory.stats({ namespace });
  if (stats.nodes > 0) return;
  // Every record damaged (a zeroed root page of the record table) is no empty namespace (issue 22).
  if (stats.damaged.count > 0) {
    throw new JevMemError(
      'STORE_DAMAGED',
      `namespace ${quoteVisible(namespace)} holds no readable memory: its ${stats.damaged.count} stored record(s) are damaged (${stats.damaged.ids.slice(0, 3).join(', ')}${stats.damaged.ids.length > 3 ? ', …' : ''}). Run jev-mem check, then jev-mem repair, which also reads the file page by page`,
      { field: 'namespace', ids: stats.damaged.ids },
    );
  }
  const names = (await memory.namespaces()).filter((n) => n !== namespace);
  const held = await Promise.all(names.map(async (n) => ({ namespace: n, memories: (await memory.stats({ namespace: n })).nodes })));
  const listed = held.filter((h) => h.memories > 0);
  const hint =
    listed.length > 0
      ? `this store holds: ${listed.map((h) => `${listedName(h.namespace)} (${memoriesCount(h.memories)})`).join(', ')}; choose one with --namespace`
      : 'this store holds no memories yet (jev-mem ingest <file> --store <dir> writes some)';
  throw new JevMemError('NOT_FOUND', `namespace ${quoteVisible(namespace)} holds no memories; ${hint}`, { field: 'namespace', namespaces: listed });
}

/**
 * Opens the memory of a command that only reads or removes a namespace (stats, export, forget):
 * on the default namespace, with `--namespace` checked per call, so a name the store holds from
 * before the namespace rule (plane/store/names.ts) can still be exported and forgotten.
 * @returns the memory and the namespace to use.
 */
export async function openForCleanup(v: Values): Promise<{ memory: Memory; namespace: string }> {
  const { namespace, ...rest } = v;
  const memory = await openMemory(rest);
  if (namespace !== undefined && namespaceNameProblem(namespace) !== undefined && !(await memory.namespaces()).includes(namespace)) {
    await memory.close();
    checkNamespaceName(namespace, 'namespace');
  }
  return { memory, namespace: namespace ?? memory.namespace };
}
