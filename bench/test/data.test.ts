import { describe, expect, it } from 'vitest';
import { firstPerCategory, parseSplit, splitOf } from '../lib/data.js';
import { parseSystems, SYSTEM_NAMES } from '../locomo/results.js';
import { parseSizes, scaleObservations, scaleQuestions, scaleSpeaker, SCALE_SHIFT_DAYS } from '../scale/scale.js';
import { question, tinyConversation } from './fixtures.js';

describe('splits', () => {
  it('puts conversations 0-4 in dev and 5-9 in test', () => {
    expect(['conv-26', 'conv-43', 'conv-44', 'conv-50', 'conv-99'].map(splitOf)).toEqual(['dev', 'dev', 'test', 'test', undefined]);
  });

  it('defaults --split to all and refuses unknown values', () => {
    expect(parseSplit(undefined)).toBe('all');
    expect(() => parseSplit('train')).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', details: expect.objectContaining({ field: 'split' }) }));
  });
});

describe('firstPerCategory', () => {
  it('keeps the first n questions of each category in file order', () => {
    const qs = [question('a', 'q', 1, ['D1:1']), question('b', 'q', 2, ['D1:1']), question('c', 'q', 1, ['D1:1']), question('d', 'q', 1, ['D1:1'])];
    expect(firstPerCategory(qs, 2).map((q) => q.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('parseSystems', () => {
  it('takes every system for all or nothing', () => {
    expect(parseSystems(undefined)).toEqual([...SYSTEM_NAMES]);
    expect(parseSystems('all')).toEqual([...SYSTEM_NAMES]);
  });

  it('keeps report order whatever the order given', () => {
    expect(parseSystems('hybrid, bm25')).toEqual(['bm25', 'hybrid']);
  });

  it('names an unknown system', () => {
    expect(() => parseSystems('bm25,colbert')).toThrow(/colbert/);
  });
});

describe('parseSizes', () => {
  it('defaults to 1k, 10k and 100k', () => {
    expect(parseSizes(undefined)).toEqual([1000, 10000, 100000]);
  });

  it('sorts, de-duplicates and reads a k suffix', () => {
    expect(parseSizes('10k,1000,1000')).toEqual([1000, 10000]);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => parseSizes('1000,-5')).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

describe('scale recipe', () => {
  it('keeps copy 0 and renames speakers with a surname from copy 1 on', () => {
    expect(scaleSpeaker('Alice', 0)).toBe('Alice');
    expect(scaleSpeaker('Alice', 1)).toBe('Alice Adams');
    expect(scaleSpeaker('Alice', 21)).toBe('Alice Adams 2'); // surnames wrap after 20 copies
  });

  it('repeats the turns with shifted dates, renamed speakers and distinct ids', () => {
    const conv = tinyConversation();
    const obs = scaleObservations([conv], 6);
    expect(obs.length).toBe(6);
    expect(obs[0]).toEqual(conv.observations[0]);
    const copy = obs[5];
    // turn 6 = copy 1 of turn 2 ("Bob: That is wonderful news about Alice")
    expect(copy?.text).toBe('Bob Adams: That is wonderful news about Alice Adams');
    expect(copy?.speaker).toBe('Bob Adams');
    expect(copy?.turnId).toBe('c1/D1:2');
    expect(copy?.sessionId).toBe('c1/conv-x/session_1');
    expect(Date.parse(copy?.observedAt as string) - Date.parse(conv.observations[1]?.observedAt as string)).toBe(SCALE_SHIFT_DAYS * 86_400_000);
  });

  it('takes questions of categories 1-4 with evidence only', () => {
    const conv = tinyConversation('conv-x', [question('a', 'A?', 5, ['D1:1']), question('b', 'B?', 4, ['D1:1']), question('c', 'C?', 2, [])]);
    expect(scaleQuestions([conv], 50)).toEqual(['B?']);
  });
});
