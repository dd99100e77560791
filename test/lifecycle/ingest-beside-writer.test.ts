/**
 * An ingest beside another process that writes the same namespace (issue 22, h-fair): the bulk
 * path plans a chunk of 64 long turns outside the writer lock and commits it; the other process
 * (one add every 100 ms) commits meanwhile, so the commit is refused (`CHANGED_ELSEWHERE`). It
 * used to re-plan the whole chunk outside the lock, be refused again, and after
 * `MAX_CHANGED_ELSEWHERE` refusals fail the whole ingest. Now, after a refusal, the store keeps
 * its writer lock through the re-plan and the chunk is committed one observation at a time, so
 * each re-plan commits and the other writer gets the lock between them. Both processes' turns
 * are all stored.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { lifecycleFixture } from './helpers.js';
import { longTurns } from './long-turns.js';

const CHILD = fileURLToPath(new URL('./steady-adder-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let encoder: Encoder;
const fx = lifecycleFixture('ingest-beside-writer', (e) => (encoder = e));

describe('an addMany of long turns while another process adds a turn every 100 ms', () => {
  it('succeeds, and every turn of both processes is stored', async () => {
    const dir = join(fx.tempDir(), 'store');
    const open = async (create: boolean) => createMemory({ encoder, systemOne: createHeuristicSystemOne(), storage: await createSqliteFileStorage({ dir, create }), namespace: 'n' });
    const seed = await open(true);
    await seed.add({ text: 'Maya: I keep my bike in the garage.', speaker: 'Maya' });
    await seed.close();
    const adder = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, '100'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    adder.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    adder.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const ended = new Promise<number | null>((done) => adder.once('close', (code) => done(code)));
    try {
      // The ingest starts once the other process has committed a few adds.
      while (!/added 3\n/.test(out)) {
        if (adder.exitCode !== null) throw new Error(`the adder ended: ${out} ${err}`);
        await new Promise((done) => setTimeout(done, 50));
      }
      const turns = longTurns(128);
      const memory = await open(false);
      let ingest: string;
      try {
        const added = await memory.addMany(turns);
        ingest = `added ${added.length}`;
      } catch (e) {
        ingest = String(e);
      }
      await memory.close();
      const addsDuring = Number(/added (\d+)\n(?![\s\S]*added)/.exec(out)?.[1]);
      adder.stdin?.end();
      expect(await ended).toBe(0);
      // Before: "STORAGE_FAILED … changed elsewhere" after 8 refused commits of the chunk.
      expect(ingest).toBe('added 128');
      const adds = Number(/done (\d+)/.exec(out)?.[1]);
      expect(adds).toBeGreaterThan(addsDuring - 1);
      expect(addsDuring).toBeGreaterThan(3); // the other process did write during the ingest
      const check = await open(false);
      const stats = await check.stats();
      await check.close();
      // The seed, the 128 long turns and every add of the other process (all distinct texts).
      expect(stats.nodes).toBe(1 + 128 + adds);
    } finally {
      adder.kill('SIGKILL');
    }
  }, 90_000);
});
