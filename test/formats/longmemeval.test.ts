/**
 * The LongMemEval-layout reader (src/formats/longmemeval.ts) on hand-made records in that layout
 * (the public files are not in this repository), and through the CLI's ingest. Expected values
 * by hand: 2023/05/20 (Sat) 02:21 = 2023-05-20T02:21:00.000Z; session ids and turn numbers as
 * written below.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isJevMemError } from '../../src/errors.js';
import { isLongMemEval, parseLongMemEval } from '../../src/formats/longmemeval.js';

const RECORDS = [
  {
    question_id: 'q-7',
    question_type: 'knowledge-update',
    question: 'How many kilometres did I run last Sunday?',
    answer: 12,
    question_date: '2023/06/05 (Mon) 10:00',
    haystack_session_ids: ['s-a', 's-b'],
    haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/06/04 (Sun) 19:05'],
    haystack_sessions: [
      [
        { role: 'user', content: 'I ran 8 km this morning, my longest run so far.', has_answer: true },
        { role: 'assistant', content: 'Great progress! Remember to stretch.' },
        { role: 'user', content: '   ' },
      ],
      [
        { role: 'user', content: 'Can you suggest a pasta recipe?' },
        { role: 'assistant', content: 'Try a simple aglio e olio.' },
        { role: 'user', content: 'Also, I ran 12 km today!', has_answer: true },
      ],
    ],
    answer_session_ids: ['s-a', 's-b'],
  },
  {
    question_id: 'q-8_abs',
    question_type: 'single-session-user',
    question: 'What is the name of my cat?',
    answer: 'You did not mention a cat.',
    haystack_dates: ['2023/05/21 (Sun) 08:00'],
    haystack_sessions: [[{ role: 'user', content: 'My dog Rex loves the beach.' }]],
    answer_session_ids: [],
  },
];

const fieldOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return isJevMemError(e) ? `${e.code} ${e.field}` : String(e);
  }
  return undefined;
};

describe('parseLongMemEval', () => {
  it('makes one observation per non-blank turn, speaker and role the turn role, dated at its session, with session#n turn ids', () => {
    expect(isLongMemEval(RECORDS)).toBe(true);
    const [q7, q8] = parseLongMemEval(JSON.stringify(RECORDS));
    expect(q7?.observations).toEqual([
      { text: 'I ran 8 km this morning, my longest run so far.', speaker: 'user', role: 'user', sessionId: 's-a', turnId: 's-a#1', source: 'longmemeval:q-7', observedAt: '2023-05-20T02:21:00.000Z' },
      { text: 'Great progress! Remember to stretch.', speaker: 'assistant', role: 'assistant', sessionId: 's-a', turnId: 's-a#2', source: 'longmemeval:q-7', observedAt: '2023-05-20T02:21:00.000Z' },
      { text: 'Can you suggest a pasta recipe?', speaker: 'user', role: 'user', sessionId: 's-b', turnId: 's-b#1', source: 'longmemeval:q-7', observedAt: '2023-06-04T19:05:00.000Z' },
      { text: 'Try a simple aglio e olio.', speaker: 'assistant', role: 'assistant', sessionId: 's-b', turnId: 's-b#2', source: 'longmemeval:q-7', observedAt: '2023-06-04T19:05:00.000Z' },
      { text: 'Also, I ran 12 km today!', speaker: 'user', role: 'user', sessionId: 's-b', turnId: 's-b#3', source: 'longmemeval:q-7', observedAt: '2023-06-04T19:05:00.000Z' },
    ]);
    expect([q7?.evidence, q7?.answerSessions, q7?.category, q7?.answer, q7?.questionDate, q7?.abstention]).toEqual([['s-a#1', 's-b#3'], ['s-a', 's-b'], 5, '12', '2023-06-05T10:00:00.000Z', false]);
    // An abstention question has no evidence; sessions without ids are numbered.
    expect([q8?.abstention, q8?.evidence, q8?.observations[0]?.turnId, q8?.category]).toEqual([true, [], 'session_1#1', 1]);
  });

  it('without has_answer flags, every turn of the answer sessions is evidence', () => {
    const [r] = parseLongMemEval([{ ...RECORDS[0], haystack_sessions: RECORDS[0]?.haystack_sessions.map((s) => s.map(({ role, content }) => ({ role, content }))), answer_session_ids: ['s-b'] }]);
    expect(r?.evidence).toEqual(['s-b#1', 's-b#2', 's-b#3']);
  });

  it('refuses malformed records naming the field', () => {
    expect(fieldOf(() => parseLongMemEval('[{'))).toBe('INVALID_INPUT file');
    expect(fieldOf(() => parseLongMemEval({}))).toBe('INVALID_INPUT file');
    expect(fieldOf(() => parseLongMemEval([{ ...RECORDS[0], haystack_dates: ['2023/05/20 (Fri) 02:21', '2023/06/04'] }]))).toBe('INVALID_INPUT file[0].haystack_dates[0]');
    expect(fieldOf(() => parseLongMemEval([{ ...RECORDS[0], haystack_dates: ['2023/05/20'] }]))).toBe('INVALID_INPUT file[0].haystack_dates');
    expect(fieldOf(() => parseLongMemEval([RECORDS[1], { ...RECORDS[0], haystack_sessions: [[{ role: 'user', content: 3 }], []] }]))).toBe('INVALID_INPUT file[1].haystack_sessions[0][0]');
    expect(fieldOf(() => parseLongMemEval([RECORDS[0], RECORDS[0]]))).toBe('INVALID_INPUT file[1].question_id');
    expect(isLongMemEval({ a: 1 })).toBe(false);
  });
});

describe('jev-mem ingest of a LongMemEval-layout file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-lme-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out, err };
  };

  it('detects the layout from a .json file, needs --sample with several questions, and ingests the one named', async () => {
    const file = join(dir, 'lme.json');
    writeFileSync(file, JSON.stringify(RECORDS));
    const store = join(dir, 'store');
    const refused = await run(['ingest', file, '--store', store, '--system-one', 'heuristic']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/INVALID_OPTION: .*holds 2 questions, each with its own history; choose one with --sample <question_id> \(q-7, q-8_abs\)/);
    const r = await run(['ingest', file, '--sample', 'q-7', '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ namespace: 'q-7', ingested: 5, nodes: 5 });
    const recall = await run(['recall', 'How far did I run?', '--store', store, '--namespace', 'q-7', '--k', '5', '--json', '--system-one', 'heuristic']);
    const got = JSON.parse(recall.out[0] as string).memories as Array<{ provenance: { turnId: string; speaker: string }; observedAt: string }>;
    expect(got[0]?.provenance.turnId).toBe('s-a#1');
    expect(got.map((m) => `${m.provenance.turnId} ${m.provenance.speaker} ${m.observedAt}`).sort()).toEqual([
      's-a#1 user 2023-05-20T02:21:00.000Z',
      's-a#2 assistant 2023-05-20T02:21:00.000Z',
      's-b#1 user 2023-06-04T19:05:00.000Z',
      's-b#2 assistant 2023-06-04T19:05:00.000Z',
      's-b#3 user 2023-06-04T19:05:00.000Z',
    ]);
  });
});
