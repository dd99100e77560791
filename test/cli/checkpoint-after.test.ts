/**
 * The commands that rewrite or fill a store leave it with a checkpoint (issue 22, fresh-clone
 * review): after `jev-mem import`, `repair` and `maintain` the next open rescanned the whole
 * namespace every time (14.5 s at 50k nodes instead of about 1 s), because a namespace opened by
 * a scan counted as unchanged since a checkpoint it did not have. The first open after each of
 * them must restore the namespace from its checkpoint, with the same memories.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PENDING_ERASURES_FILE, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { cli, SAMPLE } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'jev-mem-cli-checkpoint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const H = ['--system-one', 'heuristic'];

interface Stats {
  nodes: number;
  edges: number;
  opened: { from: string; replayed: number; reason?: string };
}

/** `jev-mem stats` of the store's default namespace (the open it reports is this command's). */
async function stats(store: string): Promise<Stats> {
  const r = await cli(['stats', '--store', store, ...H]);
  expect(r.code, r.err.join('\n')).toBe(0);
  return JSON.parse(r.out[0]!) as Stats;
}

/** The store's default namespace as `jev-mem export` prints it, without the time of the export. */
async function exported(store: string): Promise<{ nodes: Array<{ id: string; text: string }>; edges: unknown[] }> {
  const r = await cli(['export', '--store', store, ...H]);
  expect(r.code, r.err.join('\n')).toBe(0);
  const { nodes, edges } = JSON.parse(r.out[0]!) as { nodes: Array<{ id: string; text: string }>; edges: unknown[] };
  return { nodes, edges };
}

async function sampleStore(name: string): Promise<string> {
  const store = join(root, name);
  expect((await cli(['ingest', SAMPLE, '--store', store, ...H])).code).toBe(0);
  return store;
}

describe('a store left by import, repair or maintain opens from its checkpoint', () => {
  it('import: the next open restores the namespace from the checkpoint, with the file’s memories', async () => {
    const source = await sampleStore('source');
    const file = join(root, 'sample.json');
    const dump = await cli(['export', '--store', source, ...H]);
    writeFileSync(file, dump.out[0]!);
    const store = join(root, 'imported');
    const imp = await cli(['import', file, '--store', store, ...H]);
    expect(imp.code, imp.err.join('\n')).toBe(0);
    const s = await stats(store);
    expect(s.opened.from).toBe('checkpoint');
    expect(s.opened.replayed).toBe(0);
    expect(await exported(store)).toEqual(await exported(source));
  });

  it('repair: the repaired store opens from its checkpoint, with every kept node', async () => {
    const store = await sampleStore('damaged');
    const before = await exported(store);
    const victim = before.nodes[3]!;
    const path = join(store, SQLITE_FILE_NAME);
    const bytes = readFileSync(path);
    const needle = Buffer.from(victim.text, 'utf8');
    const at = bytes.indexOf(needle);
    expect(at).toBeGreaterThan(0);
    bytes[at + 2] = bytes[at + 2]! ^ 0x20; // flips the case of a letter: the record decodes, its check fails
    writeFileSync(path, bytes);
    expect((await cli(['repair', '--store', store])).code).toBe(0);
    const s = await stats(store);
    expect(s.opened.from).toBe('checkpoint');
    expect(s.nodes).toBe(before.nodes.length - 1);
    expect((await exported(store)).nodes.map((n) => n.id)).toEqual(before.nodes.map((n) => n.id).filter((id) => id !== victim.id));
  });

  it('maintain: after the rewrite that settles pending erasures, the store opens from its checkpoint', async () => {
    const store = await sampleStore('pending');
    const before = await exported(store);
    writeFileSync(join(store, PENDING_ERASURES_FILE), 'garbage'); // counts as pending: maintain rewrites the file
    const m = await cli(['maintain', '--store', store, ...H]);
    expect(m.code, m.err.join('\n')).toBe(0);
    expect((JSON.parse(m.out[0]!) as { erasuresPending: number }).erasuresPending).toBe(0);
    const s = await stats(store);
    expect(s.opened.from).toBe('checkpoint');
    expect(await exported(store)).toEqual(before);
  });
});
