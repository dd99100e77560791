/**
 * The agents' `forget` tool erases every version of the memory it is given (h-break15 finding 2):
 * a user who asks to forget something updated before must not get its older version back as
 * current. Over the real MCP SDK client (`jev-mem mcp` over stdio) and over the AI SDK tools
 * (`createMemoryTools`), each on a SQLite file store: remember a secret (speaker and session of
 * its own), update it, forget the current version; the result names both ids, recall and list
 * return neither, history of the old id is NOT_FOUND, and no file of the store holds a byte of
 * either text, the speaker or the session, with the server running and after it closed. Each
 * scan first runs before the forget, where it must find the needles.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connectToJevMem } from '../../examples/mcp-client/client.js';
import { createMemoryTools } from '../../src/integrations/ai-sdk.js';
import { createNodeMemory } from '../../src/node.js';
import { ROOT } from '../cli/helpers.js';

const ENTRY = fileURLToPath(new URL('../cli/source-entry.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-forget-versions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = { text: 'My ex-partner Thaddeusmoor lives at 12 Wobbleton Lane.', speaker: 'Rosalindqq', sessionId: 'sessMcpSecret', observedAt: '2025-03-01T09:00:00Z' };
const NEW = { text: 'My ex-partner Thaddeusmoor moved to Glimmerford.', observedAt: '2025-04-01T09:00:00Z' };
/** Case-blind needles: both texts' rare words, the speaker and the session (the update keeps them). */
const NEEDLES = ['thaddeusmoor', 'wobbleton', 'glimmerford', 'rosalindqq', 'sessmcpsecret'];
const FILLER = Array.from({ length: 4 }, (_, i) => ({ text: `Filler ${i}: the bus was late again because of the rain on route ${i}.`, observedAt: `2025-02-${String(i + 1).padStart(2, '0')}T09:00:00Z` }));

/** The needles found in any file under `store` (ASCII lower-cased, so case-blind). */
function needlesIn(store: string): string[] {
  const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]));
  const hits = new Set<string>();
  for (const f of files(store)) {
    const low = Buffer.from(readFileSync(f).map((c) => (c >= 65 && c <= 90 ? c + 32 : c)));
    for (const n of NEEDLES) if (low.includes(n)) hits.add(n);
  }
  return [...hits].sort();
}

/** Runs a tool: its structured result, or the error text when it failed. */
type RunTool = (name: string, args: Record<string, unknown>) => Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; text: string }>;

/** The scenario on any tool runner; `store` is the store's folder. */
async function forgetsEveryVersion(run: RunTool, store: string): Promise<void> {
  const data = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r = await run(name, args);
    if (!r.ok) throw new Error(`${name} failed: ${r.text}`);
    return r.data;
  };
  for (const f of FILLER) await data('remember', f);
  const old = (await data('remember', OLD)).id as string;
  const current = (await data('update', { id: old, ...NEW })).id as string;
  expect(((await data('history', { id: current })).versions as Array<{ id: string }>).map((v) => v.id)).toEqual([old, current]);
  // The scan sees the memory while it is stored (else this test could not fail).
  expect(needlesIn(store)).toEqual([...NEEDLES].sort());

  expect(await data('forget', { id: current })).toEqual({ deleted: true, id: current, erased: [old, current], count: 2 });

  // Neither version is recalled, listed or has a history; the older one did not come back as current.
  const recalled = (await data('recall', { query: 'Where does my ex-partner Thaddeusmoor live?', k: 20 })).memories as Array<{ id: string; text: string }>;
  expect(recalled.length).toBeGreaterThan(0);
  expect(recalled.filter((m) => m.id === old || m.id === current || m.text.includes('Thaddeusmoor'))).toEqual([]);
  const listed = (await data('list', { limit: 100 })).memories as Array<{ id: string }>;
  expect(listed.map((m) => m.id).sort()).toHaveLength(FILLER.length);
  expect(listed.some((m) => m.id === old || m.id === current)).toBe(false);
  const history = await run('history', { id: old });
  expect(history.ok).toBe(false);
  expect(history.ok ? '' : history.text).toMatch(/^NOT_FOUND: /);
  // A second forget of either id is an unknown id.
  const again = await run('forget', { id: old });
  expect(again.ok ? '' : again.text).toMatch(/^NOT_FOUND: no memory with id/);
  // No byte of either version, its speaker or its session is left in the store's files.
  expect(needlesIn(store)).toEqual([]);
}

describe('the forget tool erases every version of a memory', () => {
  it('over MCP (the SDK client, jev-mem mcp over stdio): no byte left, running or closed', async () => {
    const store = join(dir, 'mcp');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('JEV_MEM_LLM')) env[k] = v;
    const { client } = await connectToJevMem({ command: process.execPath, args: ['--import', 'tsx', ENTRY, 'mcp', '--store', store, '--system-one', 'heuristic'], cwd: ROOT, env });
    const run = async (c: Client, name: string, args: Record<string, unknown>): ReturnType<RunTool> => {
      // A long bound: the machine the tests run on may be busy (the SDK's default is 60 s).
      const r = await c.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      return r.isError === true ? { ok: false, text: (r.content as Array<{ text: string }>)[0]?.text ?? '' } : { ok: true, data: r.structuredContent as Record<string, unknown> };
    };
    try {
      await forgetsEveryVersion((name, args) => run(client, name, args), store);
    } finally {
      await client.close();
    }
    expect(needlesIn(store)).toEqual([]);
  }, 300_000);

  it('over the AI SDK tools (createMemoryTools): no byte left, open or closed', async () => {
    const store = join(dir, 'ai-sdk');
    const memory = await createNodeMemory({ store, systemOne: 'heuristic', create: true });
    try {
      const tools = await createMemoryTools(memory);
      const run: RunTool = async (name, args) => {
        try {
          const data = (await tools[name as keyof typeof tools].execute?.(args, { toolCallId: name, messages: [] } as never)) as Record<string, unknown>;
          return { ok: true, data };
        } catch (e) {
          return { ok: false, text: String(e) };
        }
      };
      await forgetsEveryVersion(run, store);
    } finally {
      await memory.close();
    }
    expect(needlesIn(store)).toEqual([]);
  }, 300_000);
});
