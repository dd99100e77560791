/**
 * `~` in a store path names the home directory at every Node entry point (util/home-path.ts):
 * `createNodeMemory({ store })`, `createSqliteFileStorage({ dir })` and the CLI's `--store` for
 * every command (before, only `jev-mem mcp` expanded it; the others made a folder named `~` in
 * the working directory). HOME points at a temporary folder for the whole file.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/commands.js';
import { createNodeMemory, createSqliteFileStorage } from '../../src/node.js';
import { expandHomePath } from '../../src/util/home-path.js';
import { cli, ROOT, SAMPLE } from '../cli/helpers.js';

const home = mkdtempSync(join(tmpdir(), 'jev-mem-home-'));
const savedHome = process.env.HOME;

beforeAll(() => {
  process.env.HOME = home;
});
afterAll(() => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

describe('expandHomePath', () => {
  const h = (): string => '/home/ana';
  it.each([
    ['~', '/home/ana'],
    ['~/', '/home/ana/'],
    ['~/x/y', '/home/ana/x/y'],
    ['~\\x', '/home/ana\\x'],
    ['~ana/x', '~ana/x'],
    ['~x', '~x'],
    ['./~', './~'],
    ['a/~/b', 'a/~/b'],
    ['/abs/~', '/abs/~'],
    ['', ''],
  ])('%j → %j', (path, expected) => {
    expect(expandHomePath(path, h)).toBe(expected);
  });

  it('reads the home directory from the environment by default (HOME)', () => {
    expect(expandHomePath('~/s')).toBe(join(home, 's'));
  });
});

describe('the Node API', () => {
  it("createNodeMemory({ store: '~/api' }) makes and reopens the store under HOME", async () => {
    const memory = await createNodeMemory({ store: '~/api', systemOne: 'heuristic' });
    await memory.add({ text: 'User: my sister Ana lives in Porto', speaker: 'user', observedAt: new Date('2024-03-01T10:00:00Z') });
    await memory.close();
    expect(readdirSync(join(home, 'api'))).toContain('jev-mem.sqlite');
    expect(existsSync(join(ROOT, '~'))).toBe(false);
    const again = await createNodeMemory({ store: '~/api', create: false, systemOne: 'heuristic' });
    expect((await again.list()).memories.map((m) => m.text)).toEqual(['User: my sister Ana lives in Porto']);
    await again.close();
  });

  it("createNodeMemory({ store: '~/none', create: false }) names the expanded folder", async () => {
    await expect(createNodeMemory({ store: '~/none', create: false, systemOne: 'heuristic' })).rejects.toMatchObject({ code: 'STORE_MISSING', details: { dir: join(home, 'none') } });
  });

  it("createSqliteFileStorage({ dir: '~/raw' }) opens the folder under HOME", async () => {
    const storage = await createSqliteFileStorage({ dir: '~/raw' });
    await storage.close();
    expect(readdirSync(join(home, 'raw'))).toContain('jev-mem.sqlite');
  });
});

describe('the CLI', () => {
  it('parseCommandLine expands --store for every command, in both spellings', () => {
    expect(parseCommandLine(['stats', '--store', '~/s']).values.store).toBe(join(home, 's'));
    expect(parseCommandLine(['check', '--store=~']).values.store).toBe(home);
    expect(parseCommandLine(['mcp', '--store', '~/m']).values.store).toBe(join(home, 'm'));
    expect(parseCommandLine(['stats', '--store', 'rel/~']).values.store).toBe('rel/~');
  });

  it('ingest --store ~/cli writes under HOME and stats reads it back', async () => {
    const ingest = await cli(['ingest', SAMPLE, '--store', '~/cli', '--namespace', 'sample', '--system-one', 'heuristic']);
    expect(ingest.code, ingest.err.join('\n')).toBe(0);
    expect(readdirSync(join(home, 'cli'))).toContain('jev-mem.sqlite');
    expect(existsSync(join(ROOT, '~'))).toBe(false);
    const stats = await cli(['stats', '--store', '~/cli', '--namespace', 'sample', '--system-one', 'heuristic']);
    expect(stats.code, stats.err.join('\n')).toBe(0);
  });
});
