import { describe, expect, it } from 'vitest';
import { lexicalAnchorQuery } from '../../src/read/lexical-query.js';

describe('lexicalAnchorQuery', () => {
  // df per index term (Porter stems): "caroline" in 5,000 nodes, "adopt" in 40, "dog" in 1,999.
  const df = new Map([
    ['carolin', 5000],
    ['adopt', 40],
    ['dog', 1999],
  ]);

  it('returns the question unchanged when no term is over maxDf', () => {
    expect(lexicalAnchorQuery('When did Caroline adopt the dog?', df, 5000)).toBe('When did Caroline adopt the dog?');
  });

  it('leaves out the terms in more than maxDf nodes and keeps stop words and the rest', () => {
    expect(lexicalAnchorQuery('When did Caroline adopt the dog?', df, 2000)).toBe('when did adopt the dog');
    expect(lexicalAnchorQuery('When did Caroline adopt the dog?', df, 100)).toBe('when did adopt the');
  });

  it('keeps terms the map does not know (df 0)', () => {
    expect(lexicalAnchorQuery('Caroline likes kayaking', df, 10)).toBe('likes kayaking');
  });
});
