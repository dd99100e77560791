/**
 * `jev-mem/edge`: jev-mem on Cloudflare Workers (SPEC 9). A stateless Worker front serves the
 * HTTP API (http.ts) and sends each checked request to the Durable Object of its namespace
 * (memory-object.ts), which keeps the memory in its SQLite storage (do-storage.ts).
 *
 * Nothing here imports model files: the deployable entry `src/edge/worker.ts` bundles the shipped
 * models as Worker modules and passes them to {@link defineMemoryObject}. See docs/edge.md.
 *
 * @module
 */
export { createEdgeAssetLoader, type EdgeModelFiles } from './assets.js';
export {
  createDurableObjectStorage,
  DO_SCHEMA_VERSION,
  type DurableObjectStorageLike,
  type DurableObjectStorageOptions,
  type SqlCursorLike,
  type SqlStorageLike,
  type SqlValue,
} from './do-storage.js';
export { DEFAULT_MAX_BATCH, DEFAULT_MAX_BODY_BYTES, readEdgeConfig, type EdgeConfig, type EdgeEnv, type EdgeSystemOneKind } from './env.js';
export {
  createEdgeHandler,
  errorResponse,
  matchRoute,
  NAMESPACE_PATTERN,
  type DurableObjectNamespaceLike,
  type EdgeHandlerOptions,
  type Operation,
  type Route,
  type RouteMatch,
  type RouteName,
} from './http.js';
export { answerMcp, MCP_NAMESPACE_HEADER, MCP_PATH, MCP_PROTOCOL_VERSIONS, MCP_TOOLSET_VERSION, withMcp } from './mcp.js';
export { defineMemoryObject, type DurableObjectStateLike, type MemoryObjectClass, type MemoryObjectOptions } from './memory-object.js';
