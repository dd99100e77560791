/**
 * `jev-mem mcp --user <id> --agent <id>`: every tool of the server is tied to that scope (a
 * client passing another userId gets a tool error; what it remembers is stored under the scope).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { connectToJevMem } from '../../examples/mcp-client/client.js';
import { createNodeMemory } from '../../src/node.js';

const ENTRY = fileURLToPath(new URL('../cli/source-entry.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-mcp-scope-'));
const store = join(dir, 'store');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('jev-mem mcp --user --agent', () => {
  it('ties every tool to the scope', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('JEV_MEM_LLM')) env[k] = v;
    const { client } = await connectToJevMem({
      command: process.execPath,
      args: ['--import', 'tsx', ENTRY, 'mcp', '--store', store, '--system-one', 'heuristic', '--user', 'alice', '--agent', 'coach'],
      cwd: ROOT,
      env,
    });
    let id = '';
    try {
      const ok = await client.callTool({ name: 'remember', arguments: { text: 'I run on Sundays.', userId: 'alice' } });
      expect(ok.isError).not.toBe(true);
      id = (ok.structuredContent as { id: string }).id;
      const bad = await client.callTool({ name: 'remember', arguments: { text: 'planted', userId: 'bob' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0]?.text).toMatch(/^INVALID_INPUT: userId: /);
    } finally {
      await client.close();
    }
    const m = await createNodeMemory({ store, systemOne: 'heuristic' });
    try {
      expect((await m.list()).memories.map((x) => [x.id, x.text])).toEqual([[id, 'I run on Sundays.']]);
      expect((await m.get(id))?.provenance.metadata).toEqual({ userId: 'alice', agentId: 'coach' });
    } finally {
      await m.close();
    }
  });
});
