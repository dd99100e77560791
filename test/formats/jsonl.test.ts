/**
 * The JSONL ingest format takes what `Memory.add` takes (fresh-user test of issue 22/23): the
 * scope and expiry fields (`userId`, `agentId`, `expiresAt`, kept in metadata) and chat messages,
 * each field checked and named by its line.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonl } from '../../src/formats/jsonl.js';

describe('parseJsonl', () => {
  it('keeps userId, agentId and expiresAt in metadata, as add does', () => {
    const text = [
      '{"text":"I live in Porto.","userId":"u1","agentId":"coach","expiresAt":"2026-01-02"}',
      '{"text":"Plain.","metadata":{"topic":"x"},"userId":"u2"}',
    ].join('\n');
    expect(parseJsonl(text)).toEqual([
      { text: 'I live in Porto.', metadata: { userId: 'u1', agentId: 'coach', expiresAt: '2026-01-02T00:00:00.000Z' } },
      { text: 'Plain.', metadata: { topic: 'x', userId: 'u2' } },
    ]);
  });

  it('reads a chat message line as an observation', () => {
    expect(parseJsonl('{"role":"user","content":"I moved to Lisbon.","observedAt":"2024-01-02T10:00:00Z"}\n{"role":"assistant","name":"Jev","content":"Noted."}')).toEqual([
      { text: 'I moved to Lisbon.', speaker: 'user', observedAt: '2024-01-02T10:00:00Z', metadata: { role: 'user' } },
      { text: 'Noted.', speaker: 'Jev', metadata: { role: 'assistant' } },
    ]);
  });

  it('names the line and field of a bad scope or expiry value', () => {
    const fieldOf = (line: string): unknown => {
      try {
        parseJsonl(`{"text":"fine"}\n${line}`);
      } catch (e) {
        return (e as { field?: string }).field;
      }
      return undefined;
    };
    expect(fieldOf('{"text":"x","userId":""}')).toBe('line 2.userId');
    expect(fieldOf('{"text":"x","expiresAt":"next week"}')).toBe('line 2.expiresAt');
    expect(fieldOf('{"text":"x","userId":"a","metadata":{"userId":"b"}}')).toBe('line 2.userId');
  });
});
