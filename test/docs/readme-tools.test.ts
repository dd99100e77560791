/**
 * h-break10 (MCP small points): the README's table of the memory tools ("Memory where agents
 * live") lists each tool's arguments exactly as its JSON Schema (`memoryTools()`): every property
 * of the schema, none that is not, and `name?` exactly for the optional ones. The `remember` row
 * had left out `role`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryTools } from '../../src/integrations/tools.js';

const root = join(import.meta.dirname, '../..');

/** `text` without its parenthesised asides (nested ones too), where the argument names never are. */
function withoutAsides(text: string): string {
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/** The table's rows: tool name → its arguments as written (`name` or `name?`), in order. */
function readmeTable(): Map<string, string[]> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n| tool | arguments | returns |\n');
  expect(start).toBeGreaterThan(0);
  const rows = new Map<string, string[]>();
  for (const line of readme.slice(start + 1).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [, tool, args] = line.split('|').map((c) => c.trim());
    const name = /^`([a-z]+)`/.exec(tool ?? '')?.[1];
    expect(name, line).toBeDefined();
    rows.set(name as string, [...withoutAsides(args ?? '').matchAll(/`([A-Za-z]+\??)`/g)].map((m) => m[1] as string));
  }
  return rows;
}

describe('README tool table', () => {
  it('lists every tool with exactly the arguments of its schema, optional ones marked ?', () => {
    const table = readmeTable();
    const tools = memoryTools({ answer: true });
    expect([...table.keys()].sort()).toEqual(tools.map((t) => t.name).sort());
    for (const t of tools) {
      const schema = t.inputSchema as { properties: Record<string, unknown>; required?: string[] };
      const required = new Set(schema.required ?? []);
      const fromSchema = Object.keys(schema.properties).map((p) => (required.has(p) ? p : `${p}?`));
      expect([t.name, [...(table.get(t.name) ?? [])].sort()]).toEqual([t.name, fromSchema.sort()]);
    }
  });
});
