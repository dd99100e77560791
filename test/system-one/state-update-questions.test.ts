import { describe, expect, it } from 'vitest';
import { assertedSentences, decideStateUpdate } from '../../src/system-one/state-update.js';

const T0 = Date.parse('2024-01-01T00:00:00Z');
const T1 = Date.parse('2024-02-01T00:00:00Z');

describe('state update: a question asserts no state', () => {
  it('keeps only the asserted sentences of the newer text', () => {
    expect(assertedSentences('Congrats on the new team. Which team did you sign with?')).toBe('Congrats on the new team.');
    expect(assertedSentences('Which team did you sign with?')).toBe('');
    expect(assertedSentences('I quit Acme, the commute was too long.')).toBe('I quit Acme, the commute was too long.');
    expect(assertedSentences('Where do you live now? We moved to Vienna!')).toBe('We moved to Vienna!');
    expect(assertedSentences('你搬家了吗？我搬到北京了。')).toBe('你搬家了吗？我搬到北京了。'); // no white space between sentences: kept whole
  });

  it('a newer text that only asks answers 0; an update followed by a question is still caught', () => {
    const older = { text: 'I signed with a new basketball team last week.', speaker: 'A', timeMs: T0 };
    expect(decideStateUpdate({ text: 'Which team did you sign with?', speaker: 'B', timeMs: T1 }, older, undefined, 'mlp').probability).toBe(0);
    const work = { text: 'I work as a designer at Acme.', speaker: 'A', timeMs: T0 };
    expect(decideStateUpdate({ text: 'I quit Acme, the commute was too long. What about you?', speaker: 'A', timeMs: T1 }, work, undefined, 'mlp').probability).toBeGreaterThan(0.85);
  });
});
