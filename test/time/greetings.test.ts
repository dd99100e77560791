/**
 * A salutation is not a time (fresh-user test: "Maya: Morning Theo! …" was given the
 * observation day as a time reference at certainty 0.9). Parts of the day that a word before
 * them makes a time ("this morning", "Sunday night", "in the evening") stay time references.
 */
import { describe, expect, it } from 'vitest';
import { extractTimeRefs } from '../../src/util/time.js';

const SAID = Date.parse('2024-03-02T10:00:00Z');
const refs = (text: string): string[] => extractTimeRefs(text, SAID).map((r) => r.text);

describe('greetings', () => {
  it.each([
    ['Maya: Morning Theo! I finally signed up for the course.', []],
    ['Good evening, all.', []],
    ['Morning! How are you?', []],
    ['Caroline: Hey Mel, good morning! I went to the park yesterday.', ['yesterday']],
  ])('%s → %j', (text, expected) => {
    expect(refs(text)).toEqual(expected);
  });

  it.each([
    ['I ran this morning.', 'this morning'],
    ['Sunday night was fun.', 'Sunday night'],
    ['The morning was cold.', 'morning'],
  ])('%s keeps %j', (text, expected) => {
    expect(refs(text)).toEqual([expected]);
  });
});
