/**
 * Issue 22: the `expiresNext` bound every commit keeps (memory/expiry-meta.ts), by hand: the
 * earliest expiry of the live nodes a batch puts lowers it, never raises it; a new namespace
 * starts it; one committed to before the key gets none (its open records it).
 */
import { describe, expect, it } from 'vitest';
import { EXPIRY_META_KEY, NO_EXPIRY, expiryMeta } from '../../src/memory/expiry-meta.js';
import type { MemoryNode } from '../../src/types.js';
import { makeNode } from '../plane/fixtures.js';

const MARCH = Date.parse('2026-03-01T00:00:00.000Z');
const JUNE = Date.parse('2026-06-01T00:00:00.000Z');

function expiring(id: string, at: string | undefined, status: MemoryNode['status'] = 'active'): MemoryNode {
  const n = makeNode('ns', id, 1);
  return { ...n, status, provenance: { ...n.provenance, metadata: at === undefined ? {} : { expiresAt: at } } };
}

describe('expiryMeta', () => {
  const march = expiring('m', '2026-03-01T00:00:00.000Z');
  const june = expiring('j', '2026-06-01T00:00:00.000Z');
  const none = expiring('n', undefined);

  it('starts the key on the first commit of a namespace: the earliest expiry, or none', () => {
    expect(expiryMeta({}, { putNodes: [june, march, none] })).toEqual({ [EXPIRY_META_KEY]: MARCH });
    expect(expiryMeta({}, { putNodes: [none] })).toEqual({ [EXPIRY_META_KEY]: NO_EXPIRY });
    expect(expiryMeta({}, { meta: { k: 1 } })).toEqual({ [EXPIRY_META_KEY]: NO_EXPIRY });
  });

  it('lowers a kept bound, never raises it, and leaves it for a batch without expiries', () => {
    expect(expiryMeta({ change: 3, [EXPIRY_META_KEY]: JUNE }, { putNodes: [march] })).toEqual({ [EXPIRY_META_KEY]: MARCH });
    expect(expiryMeta({ change: 3, [EXPIRY_META_KEY]: MARCH }, { putNodes: [june] })).toEqual({});
    expect(expiryMeta({ change: 3, [EXPIRY_META_KEY]: MARCH }, { putNodes: [none], deleteNodeIds: ['m'] })).toEqual({});
    expect(expiryMeta({ change: 3, [EXPIRY_META_KEY]: NO_EXPIRY }, { putNodes: [june] })).toEqual({ [EXPIRY_META_KEY]: JUNE });
    expect(expiryMeta({ change: 3, [EXPIRY_META_KEY]: NO_EXPIRY }, { putNodes: [none] })).toEqual({});
  });

  it('ignores deleted nodes, leaves a namespace written before the key alone, and never overrides a batch that sets it', () => {
    expect(expiryMeta({ change: 3, [EXPIRY_META_KEY]: NO_EXPIRY }, { putNodes: [expiring('d', '2026-03-01T00:00:00.000Z', 'deleted')] })).toEqual({});
    expect(expiryMeta({ change: 3 }, { putNodes: [march] })).toEqual({});
    expect(expiryMeta({}, { putNodes: [march], meta: { [EXPIRY_META_KEY]: JUNE } })).toEqual({});
  });
});
