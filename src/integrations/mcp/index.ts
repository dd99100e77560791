/**
 * `jev-mem/mcp`: the MCP server of jev-mem for Node, to embed it in a process of your own (the
 * `jev-mem mcp` command runs {@link serveMcpStdio} over a store on disk), and the shared memory
 * tools, for any other tool-calling runtime.
 *
 * `@modelcontextprotocol/sdk` is an optional peer: loaded on first use, `DEPENDENCY_MISSING`
 * (`npm i @modelcontextprotocol/sdk`) when absent.
 *
 * @module
 */
export { createMcpServer, MCP_INSTRUCTIONS, type JevMemMcpServer, type McpSdk } from './server.js';
export { loadMcpSdk, serveMcpStdio, type McpStdioOptions } from './stdio.js';
export { DEFAULT_TOOL_K, MAX_TOOL_K, memoryTools, memoryView, runMemoryTool, toolField, traceSummary, type MemoryTool, type MemoryToolName, type MemoryToolsOptions, type ToolInputSchema } from '../tools.js';
export { listedView, listPage, type ListedMemory, type ListPage } from '../list.js';
