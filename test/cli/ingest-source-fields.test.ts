/**
 * An ingest error names the field as the input file spells it (h-break14 finding 2): a
 * LongMemEval turn by its path in the file (`file[0].haystack_sessions[1][1].content`), a JSONL
 * chat message by `content`, a MemoryBank exchange by `response`; not the reader's observation
 * (`observations[3].text`) or a field the file does not have (`line 2.text`). And `--split-long`
 * keeps such a text in parts (write/split-long.ts, the AI SDK middleware's splitter).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-fields-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 112,500 characters: 4,500 sentences of 25 characters ("Sentence 1234 goes here. "). */
const LONG = Array.from({ length: 4500 }, (_, i) => `Sentence ${String(i).padStart(4, '0')} goes here. `).join('');
const HINT = 'split the text into several observations';

function lmeFile(): string {
  const path = join(dir, 'lme.json');
  const record = {
    question_id: 'q1',
    question_type: 'single-session-user',
    question: 'What is my dog called?',
    answer: 'Rex',
    haystack_session_ids: ['s1', 's2'],
    haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/05/21 (Sun) 09:00'],
    haystack_sessions: [
      [{ role: 'user', content: 'My dog is called Rex.' }, { role: 'assistant', content: 'Nice name!' }],
      [{ role: 'user', content: 'Plan my week please' }, { role: 'assistant', content: LONG }, { role: 'user', content: 'Thanks.' }],
    ],
  };
  writeFileSync(path, JSON.stringify([record]));
  return path;
}

describe('ingest errors name the field of the file', () => {
  it('a LongMemEval turn over the text limit is named by its path in the file, and nothing is stored', async () => {
    const store = join(dir, 's1');
    const r = await cli(['ingest', lmeFile(), '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      `jev-mem: TOO_LARGE: file[0].haystack_sessions[1][1].content: 112500 characters is over the limit of 100000 (parameters.maxTextChars); ${HINT} (observation 4); or ingest again with --split-long to keep it in parts`,
    ]);
    expect(existsSync(store)).toBe(false);
  });

  it('a JSONL chat message is named by its content field', async () => {
    const path = join(dir, 'chat.jsonl');
    writeFileSync(path, `${JSON.stringify({ role: 'user', content: 'hello' })}\n${JSON.stringify({ role: 'assistant', content: LONG })}\n`);
    const r = await cli(['ingest', path, '--store', join(dir, 's2'), '--system-one', 'heuristic']);
    expect(r.err[0]).toMatch(/^jev-mem: TOO_LARGE: line 2\.content: 112500 characters is over the limit/);
  });

  it('a MemoryBank reply is named by its day and response', async () => {
    const path = join(dir, 'mb.json');
    writeFileSync(path, JSON.stringify({ Jason: { name: 'Jason', history: { '2023-05-01': [{ query: 'hi', response: 'hello' }, { query: 'plan?', response: LONG }] } } }));
    const r = await cli(['ingest', path, '--store', join(dir, 's3'), '--system-one', 'heuristic']);
    // The reply trimmed (112,499) after "AI: ": 112,503 characters.
    expect(r.err[0]).toMatch(/^jev-mem: TOO_LARGE: file\.Jason\.history\.2023-05-01\[1\]\.response: 112503 characters is over the limit/);
  });
});

describe('ingest --split-long', () => {
  it('keeps the over-long turn as parts in order, same speaker, role, time and turn, marked part i of n', async () => {
    const store = join(dir, 's4');
    const r = await cli(['ingest', lmeFile(), '--store', store, '--system-one', 'heuristic', '--split-long']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ namespace: 'q1', ingested: 6, nodes: 6 });
    const listed = await cli(['list', '--store', store, '--namespace', 'q1']);
    const nodes = listed.out.map((l) => JSON.parse(l) as { text: string; observedAt?: string; provenance: { speaker: string; turnId: string; metadata: Record<string, unknown> } });
    expect(nodes.map((n) => n.provenance.turnId)).toEqual(['s1#1', 's1#2', 's2#1', 's2#2', 's2#2', 's2#3']);
    const parts = nodes.filter((n) => n.provenance.turnId === 's2#2');
    expect(parts.map((p) => [p.provenance.speaker, p.provenance.metadata.role, p.provenance.metadata.part, p.provenance.metadata.parts])).toEqual([
      ['assistant', 'assistant', 1, 2],
      ['assistant', 'assistant', 2, 2],
    ]);
    // The first part ends after the last sentence end (and its space) within 100,000 characters:
    // 4,000 sentences of 25; the parts concatenate to exactly the turn (splitTurnText trims nothing).
    expect(parts[0]?.text).toBe(LONG.slice(0, 4000 * 25));
    expect(parts[1]?.text).toBe(LONG.slice(4000 * 25));
    expect([...new Set(nodes.slice(2).map((n) => n.observedAt))]).toEqual(['2023-05-21T09:00:00.000Z']);
  });
});

describe('ingest --help', () => {
  it('lists --split-long, and every --vector-index value the option accepts (ann included)', async () => {
    const r = await cli(['ingest', '--help']);
    const help = r.out.join('\n');
    expect(help).toContain('--split-long');
    expect(help).toContain('--vector-index <flat|ann|hnsw|auto>');
  });
});
