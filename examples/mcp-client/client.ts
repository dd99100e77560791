/**
 * An MCP client of `jev-mem mcp`: spawns the server over stdio with the official SDK's
 * `StdioClientTransport` — as Claude Desktop or Cursor do from their configuration — then
 * remembers a few statements and recalls one.
 *
 * Run: `npx tsx examples/mcp-client/client.ts [store-dir]` from a checkout (it starts
 * `node bin/jev-mem.js mcp`), or pass your own command to {@link connectToJevMem}, e.g.
 * `{ command: 'npx', args: ['-y', '-p', 'jev-mem', '-p', '@modelcontextprotocol/sdk', 'jev-mem', 'mcp', '--store', dir] }`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** How to start the server. */
export interface ServerCommand {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** Starts `jev-mem mcp` and connects an MCP client to it over stdio. Close the client to stop the server. */
export async function connectToJevMem(server: ServerCommand): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ ...server, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const client = new Client({ name: 'jev-mem-example', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => log };
}

/** The JSON result of a tool call (the server returns it as `structuredContent`). */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError === true) throw new Error(`${name}: ${(r.content as Array<{ text: string }>)[0]?.text}`);
  return r.structuredContent as Record<string, any>;
}

/** Remembers three statements and recalls the one about the user's bike; returns what recall found first. */
export async function demo(client: Client): Promise<{ tools: string[]; first: string }> {
  const { tools } = await client.listTools();
  for (const text of ['I ride a green Brompton folding bike to work.', 'My favourite tea is lapsang souchong.', 'I am flying to Osaka on 12 May.']) {
    await callTool(client, 'remember', { text, speaker: 'user' });
  }
  const found = await callTool(client, 'recall', { query: 'What bike do I ride?', k: 3 });
  return { tools: tools.map((t) => t.name), first: found.memories[0].text };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const given = process.argv[2];
  const store = given ?? mkdtempSync(join(tmpdir(), 'jev-mem-mcp-example-'));
  const { client } = await connectToJevMem({ command: process.execPath, args: [join(root, 'bin/jev-mem.js'), 'mcp', '--store', store, '--namespace', 'me'] });
  try {
    console.log(await demo(client));
  } finally {
    await client.close();
    if (given === undefined) rmSync(store, { recursive: true, force: true });
  }
}
