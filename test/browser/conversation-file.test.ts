/** The import pane's file reader (demo/src/conversation-file.ts), run in Node. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { readConversationFile } from '../../demo/src/conversation-file.js';
import { isJevMemError } from '../../src/errors.js';
import { sampleLocomo } from './fixtures.js';

const JSONL = readFileSync(fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url)), 'utf8');

test('a LoCoMo array gives one conversation per sample with its turns, speakers, dates and dia_ids', () => {
  const f = readConversationFile('x.json', sampleLocomo(1));
  expect(f.format).toBe('locomo');
  expect(f.conversations.map((c) => c.label)).toEqual(['sample-maya-theo: Maya & Theo, 30 turns']);
  const first = f.conversations[0]?.observations[0];
  expect(first).toMatchObject({
    text: 'Maya: Morning Theo! I finally signed up for the pottery class at the Riverside community center.',
    speaker: 'Maya',
    turnId: 'D1:1',
    sessionId: 'session_1',
    observedAt: '2024-03-02T10:15:00.000Z',
  });
  expect(f.conversations[0]?.observations[29]?.observedAt).toBe('2024-04-20T09:05:00.000Z');
});

test('a single LoCoMo sample object is read like a one-sample array', () => {
  const one = JSON.stringify((JSON.parse(sampleLocomo(1)) as unknown[])[0]);
  const f = readConversationFile('one.json', one);
  expect(f.format).toBe('locomo');
  expect(f.conversations[0]?.observations).toHaveLength(30);
});

test('a JSONL file gives one conversation named after the file', () => {
  const f = readConversationFile('sample-conversation.jsonl', JSONL);
  expect(f.format).toBe('jsonl');
  expect(f.conversations).toHaveLength(1);
  expect(f.conversations[0]?.label).toBe('sample-conversation.jsonl: 30 turns');
  expect(f.conversations[0]?.observations[7]?.turnId).toBe('S1:8');
});

test('a file with no turn, or with a line that is not JSON, is refused naming the problem', () => {
  const err = (name: string, text: string): unknown => {
    try {
      readConversationFile(name, text);
    } catch (e) {
      return e;
    }
    return undefined;
  };
  const empty = err('empty.jsonl', '\n\n');
  expect(isJevMemError(empty, 'INVALID_INPUT')).toBe(true);
  const bad = err('bad.jsonl', '{"text": "ok"}\nnot json\n');
  expect(isJevMemError(bad, 'INVALID_INPUT')).toBe(true);
  expect((bad as { details: { field?: string } }).details.field).toBe('line 2');
});
