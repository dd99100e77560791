/**
 * `jev-mem mcp` against the real MCP client (issue 23): the SDK's `Client` over
 * `StdioClientTransport` spawns the command (the TypeScript sources through tsx, as the CLI
 * tests do), lists the tools, remembers five turns, recalls the right one first, updates and
 * forgets, shows an update's history, selects by userId scope and a metadata filter (with the
 * calibrated relevance in the results), and the store keeps what the server wrote after it exits. The client is made by
 * examples/mcp-client/client.ts, whose demo runs last.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../cli/helpers.js';
import { connectToJevMem, demo } from '../../examples/mcp-client/client.js';
import { FIVE_TURNS, QUESTIONS } from './turns.js';

const ENTRY = fileURLToPath(new URL('../cli/source-entry.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-mcp-'));
const store = join(dir, 'store');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Structured = Record<string, unknown> & { memories?: Array<Record<string, unknown>> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: Structured; text: string }> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
  return { isError: r.isError === true, data: (r.structuredContent ?? {}) as Structured, text };
}

describe('jev-mem mcp over stdio, with the MCP SDK client', () => {
  it('lists the tools, remembers, recalls, updates, forgets and lists', async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('JEV_MEM_LLM')) env[k] = v;
    const { client, stderr } = await connectToJevMem({
      command: process.execPath,
      args: ['--import', 'tsx', ENTRY, 'mcp', '--store', store, '--namespace', 'me', '--system-one', 'heuristic'],
      cwd: ROOT,
      env,
    });
    try {
      expect(client.getServerVersion()?.name).toBe('jev-mem');
      const { tools } = await client.listTools();
      // No System Two in the environment: no answer tool.
      expect(tools.map((t) => t.name)).toEqual(['remember', 'recall', 'update', 'forget', 'list', 'history']);
      const recallTool = tools.find((t) => t.name === 'recall');
      expect(recallTool?.inputSchema.required).toEqual(['query']);
      expect(recallTool?.annotations?.readOnlyHint).toBe(true);
      expect(tools.find((t) => t.name === 'forget')?.annotations?.destructiveHint).toBe(true);

      const ids: string[] = [];
      for (const turn of FIVE_TURNS) {
        const r = await call(client, 'remember', { ...turn });
        expect(r.isError).toBe(false);
        expect(r.data.deduplicated).toBe(false);
        ids.push(r.data.id as string);
      }
      expect(new Set(ids).size).toBe(5);
      // The same statement at the same time again is merged, not stored twice.
      expect((await call(client, 'remember', { ...FIVE_TURNS[0] })).data).toEqual({ id: ids[0], deduplicated: true });

      for (const q of QUESTIONS) {
        const r = await call(client, 'recall', { query: q.query, k: 3 });
        expect(r.isError).toBe(false);
        expect(r.data.memories?.[0]?.id, q.query).toBe(ids[q.turn]);
        expect(r.data.memories?.[0]?.text).toBe(FIVE_TURNS[q.turn].text);
        expect(r.data.memories?.length).toBe(3);
        const trace = r.data.trace as Record<string, unknown>;
        expect(Array.isArray(trace.views)).toBe(true);
        expect(typeof trace.stopReason).toBe('string');
      }

      // Update: the new version answers first, the old one stays as superseded history.
      const up = await call(client, 'update', { id: ids[0], text: 'My dog Biscuit is a four-year-old beagle now; he turned four in May.' });
      expect(up.isError).toBe(false);
      expect(up.data.replaces).toBe(ids[0]);
      const after = await call(client, 'recall', { query: 'How old is my dog Biscuit?', k: 5 });
      expect(after.data.memories?.[0]?.id).toBe(up.data.id);
      expect(after.data.memories?.find((m) => m.id === ids[0])?.status).toBe('superseded');

      // Forget one memory; forgetting it again is a tool error the model can read.
      expect((await call(client, 'forget', { id: ids[4] })).data).toEqual({ deleted: true, id: ids[4], erased: [ids[4]], count: 1 });
      const again = await call(client, 'forget', { id: ids[4] });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/^NOT_FOUND: no memory with id/);

      // A bad argument names itself.
      const bad = await call(client, 'recall', { query: 'dog', k: 0 });
      expect(bad.isError).toBe(true);
      expect(bad.text).toBe('INVALID_INPUT: k: expected an integer from 1 to 50, got 0');
      // So does an argument the tool does not take (a tool error, not a JSON-RPC internal error).
      const unknown = await call(client, 'remember', { text: 'hello', unknownArg: 1 });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/^INVALID_INPUT: unknownArg: unknown argument; expected text, /);

      // list pages in insertion order: 4 left of the first five, plus the update's new version.
      const p1 = await call(client, 'list', { limit: 4 });
      expect(p1.data.memories?.map((m) => m.id)).toEqual(ids.slice(0, 4));
      expect(typeof p1.data.nextCursor).toBe('string');
      const p2 = await call(client, 'list', { limit: 4, cursor: p1.data.nextCursor });
      expect(p2.data.memories?.map((m) => m.id)).toEqual([up.data.id]);
      expect(p2.data.nextCursor).toBeUndefined();

      // History: the first statement and the version that replaced it, oldest first.
      const h = await call(client, 'history', { id: up.data.id });
      expect(h.isError).toBe(false);
      expect((h.data.versions as Array<{ id: string; status: string }>).map((v) => [v.id, v.status])).toEqual([
        [ids[0], 'superseded'],
        [up.data.id, 'active'],
      ]);

      // Scope and filter: a memory of another user, selected by userId and by a metadata filter.
      const other = await call(client, 'remember', { text: 'My dog Pixel is a grey whippet.', speaker: 'user', userId: 'sam', metadata: { topic: 'pets' }, observedAt: '2025-03-06T09:00:00Z' });
      expect(other.isError).toBe(false);
      const sams = await call(client, 'recall', { query: 'What breed is my dog?', k: 5, userId: 'sam' });
      expect(sams.data.memories?.map((m) => m.id)).toEqual([other.data.id]);
      expect(sams.data.memories?.[0]?.metadata).toEqual({ topic: 'pets', userId: 'sam' });
      const rel = sams.data.memories?.[0]?.relevance as number;
      expect(rel >= 0 && rel <= 1).toBe(true);
      const pets = await call(client, 'list', { filter: { topic: 'pets' } });
      expect(pets.data.memories?.map((m) => m.id)).toEqual([other.data.id]);
      const noSam = await call(client, 'recall', { query: 'What breed is my dog?', k: 8, filter: { userId: { $exists: false } } });
      expect(noSam.data.memories?.some((m) => m.id === other.data.id)).toBe(false);
      expect(noSam.data.memories?.[0]?.id).toBe(up.data.id);
      const badFilter = await call(client, 'list', { filter: { topic: { $near: 1 } } });
      expect(badFilter.isError).toBe(true);
      expect(badFilter.text).toMatch(/^INVALID_INPUT: filter\.topic/);

      // The example's demo: three more statements, and the bike question finds the bike.
      expect(await demo(client)).toEqual({ tools: ['remember', 'recall', 'update', 'forget', 'list', 'history'], first: 'I ride a green Brompton folding bike to work.' });
    } finally {
      await client.close();
    }
    expect(stderr()).toContain('serving namespace "me"');
    // The server closed the store on exit: the CLI reads what it wrote.
    const stats = await cli(['stats', '--store', store, '--namespace', 'me', '--system-one', 'heuristic']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out[0] as string).nodes).toBe(5 + 1 + 3);
  }, 60_000);

  it('answers a line that is not JSON with -32700 Parse error (id null) and JSON that is no request with -32600, and goes on serving', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'mcp', '--store', join(dir, 'parse'), '--system-one', 'heuristic'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const replies: Array<Record<string, unknown>> = [];
    let buffered = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const got = new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
          replies.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
          buffered = buffered.slice(nl + 1);
        }
        if (replies.length >= 4) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Written in one chunk, the last line split across two writes; a blank line gets no answer.
    child.stdin.write('this is not json\n{"foo": 1}\n\n{"jsonrpc":"2.0","id":9,"method":5}\n{"jsonrpc":"2.0",');
    child.stdin.write('"id":7,"method":"ping"}\n');
    // Bounded, so that a server that never answers (the SDK alone drops such lines) fails here.
    await Promise.race([got, exited.then(() => undefined), new Promise((resolve) => setTimeout(resolve, 40_000))]);
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(replies).toHaveLength(4);
    expect(replies[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect((replies[0]?.error as { message: string }).message).toMatch(/^Parse error: /);
    expect(replies[1]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response' } });
    expect(replies[2]).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32600 } });
    expect(replies[3]).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  }, 60_000);
});
