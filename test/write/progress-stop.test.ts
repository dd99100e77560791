/**
 * Issue 22 (break3 item 6): an `onProgress` callback that throws ends `addMany` with a
 * JevMemError `ABORTED` (field `options.onProgress`, `details.committed` exact, the callback's
 * error as `cause`), and a caller's abort during a maintenance pass ends the call `ABORTED`
 * without being logged or counted as a `MAINTENANCE_FAILED`.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { JevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import type { LogEntry } from '../../src/util/logger.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('progress-stop', (e) => (encoder = e));

const obs = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `Log line ${i}: the pump ${i % 7} was checked on shift ${i}.` }));

describe('addMany stopped by its caller', () => {
  it('a throwing onProgress ends the call ABORTED with details.committed and the cause; the rest is not written', async () => {
    const memory = await createMemory({ encoder });
    const boom = new Error('progress bar gone');
    let calls = 0;
    const err = await memory
      .addMany(obs(30), {
        chunkSize: 10,
        onProgress: () => {
          calls++;
          throw boom;
        },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JevMemError);
    const e = err as JevMemError;
    expect([e.code, e.field, e.details.committed, e.cause]).toEqual(['ABORTED', 'options.onProgress', 10, boom]);
    expect(calls).toBe(1);
    expect((await memory.list({ limit: 100 })).memories).toHaveLength(10);
    await memory.close();
  });

  it('an abort during the maintenance pass is ABORTED with details.committed, not a MAINTENANCE_FAILED warning', async () => {
    const logs: LogEntry[] = [];
    const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 5 }, logger: (_level, _message, entry) => logs.push(entry) });
    const stop = new AbortController();
    const err = await memory
      .addMany(obs(20), { chunkSize: 10, signal: stop.signal, onProgress: () => stop.abort(new Error('user left')) })
      .catch((e: unknown) => e);
    const e = err as JevMemError;
    expect([e.code, e.details.committed]).toEqual(['ABORTED', 10]);
    expect(logs.filter((l) => l.code === 'MAINTENANCE_FAILED')).toEqual([]);
    expect((await memory.stats()).maintenanceFailures).toBe(0);
    await memory.close();
  });
});
