/**
 * The Durable Object that holds one memory namespace (SPEC 9: the scale-out unit): a memory
 * (`createMemory`) over the object's SQLite storage (do-storage.ts), the shipped GloVe-SIF
 * encoder and the local System One on its TypeScript kernels (no WebAssembly, no eval), with the
 * exact `flat` vector index. It runs the {@link Operation}s the Worker front (http.ts) has
 * already authenticated and checked.
 *
 * The encoder and System One are loaded once per isolate and shared by every object in it; the
 * namespace's nodes are loaded into the object's memory on its first request (the in-memory
 * indexes are caches of the SQLite tables).
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { Encoder } from '../encoder/encoder.js';
import { createGloveSifEncoder } from '../encoder/glove-sif.js';
import { JevMemError, isJevMemError } from '../errors.js';
import { createMemory, type ExportOptions, type ListOptions, type Memory, type MemoryFilter, type MemoryOptions, type MemoryScope, type RecallOptions } from '../memory.js';
import { createHeuristicSystemOne } from '../system-one/heuristic.js';
import { createLocalSystemOne } from '../system-one/local.js';
import { createRemoteSystemOne } from '../system-one/remote.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import { createEdgeAssetLoader, type EdgeModelFiles } from './assets.js';
import { answerMcp, MCP_NAMESPACE_HEADER, mcpScopeOf } from './mcp.js';
import { createDurableObjectStorage, type DurableObjectStorageLike } from './do-storage.js';
import type { EdgeEnv, EdgeSystemOneKind } from './env.js';
import { configOf, errorResponse, jsonResponse, type Operation, type Scoped, type Selection } from './http.js';

/** The part of a Durable Object's `ctx` (Cloudflare `DurableObjectState`) the object uses. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike & {
    /** Deletes every stored value and SQL table of the object. */
    deleteAll(): Promise<void>;
  };
}

/** Options of {@link defineMemoryObject}. */
export interface MemoryObjectOptions {
  /** The model files, keyed by path under `models/` (e.g. `SHIPPED_MODEL_FILES` of `jev-mem/edge/worker`). */
  files: EdgeModelFiles;
  /** Memory parameters over the System-One backend's calibrated ones (SPEC 8). */
  parameters?: Partial<MemoryParameters>;
  /**
   * Check the model files' SHA-256 when loading. The files are part of the deployed bundle, so
   * this costs start-up CPU (about 30 ms for the 7 MB of vectors) for little.
   * @default false
   */
  verify?: boolean;
  /** Where server-side errors (5xx but 501) are logged, with the error. @default console.error of the message */
  log?: (message: string, error: unknown) => void;
}

/** What a memory object needs besides its storage: loaded once per isolate. */
interface Engines {
  encoder: Encoder;
  systemOne: SystemOneBackend;
}

/** A Durable Object class as the runtime constructs it. */
export interface MemoryObjectClass {
  new (ctx: DurableObjectStateLike, env: EdgeEnv): { fetch(request: Request): Promise<Response> };
}

const engineCache = new WeakMap<EdgeModelFiles, Map<string, Promise<Engines>>>();

async function loadEngines(files: EdgeModelFiles, verify: boolean, systemOne: { kind: EdgeSystemOneKind; url?: string; apiKey?: string }): Promise<Engines> {
  const load = createEdgeAssetLoader(files);
  const encoder = await createGloveSifEncoder({ load, verify });
  let backend: SystemOneBackend;
  if (systemOne.kind === 'heuristic') backend = createHeuristicSystemOne();
  else if (systemOne.kind === 'remote') {
    const o: Parameters<typeof createRemoteSystemOne>[0] = { baseURL: systemOne.url as string };
    if (systemOne.apiKey !== undefined) o.apiKey = systemOne.apiKey;
    backend = createRemoteSystemOne(o);
  } else backend = await createLocalSystemOne({ load, engine: 'ts', verify });
  return { encoder, systemOne: backend };
}

/** The encoder and System One for these files and settings, shared by the isolate. */
function enginesFor(files: EdgeModelFiles, verify: boolean, systemOne: { kind: EdgeSystemOneKind; url?: string; apiKey?: string }): Promise<Engines> {
  let byKey = engineCache.get(files);
  if (byKey === undefined) {
    byKey = new Map();
    engineCache.set(files, byKey);
  }
  const key = JSON.stringify([verify, systemOne.kind, systemOne.url ?? '', systemOne.apiKey ?? '']);
  let p = byKey.get(key);
  if (p === undefined) {
    p = loadEngines(files, verify, systemOne);
    byKey.set(key, p);
    const map = byKey;
    p.catch(() => map.delete(key)); // a failed load is retried by the next request
  }
  return p;
}

/** The 404 of a memory id. */
function notFound(id: string, ns: string): JevMemError {
  return new JevMemError('NOT_FOUND', `no memory ${JSON.stringify(id)} in namespace ${JSON.stringify(ns)}`, { field: 'id' });
}

/** Copies a request's `filter`, `scope`, `minScore` into recall/answer options (the memory checks them). */
function selectInto(o: RecallOptions, op: Selection): void {
  if (op.filter !== undefined) o.filter = op.filter as MemoryFilter;
  if (op.scope !== undefined) o.scope = op.scope as MemoryScope;
  if (op.minScore !== undefined) o.minScore = op.minScore;
}

/**
 * The call options of an operation with a scope (`options.scope` of the id-addressed calls,
 * `list` and `export`): a memory of another scope answers as an unknown id (404).
 */
function scopedOptions(ns: string, op: Scoped): { namespace: string; scope?: MemoryScope } {
  return op.scope === undefined ? { namespace: ns } : { namespace: ns, scope: op.scope };
}

/**
 * Defines the Durable Object class of memory namespaces. Export the class from the Worker's main
 * module under the name given in wrangler.toml, declared in `new_sqlite_classes`.
 *
 * @example
 * ```ts
 * export const JevMemObject = defineMemoryObject({ files: SHIPPED_MODEL_FILES });
 * export default createEdgeHandler();
 * ```
 * @throws (its requests answer) JevMemError codes as HTTP errors (see http.ts); a model that
 *   cannot load answers 500 `MODEL_LOAD_FAILED`, and is tried again on the next request.
 */
export function defineMemoryObject(options: MemoryObjectOptions): MemoryObjectClass {
  if (options === null || typeof options !== 'object' || options.files === null || typeof options.files !== 'object') {
    throw new JevMemError('INVALID_OPTION', 'option files: expected the model files keyed by path (e.g. SHIPPED_MODEL_FILES)', { field: 'files' });
  }
  const verify = options.verify ?? false;
  const log = options.log;

  return class JevMemObject {
    private memory: Promise<Memory> | undefined;

    constructor(
      private readonly ctx: DurableObjectStateLike,
      private readonly env: EdgeEnv,
    ) {}

    /** The namespace's memory, created on first use (and again after a failed start). */
    private memoryFor(namespace: string): Promise<Memory> {
      if (this.memory === undefined) {
        const created = (async () => {
          const config = configOf(this.env);
          const engines = await enginesFor(options.files, verify, config.systemOne);
          const o: MemoryOptions = {
            namespace,
            storage: createDurableObjectStorage(this.ctx.storage),
            encoder: engines.encoder,
            systemOne: engines.systemOne,
            // Exact below 5,000 nodes, then the pure-TypeScript HNSW (no wasm: allowed in Workers; issue 25).
            vectorIndex: 'auto',
            // The isolate has 128 MB: node bodies and edge lists beyond a few operations' working
            // sets stay in SQLite (issue 13).
            cache: { nodes: 2048, edges: 1024 },
          };
          if (options.parameters !== undefined) o.parameters = options.parameters;
          if (config.systemTwo !== undefined) o.systemTwo = config.systemTwo;
          try {
            return await createMemory(o);
          } catch (e) {
            // Options come from the deployment, not from the request: the server is at fault.
            if (isJevMemError(e, 'INVALID_OPTION')) e.details.httpStatus = 500;
            throw e;
          }
        })();
        this.memory = created;
        created.catch(() => {
          if (this.memory === created) this.memory = undefined;
        });
      }
      return this.memory;
    }

    async fetch(request: Request): Promise<Response> {
      try {
        // An MCP exchange the front (mcp.ts) has checked: JSON-RPC over the same memory.
        const mcpNamespace = request.headers.get(MCP_NAMESPACE_HEADER);
        if (mcpNamespace !== null) return await answerMcp(await request.text(), mcpNamespace, (ns) => this.memoryFor(ns), configOf(this.env), log, mcpScopeOf(request));
        const op = (await request.json()) as Operation;
        return await this.run(op);
      } catch (e) {
        return errorResponse(e, log);
      }
    }

    private async run(op: Operation): Promise<Response> {
      const ns = op.namespace;
      switch (op.op) {
        case 'add': {
          const memory = await this.memoryFor(ns);
          // A bound token's scope (bound-scope.ts) is the write's options.scope: each memory belongs to it.
          const o = scopedOptions(ns, op);
          const results = op.single ? [await memory.add(op.observations[0] as (typeof op.observations)[0], o)] : await memory.addMany(op.observations, o);
          return jsonResponse(201, { namespace: ns, added: results.filter((r) => !r.deduplicated).length, results });
        }
        case 'recall': {
          const memory = await this.memoryFor(ns);
          const o: Parameters<Memory['recall']>[1] = { namespace: ns };
          if (op.k !== undefined) o.k = op.k;
          if (op.after !== undefined) o.after = op.after;
          if (op.before !== undefined) o.before = op.before;
          if (op.now !== undefined) o.now = op.now;
          selectInto(o, op);
          const r = await memory.recall(op.query, o);
          return jsonResponse(200, { memories: r.memories, trace: r.trace });
        }
        case 'answer': {
          const memory = await this.memoryFor(ns);
          const o: Parameters<Memory['answer']>[1] = { namespace: ns };
          if (op.k !== undefined) o.k = op.k;
          // Epoch ms is the question's date as a Date (the prompt's "today" and the recall's `now`).
          if (op.now !== undefined) o.now = typeof op.now === 'number' ? new Date(op.now) : op.now;
          selectInto(o, op);
          const a = await memory.answer(op.query, o);
          const { prompt: _prompt, ...systemTwo } = a.systemTwo as typeof a.systemTwo & { prompt?: unknown };
          return jsonResponse(200, { text: a.text, memories: a.memories, trace: a.trace, systemTwo });
        }
        case 'export': {
          const o: ExportOptions = scopedOptions(ns, op);
          if (op.filter !== undefined) o.filter = op.filter as MemoryFilter;
          return jsonResponse(200, await (await this.memoryFor(ns)).export(o));
        }
        case 'stats':
          return jsonResponse(200, await (await this.memoryFor(ns)).stats({ namespace: ns }));
        case 'list': {
          const o: ListOptions = scopedOptions(ns, op);
          if (op.limit !== undefined) o.limit = op.limit;
          if (op.cursor !== undefined) o.cursor = op.cursor;
          if (op.filter !== undefined) o.filter = op.filter as MemoryFilter;
          return jsonResponse(200, await (await this.memoryFor(ns)).list(o));
        }
        case 'getMemory': {
          const node = await (await this.memoryFor(ns)).get(op.id, scopedOptions(ns, op));
          if (node === undefined) throw notFound(op.id, ns);
          const { embedding: _embedding, ...rest } = node;
          return jsonResponse(200, rest);
        }
        case 'history': {
          // An unknown id, or one outside the scope, throws NOT_FOUND (field id): 404.
          const versions = await (await this.memoryFor(ns)).history(op.id, scopedOptions(ns, op));
          return jsonResponse(200, { versions });
        }
        case 'updateMemory': {
          const result = await (await this.memoryFor(ns)).update(op.id, op.observation, scopedOptions(ns, op));
          return jsonResponse(200, { namespace: ns, result });
        }
        case 'deleteMemory': {
          const deleted = await (await this.memoryFor(ns)).delete(op.id, scopedOptions(ns, op));
          if (!deleted) throw notFound(op.id, ns);
          return jsonResponse(200, { deleted: true, id: op.id });
        }
        case 'dropNamespace': {
          const pending = this.memory;
          this.memory = undefined;
          const memory = await pending?.catch(() => undefined);
          if (memory !== undefined) {
            await memory.forget(ns);
            await memory.close();
          }
          // Frees the object's whole database (tables included); the next request starts afresh.
          await this.ctx.storage.deleteAll();
          return jsonResponse(200, { deleted: true, namespace: ns });
        }
        default:
          throw new JevMemError('INVALID_INPUT', `unknown operation ${JSON.stringify((op as { op?: unknown }).op)}`, { field: 'op' });
      }
    }
  };
}
