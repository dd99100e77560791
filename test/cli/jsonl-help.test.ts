/**
 * The CLI documents the JSONL ingest fields, timeZone included, in `jev-mem --help` and
 * `jev-mem ingest --help`; the list is made from the fields the write path accepts.
 */
import { describe, expect, it } from 'vitest';
import { commandUsage, usage } from '../../src/cli/commands.js';
import { OBSERVATION_FIELDS } from '../../src/write/validate.js';
import { cli } from './helpers.js';

const FIELDS_LINE = '  {"text", "observedAt"?, "timeZone"?, "speaker"?, "source"?, "turnId"?, "sessionId"?, "metadata"?, "userId"?, "agentId"?, "expiresAt"?, "role"?}';
const TIME_ZONE_LINE = '  IANA zone ("Europe/Lisbon") that sets the speaker\'s local calendar at observedAt';

describe('the JSONL fields in the CLI help', () => {
  it('are the fields an observation accepts', () => {
    expect([...OBSERVATION_FIELDS]).toEqual(['text', 'observedAt', 'timeZone', 'speaker', 'source', 'turnId', 'sessionId', 'metadata']);
  });

  it('are listed, timeZone included, in the whole help and in the help of ingest', async () => {
    for (const text of [usage(), commandUsage('ingest')]) {
      const lines = text.split('\n');
      expect(lines).toContain(FIELDS_LINE);
      expect(lines).toContain(TIME_ZONE_LINE);
    }
    const r = await cli(['ingest', '--help']);
    expect(r.code).toBe(0);
    expect(r.out.join('\n').split('\n')).toContain(FIELDS_LINE);
  });

  it('are not in the help of other commands', () => {
    expect(commandUsage('recall')).not.toContain('"timeZone"?');
  });

  it('unknown observation fields are refused with the list in the same order', async () => {
    const { createMemory } = await import('../../src/memory.js');
    const memory = await createMemory({ encoder: { fingerprint: 'test/none@1', dimension: 2, embed: () => Promise.reject(new Error('not reached')) } });
    await expect(memory.add({ text: 'x', zone: 'UTC' } as never)).rejects.toThrow(
      'observation.zone: unknown field; valid fields are text, observedAt, timeZone, speaker, source, turnId, sessionId, metadata',
    );
    await memory.close();
  });
});

describe('a bad JSONL line', () => {
  it('is named by its line number (blank lines counted), with the field', async () => {
    const { parseJsonl } = await import('../../src/formats/jsonl.js');
    const text = ['{"text": "fine", "observedAt": "2024-01-01"}', '', '{"text": "bad date", "observedAt": "2024-02-30"}'].join('\n');
    let err: unknown;
    try {
      parseJsonl(text);
    } catch (e) {
      err = e;
    }
    expect((err as { code: string }).code).toBe('INVALID_INPUT');
    expect((err as { details: { field: string } }).details.field).toBe('line 3.observedAt');
    expect(parseJsonl('{"text": "a"}\n\n{"text": "b"}\n')).toHaveLength(2);
  });
});
