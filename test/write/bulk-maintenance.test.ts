/**
 * Which observations of a bulk write call join the maintenance queue (issue 25, h-fast;
 * src/memory/bulk-maintenance.ts): the call's last `bulkMaintenanceMax`, all of a single write.
 * The graph this gives against per-write ingestion is checked in bulk.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { maintenanceQueueFrom } from '../../src/memory/bulk-maintenance.js';
import { resolveParameters } from '../../src/config.js';

describe('maintenanceQueueFrom', () => {
  it('queues the last max observations of a call, chunk by chunk', () => {
    // 120 observations in chunks of 64 + 56, max 40: the call's first queued is index 80.
    expect(maintenanceQueueFrom(120, 0, 64, 40)).toBe(64); // none of the first chunk
    expect(maintenanceQueueFrom(120, 64, 56, 40)).toBe(16); // 64 + 16 = 80: its last 40
    // 10,000 in chunks of 64, max 1,024: index 8,976 is the first queued.
    expect(maintenanceQueueFrom(10_000, 8_960, 64, 1024)).toBe(16);
    expect(maintenanceQueueFrom(10_000, 8_896, 64, 1024)).toBe(64);
    expect(maintenanceQueueFrom(10_000, 9_024, 64, 1024)).toBe(0);
  });

  it('queues every observation of a call of at most max, of a single write and of an explicit update', () => {
    expect(maintenanceQueueFrom(419, 0, 64, 1024)).toBe(0);
    expect(maintenanceQueueFrom(1024, 0, 64, 1024)).toBe(0);
    expect(maintenanceQueueFrom(1, 0, 1, 0)).toBe(0);
    expect(maintenanceQueueFrom(5, 0, 5, 0, true)).toBe(0);
    // max 0: no observation of a bulk call.
    expect(maintenanceQueueFrom(5, 0, 5, 0)).toBe(5);
  });

  it('is the parameter bulkMaintenanceMax, 1,024 by default, a non-negative number', () => {
    expect(resolveParameters(undefined).bulkMaintenanceMax).toBe(1024);
    expect(resolveParameters({ bulkMaintenanceMax: 0 }).bulkMaintenanceMax).toBe(0);
    expect(() => resolveParameters({ bulkMaintenanceMax: -1 })).toThrow(/parameters\.bulkMaintenanceMax/);
  });
});
