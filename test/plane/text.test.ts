import { describe, expect, it } from 'vitest';
import { contentTerms, isStopWord, midSentenceCapitalised, processTerm, stem, tokenize } from '../../src/plane/text/text.js';

describe('text helpers', () => {
  it('tokenize lower-cases and splits on anything that is not a letter, mark or digit', () => {
    expect(tokenize("Zoë's CAFÉ, 2023! (LGBTQ+)")).toEqual(['zoë', 's', 'café', '2023', 'lgbtq']);
  });

  it('tokenize keeps words of non-Latin scripts', () => {
    expect(tokenize('Привет, мир — 東京')).toEqual(['привет', 'мир', '東京']);
  });

  it('tokenize of punctuation only is empty', () => {
    expect(tokenize(' ...!? ')).toEqual([]);
  });

  it('question words and auxiliaries are stop words (SPEC 10)', () => {
    expect(['When', 'did', 'what', 'why', 'does', 'the'].map(isStopWord)).toEqual([true, true, true, true, true, true]);
  });

  it('content words are not stop words', () => {
    expect(['caroline', 'paint', 'sunset', 'not'].map(isStopWord)).toEqual([false, false, false, false]);
  });

  it('stem applies the Porter stemmer', () => {
    expect(['paintings', 'adopted', 'adoption', 'running'].map(stem)).toEqual(['paint', 'adopt', 'adopt', 'run']);
  });

  it('processTerm drops stop words and stems the rest', () => {
    expect([processTerm('When'), processTerm('Paintings')]).toEqual([null, 'paint']);
  });

  it('contentTerms = tokenize → drop stop words → stem, in order', () => {
    expect(contentTerms('When did Caroline go to the LGBTQ support group?')).toEqual(['carolin', 'go', 'lgbtq', 'support', 'group']);
  });

  it('contentTerms drops the fragments of contractions', () => {
    expect(contentTerms("I'm sure she didn't paint")).toEqual(['sure', 'paint']);
  });
});

describe('midSentenceCapitalised', () => {
  it('keeps capitalised words inside a sentence, as written, and skips sentence starts and "I"', () => {
    expect(midSentenceCapitalised('Then Caroline went to Paris. Paris is big! I met Ana: Bo said "Hi Jo"')).toEqual(['Caroline', 'Paris', 'Ana', 'Jo']);
  });

  it('matches after NFC, so a decomposed accent does not split a name', () => {
    expect(midSentenceCapitalised('We met Zoe\u0301 and E\u0301lodie')).toEqual(['Zoé', 'Élodie']);
  });
});
