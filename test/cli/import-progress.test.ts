/**
 * `jev-mem import` of a large file (issue 22, hostile review: 50k nodes, minutes without a word,
 * Ctrl-C exiting 130 silently and leaving the store it created): each step is said on stderr,
 * Ctrl-C before the one atomic commit says nothing was committed and how to run it again, a store
 * the import created and left empty is removed, and one that existed before is kept as it was.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { cli, exited, SAMPLE, spawnCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const H = ['--system-one', 'heuristic'];

/** The sample conversation's export, and a copy of it with its nodes repeated to `copies` times as many (new ids and seqs). */
let small: string;
let large: string;
let largeNodes = 0;
beforeAll(async () => {
  const source = join(dir, 'source');
  expect((await cli(['ingest', SAMPLE, '--store', source, '--namespace', 'conv', ...H])).code).toBe(0);
  const exported = await cli(['export', '--store', source, '--namespace', 'conv', ...H]);
  expect(exported.code).toBe(0);
  small = join(dir, 'small.json');
  writeFileSync(small, exported.out[0] as string);
  const file = JSON.parse(exported.out[0] as string) as MemoryExport;
  const copies = 120; // 30 turns × 120: 3,600 nodes, a file of several MiB
  const nodes: MemoryExport['nodes'] = [];
  const edges: MemoryExport['edges'] = [];
  const hashes: Record<string, string> = {};
  for (let k = 0; k < copies; k++) {
    const id = (x: string): string => `${x}-${k}`;
    for (const n of file.nodes) {
      nodes.push({ ...n, id: id(n.id), seq: nodes.length + 1, supersededBy: n.supersededBy.map(id) });
      hashes[id(n.id)] = file.textHashes?.[n.id] as string;
    }
    for (const e of file.edges) edges.push({ ...e, id: `${id(e.from)}>${id(e.to)}:${e.view}:${e.subtype}`, from: id(e.from), to: id(e.to) });
  }
  largeNodes = nodes.length;
  large = join(dir, 'large.json');
  writeFileSync(large, JSON.stringify({ ...file, nodes, edges, textHashes: hashes }));
}, 120_000);

describe('jev-mem import', () => {
  it('says each step on stderr and the total at the end', async () => {
    const store = join(dir, 'progress');
    const r = await cli(['import', small, '--store', store, ...H]);
    expect(r.code).toBe(0);
    const n = (JSON.parse(readFileSync(small, 'utf8')) as MemoryExport).nodes.length;
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ nodes: n, namespace: 'conv' });
    const steps = r.err.filter((l) => l.startsWith('import: ')).map((l) => /· ([a-z]+)/.exec(l)?.[1]);
    expect(steps).toEqual(['checking', 'building', 'committing', 'committed', undefined]);
    expect(r.err.at(-1)).toMatch(new RegExp(`^import: done: ${n} nodes, \\d+ edges committed to namespace "conv" in [\\d.]+ s$`));
  });

  /** Runs `import <large>` into `store` and sends Ctrl-C at its first progress line; the exit code and stderr. */
  async function interrupted(store: string, extra: string[] = []): Promise<{ code: number | string; stderr: string }> {
    const child = spawnCli(['import', large, '--store', store, ...extra, ...H]);
    let stderr = '';
    let sent = false;
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      if (!sent && /import: reading /.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await exited(child);
    expect(sent).toBe(true);
    return { code, stderr };
  }

  it('Ctrl-C before the commit: exit 130, says nothing was committed and how to run it again, removes the store it made', async () => {
    const store = join(dir, 'fresh');
    const { code, stderr } = await interrupted(store);
    expect(code).toBe(130);
    expect(stderr).toContain(`jev-mem: import interrupted: nothing was committed (the import is one atomic commit); the new store ${store} was removed; to import the file, run again: jev-mem import ${large} --store ${store}`);
    expect(existsSync(store)).toBe(false);
    // Run again, it imports the whole file.
    const again = await cli(['import', large, '--store', store, ...H]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out[0] as string)).toMatchObject({ nodes: largeNodes });
  }, 180_000);

  it('Ctrl-C into a store that existed: the store and its namespaces stay as they were', async () => {
    const store = join(dir, 'existing');
    expect((await cli(['ingest', SAMPLE, '--store', store, '--namespace', 'mine', ...H])).code).toBe(0);
    const { code, stderr } = await interrupted(store, ['--namespace', 'other']);
    expect(code).toBe(130);
    expect(stderr).toContain(`nothing was committed (the import is one atomic commit); store ${store} unchanged, closed, lock released; to import the file, run again: jev-mem import ${large} --store ${store} --namespace other`);
    expect(existsSync(store)).toBe(true);
    const ns = await cli(['stats', '--store', store, '--namespace', 'mine', ...H]);
    expect(JSON.parse(ns.out[0] as string)).toMatchObject({ namespace: 'mine', nodes: 30 });
    expect((await cli(['stats', '--store', store, '--namespace', 'other', ...H])).code).toBe(1); // NOT_FOUND: nothing imported
  }, 180_000);
});
