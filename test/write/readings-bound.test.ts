/**
 * The state-update side readings a write call keeps (issue 25): at most WRITE_READINGS_MAX,
 * the oldest added going first, so the heap of a long import stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { RecentReadings, WRITE_READINGS_MAX } from '../../src/memory/write.js';
import { readStateSide } from '../../src/system-one/state-update.js';

describe('the side readings of one write call', () => {
  it('keeps at most max readings, dropping the oldest added, and answers the kept ones', () => {
    const memo = new RecentReadings(3);
    const texts = ['I live in Porto.', 'We moved to Berlin.', 'I work at Acme.', 'I quit Acme.'];
    for (const text of texts) readStateSide({ text, speaker: 'Ana', timeMs: 0 }, memo);
    expect(memo.size).toBe(3);
    expect(memo.has('Ana\u0000I live in Porto.')).toBe(false); // the first added went
    expect([...memo.keys()]).toEqual(['Ana\u0000We moved to Berlin.', 'Ana\u0000I work at Acme.', 'Ana\u0000I quit Acme.']);
    const kept = memo.get('Ana\u0000I quit Acme.');
    expect(readStateSide({ text: 'I quit Acme.', speaker: 'Ana', timeMs: 0 }, memo)).toBe(kept); // read from the memo, not again
  });

  it('is bounded by WRITE_READINGS_MAX (4,096) by default', () => {
    const memo = new RecentReadings();
    expect(memo.max).toBe(WRITE_READINGS_MAX);
    expect(WRITE_READINGS_MAX).toBe(4096);
  });
});
