/**
 * Clause-by-clause state-update decisions (issue 24, h-update3): a message is cut into clauses
 * (sentences, then semicolon / colon / dash and ", but / so / because …" cues; a bare comma does
 * not cut), every clause pair of the two sides is scored, and the best one answers — so a change
 * told inside a chatty message decides as the short line would.
 */
import { describe, expect, it } from 'vitest';
import { bestClausePair, clausePairs, MAX_CLAUSES, stateClauses } from '../../src/system-one/state-update-clauses.js';
import type { StateSide } from '../../src/system-one/state-update.js';

const side = (text: string, timeMs: number, speaker = 'Maya'): StateSide => ({ text: `${speaker}: ${text}`, speaker, timeMs });

describe('stateClauses', () => {
  it('cuts a chatty message into sentences, short openers joined to the next, the speaker label on each', () => {
    expect(stateClauses('Maya: Big change: I left Brightwave. I accepted an offer as an analytics engineer at Northloop, a fintech startup. I start on the 20th.')).toEqual([
      'Maya: Big change: I left Brightwave.',
      'Maya: I accepted an offer as an analytics engineer at Northloop, a fintech startup.',
      'Maya: I start on the 20th.',
    ]);
    expect(stateClauses('Ben: Long week at my end. I moved to Porto last month! Any tips for settling in?')).toEqual(['Ben: Long week at my end.', 'Ben: I moved to Porto last month!', 'Ben: Any tips for settling in?']);
  });

  it('cuts at clause cues: a semicolon, a dash, a comma before but / so / because', () => {
    expect(stateClauses('Sorry I went quiet - I sold the car, so I cycle now; it is fine.')).toEqual(['Sorry I went quiet', 'I sold the car,', 'so I cycle now;', 'it is fine.']);
    expect(stateClauses('We own a red Toyota, but we sold it last week.')).toEqual(['We own a red Toyota,', 'but we sold it last week.']);
  });

  it('leaves one-clause texts whole ([]): a bare comma, a condition, a comma splice, a short afterthought', () => {
    expect(stateClauses('Leila: I quit Acme, the commute was too long.')).toEqual([]);
    expect(stateClauses('If the price is right, we will sell it.')).toEqual([]);
    expect(stateClauses('I moved to Vienna. Wow.')).toEqual([]);
    expect(stateClauses('')).toEqual([]);
  });

  it(`reads at most ${MAX_CLAUSES} clauses (the first ones), fewer when asked`, () => {
    const text = 'One two three. Four five six. Seven eight nine. Ten eleven twelve. Thirteen fourteen fifteen.';
    expect(stateClauses(text)).toHaveLength(MAX_CLAUSES);
    expect(stateClauses(text)[0]).toBe('One two three.');
    expect(stateClauses(text, 2)).toEqual(['One two three.', 'Four five six.']);
  });
});

describe('clausePairs', () => {
  it('pairs the whole newer and each of its clauses with the whole older and, when long, its clauses; whole pair first', () => {
    const newer = side('Long week at my end. I moved to Porto last month! Any tips for settling in?', 2);
    const short = side('I live in Lisbon.', 1);
    const ps = clausePairs(newer, short);
    expect(ps).toHaveLength(4); // (1 + 3 clauses) × 1
    expect(ps[0]).toEqual([newer, short]);
    expect(ps[2]).toEqual([{ ...newer, text: 'Maya: I moved to Porto last month!' }, short]);
    const long = side('I live in Lisbon, in a flat near the river. I love it there.', 1);
    expect(clausePairs(newer, long)).toHaveLength(12); // (1 + 3) × (1 + 2)
    expect(clausePairs(short, short)).toEqual([[short, short]]);
  });
});

describe('bestClausePair', () => {
  const older = side('I work at Brightwave as a data analyst.', 1);
  const chatty = side('Big change: I left Brightwave. I accepted an offer as an analytics engineer at Northloop, a fintech startup. I start on the 20th.', 2);
  // A stand-in scorer that reads only the one clause saying the change (a head fitted on short lines).
  const says = (n: StateSide, o: StateSide) => ({ probability: /^Maya: Big change: I left Brightwave\.$/.test(n.text) && o === older ? 0.97 : n === chatty ? 0.05 : 0.1, text: n.text });

  it('answers with the best clause pair: a change inside a chatty message decides as its clause alone', () => {
    expect(bestClausePair(chatty, older, says)).toEqual({ probability: 0.97, text: 'Maya: Big change: I left Brightwave.' });
  });

  it('lets a non-update through only if one of its clause pairs passes; the whole pair wins ties', () => {
    const smallTalk = side('Long week at my end. Thanks for the recipe yesterday, it turned out great. Any tips for the weekend?', 2);
    const seen: string[] = [];
    const flat = bestClausePair(smallTalk, older, (n, o) => (seen.push(`${n.text} | ${o.text}`), { probability: 0.2, text: n.text }));
    expect(flat).toEqual({ probability: 0.2, text: smallTalk.text });
    expect(seen).toHaveLength(4); // whole + 3 clauses, against the one-clause older
  });
});
