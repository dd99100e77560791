/**
 * Hostile review h-break13: the second of two ingests into one store failed after 15 s with
 * "failed to take the database lock to read" although it was waiting to write, and with no word
 * of what to do. The words of a lock wait that ran out (sql-errors.ts `lockWaitError`).
 */
import { describe, expect, it } from 'vitest';
import { lockWaitError } from '../../src/plane/store/sql-errors.js';

const busy = new Error('database is locked: another process (process 23317 on vm (connected since 2026-12-04T20:14:30.929Z)) held the lock of /s/jev-mem.sqlite for 15006 ms');

describe('a wait for the database lock that ran out', () => {
  it('says the read lock is also a write\'s, that the other process was writing, and what to do', () => {
    const e = lockWaitError('the store at /s', 'read', busy);
    expect(e.code).toBe('STORAGE_FAILED');
    expect(e.message).toBe(
      'the store at /s failed to take the database lock to read (every command reads under it, a write also before it commits) (database is locked: another process (process 23317 on vm (connected since 2026-12-04T20:14:30.929Z)) held the lock of /s/jev-mem.sqlite for 15006 ms); nothing was written. ' +
        'The other process was writing and held the lock through the whole wait; run this again when its write has ended, and run two writes into one store one after the other (or into separate stores)',
    );
    expect(e.details.field).toBe('store');
  });

  it("names a write's commit, and leaves other failures to the usual mapping", () => {
    expect(lockWaitError('the store at /s', 'write', busy).message).toMatch(/^the store at \/s failed to take the database lock to commit a write \(database is locked: .*\); nothing was written\. The other process was writing/);
    const full = lockWaitError('the store at /s', 'read', new Error('database or disk is full'));
    expect(full.code).toBe('QUOTA_EXCEEDED');
    expect(full.message).not.toMatch(/other process/);
  });
});
