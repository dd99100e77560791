/**
 * Issue 24: the person-inflection and CJK n-gram normalisation of the text pipeline must leave
 * English exactly as it was. Every English text of LoCoMo (turns, image captions, questions) is
 * run through each function that turns text into words or terms, and a SHA-256 of all the
 * outputs is compared with the digest computed on the base commit of issue 24 (446c1c5), before
 * any change: one different token, term or detected language changes the digest.
 * The LoCoMo file is read beside the repository (never copied); the test is skipped without it.
 * A few hand-computed cases run always.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lexicalTerms } from '../../src/plane/indexes/lexical.js';
import { contentTerms, detectLanguage, termsOf, tokenize } from '../../src/plane/text/text.js';

const LOCOMO = process.env.LOCOMO_PATH ?? fileURLToPath(new URL('../../../shared/data/locomo10.json', import.meta.url));

/** The digest of {@link englishDigest} on commit 446c1c5 (before issue 24). */
const BASE_DIGEST = '12c4b061b249156cf867706e6ce544d3faa46fe6b1dab5fca66fb795044022c9';

interface Turn {
  text: string;
  blip_caption?: string;
}

function locomoTexts(): string[] {
  const data = JSON.parse(readFileSync(LOCOMO, 'utf8')) as Array<{ conversation: Record<string, unknown>; qa: Array<{ question: string }> }>;
  const out: string[] = [];
  for (const sample of data) {
    for (const [key, value] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const turn of value as Turn[]) {
        out.push(turn.text);
        if (typeof turn.blip_caption === 'string') out.push(turn.blip_caption);
      }
    }
    for (const q of sample.qa) out.push(q.question);
  }
  return out;
}

/** SHA-256 over tokenize, termsOf per token, contentTerms, lexicalTerms and detectLanguage of each text. */
function englishDigest(texts: readonly string[]): string {
  const h = createHash('sha256');
  for (const t of texts) {
    const words = tokenize(t);
    h.update(JSON.stringify([words, words.map((w) => termsOf(w, 'en')), contentTerms(t), lexicalTerms(t), lexicalTerms(t, 'en'), detectLanguage(t)]));
    h.update('\n');
  }
  return h.digest('hex');
}

describe('English text keeps its tokens and terms (issue 24)', () => {
  it.skipIf(!existsSync(LOCOMO))('every LoCoMo turn, caption and question: the same tokens, terms and language as before issue 24', () => {
    const texts = locomoTexts();
    expect(texts.length).toBe(9094);
    expect(englishDigest(texts)).toBe(BASE_DIGEST);
  });

  it('hand-computed English cases', () => {
    expect(contentTerms('When did Caroline go to the LGBTQ support group?')).toEqual(['carolin', 'go', 'lgbtq', 'support', 'group']);
    expect(contentTerms('She studies painting and I study music.')).toEqual(['studi', 'paint', 'studi', 'music']);
    expect(termsOf('works', 'en')).toEqual(['work']);
    expect(tokenize('Café in Tokyo')).toEqual(['café', 'in', 'tokyo']);
    expect(termsOf('café', 'en')).toEqual(['café', 'cafe']);
  });
});
