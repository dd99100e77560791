/**
 * Facts that change, end to end (h-v6, issue 24; a hostile review): one person's facts, then the
 * news, written one by one into a memory and maintained. On 62d7345 the age, the smoking and the
 * order stayed active beside their news, and "I started reading Mistborn" superseded "I'm reading
 * Dune"; the manager and the order's identifier are no news to a new job or a phone number.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('write-change-events', (e) => (encoder = e));

const OLDER = ["I'm 25 years old.", 'I smoke about ten cigarettes a day.', 'I go to the gym on Mondays with my membership at FitLife.', 'My order #4417 is on its way.', 'Support ticket 88 is open.', "I'm reading Dune.", 'My manager is Tom.'];
const NEWER = ["I'm 26 now, had my birthday yesterday.", 'I quit smoking last week, day 7 now!', 'Cancelled the gym membership today, too pricey!', 'Order 4417 arrived today.', 'Ticket 88 was closed yesterday.', 'I started reading Mistborn.', 'I got a new job at Acme.', 'My phone number is 555-4417.'];

describe('change events in a memory', () => {
  it('the age, the habit, the membership, the order and the ticket are superseded; the book, the manager stay', async () => {
    const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 0 } });
    const ids: string[] = [];
    let day = 1;
    const at = () => `2024-01-${String(day++).padStart(2, '0')}T10:00:00Z`;
    for (const text of OLDER) ids.push((await memory.add({ text, speaker: 'Ana', observedAt: at() })).id);
    for (const text of NEWER) await memory.add({ text, speaker: 'Ana', observedAt: at() });
    await memory.maintain();
    const status = async (i: number) => (await memory.get(ids[i] as string))?.status;
    for (const i of [0, 1, 2, 3, 4]) expect(await status(i), OLDER[i]).toBe('superseded');
    for (const i of [5, 6]) expect(await status(i), OLDER[i]).toBe('active');
    await memory.close();
  });
});
