/**
 * The JSONL ingest format and its CLI help take their field list from `INPUT_FIELDS` of
 * write/validate.ts (the write path's own list), so the two cannot drift: every input field is
 * accepted on a JSONL line, and a field added to `INPUT_FIELDS` shows in the help at once.
 */
import { describe, expect, it, vi } from 'vitest';

// A field the write path would gain: the help must list it without touching formats/jsonl.ts.
vi.mock('../../src/write/validate.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/write/validate.js')>();
  return { ...actual, INPUT_FIELDS: [...actual.INPUT_FIELDS, 'mood'] };
});

const { JSONL_FIELDS_HELP, parseJsonl } = await import('../../src/formats/jsonl.js');
const { CHAT_MESSAGE_FIELDS, INPUT_FIELDS } = await vi.importActual<typeof import('../../src/write/validate.js')>('../../src/write/validate.js');

describe('the JSONL fields', () => {
  it('every INPUT_FIELDS key is accepted on a JSONL line (an observation, or a chat message for content and name)', () => {
    const value: Record<string, unknown> = { observedAt: '2024-01-02T10:00:00Z', timeZone: 'Europe/Lisbon', metadata: { topic: 'x' }, expiresAt: '2030-01-01' };
    const chatOnly = CHAT_MESSAGE_FIELDS.filter((f) => f !== 'role') as readonly string[];
    const observation: Record<string, unknown> = {};
    const message: Record<string, unknown> = { role: 'user', content: 'Hi.', name: 'Maya' };
    for (const f of INPUT_FIELDS) if (!chatOnly.includes(f)) observation[f] = value[f] ?? (f === 'text' ? 'I live in Porto.' : `${f}-1`);
    expect(Object.keys(observation).length + chatOnly.length).toBe(INPUT_FIELDS.length);
    const [o, m] = parseJsonl(`${JSON.stringify(observation)}\n${JSON.stringify(message)}`);
    expect(o).toEqual({
      text: 'I live in Porto.',
      observedAt: '2024-01-02T10:00:00Z',
      timeZone: 'Europe/Lisbon',
      speaker: 'speaker-1',
      source: 'source-1',
      turnId: 'turnId-1',
      sessionId: 'sessionId-1',
      metadata: { topic: 'x', userId: 'userId-1', agentId: 'agentId-1', expiresAt: '2030-01-01T00:00:00.000Z', role: 'role-1' },
    });
    expect(m).toEqual({ text: 'Hi.', speaker: 'Maya', metadata: { role: 'user' } });
  });

  it('the help lists INPUT_FIELDS, a field added there included', () => {
    expect(JSONL_FIELDS_HELP.split('\n').slice(1, 3)).toEqual([
      '  {"text", "observedAt"?, "timeZone"?, "speaker"?, "source"?, "turnId"?, "sessionId"?, "metadata"?, "userId"?, "agentId"?, "expiresAt"?, "role"?, "mood"?}',
      '  or a chat message {"role", "content", "name"?};',
    ]);
  });
});
