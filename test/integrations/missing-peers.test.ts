/**
 * Without their optional peers (hidden by a Node resolve hook), the integrations fail with
 * DEPENDENCY_MISSING naming the package and the install line, and `jev-mem mcp` makes no store.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-peers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('answers DEPENDENCY_MISSING with the install line for the MCP SDK, ai and @langchain/langgraph-checkpoint', () => {
  const hook = fileURLToPath(new URL('./hide-peers.mjs', import.meta.url));
  const script = fileURLToPath(new URL('./missing-peers-script.ts', import.meta.url));
  const store = join(dir, 'store');
  const out = execFileSync(process.execPath, ['--import', hook, '--import', 'tsx', script, store], { cwd: ROOT, encoding: 'utf8' });
  const r = JSON.parse(out.trim().split('\n').at(-1) as string);
  expect(r.cli).toBe(1);
  expect(r.cliErr).toEqual([
    'jev-mem: DEPENDENCY_MISSING: the MCP server (jev-mem mcp, jev-mem/mcp) needs the optional package @modelcontextprotocol/sdk, which is not installed here: run `npm i @modelcontextprotocol/sdk`',
  ]);
  expect(existsSync(store)).toBe(false);
  expect(r.ai).toEqual({ code: 'DEPENDENCY_MISSING', package: 'ai', message: 'jev-mem/ai-sdk needs the optional package ai, which is not installed here: run `npm i ai`' });
  expect(r.langgraph).toMatchObject({ code: 'DEPENDENCY_MISSING', package: '@langchain/langgraph-checkpoint' });
}, 30_000);
