/**
 * Issue 24 (hostile review): the README's list of error codes names every code a caller can see:
 * each `JevMemError` code of src/errors.ts (`ERROR_CODES`) and each code the HTTP server and the
 * Worker's MCP endpoint answer on their own (`code: 'UNAUTHORIZED'` literals in src/edge/), and
 * names no code that does not exist. The README had left out UNAUTHORIZED and METHOD_NOT_ALLOWED.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';

const root = join(import.meta.dirname, '../..');

/** The codes in the README's "### Errors" section: backquoted UPPER_SNAKE words. */
function readmeCodes(): Set<string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n### Errors\n');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n#', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return new Set([...section.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})`/g)].map((m) => m[1] as string));
}

/** The codes the edge server writes itself (`code: 'X'` in src/edge/*.ts). */
function httpOnlyCodes(): Set<string> {
  const dir = join(root, 'src/edge');
  const out = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/code: '([A-Z_]+)'/g)) out.add(m[1] as string);
  }
  return out;
}

describe('README error codes', () => {
  it('lists every code of src/errors.ts and of the HTTP server, and no other', () => {
    const listed = readmeCodes();
    const http = httpOnlyCodes();
    expect(http.has('UNAUTHORIZED') && http.has('METHOD_NOT_ALLOWED')).toBe(true);
    const known = new Set<string>([...ERROR_CODES, ...http]);
    expect([...known].filter((c) => !listed.has(c))).toEqual([]);
    expect([...listed].filter((c) => !known.has(c))).toEqual([]);
  });
});
