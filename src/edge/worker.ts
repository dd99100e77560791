/**
 * The deployable Worker (wrangler `main`): the HTTP front as the default export and the memory
 * Durable Object class `JevMemObject`, with the shipped models bundled as Worker modules.
 * Build and run it with the wrangler configuration in examples/edge/wrangler.toml.
 *
 * @module
 */
import { createEdgeHandler } from './http.js';
import { withMcp } from './mcp.js';
import { defineMemoryObject } from './memory-object.js';
import { SHIPPED_MODEL_FILES } from './models.js';

/** The Durable Object class of memory namespaces (binding `JEV_MEM`, a `new_sqlite_classes` class). */
export const JevMemObject = defineMemoryObject({ files: SHIPPED_MODEL_FILES });

/**
 * The Worker's fetch handler: routing, auth and checks, then the namespace's object; the MCP
 * endpoint `POST /v1/namespaces/:ns/mcp` (mcp.ts) in front of the HTTP API.
 */
export default withMcp(createEdgeHandler({ binding: 'JEV_MEM' }), { binding: 'JEV_MEM' });
