/**
 * h-break14 finding 2: the AI SDK middleware kept a reply longer than the memory's text limit as
 * parts that were trimmed, so the line break at each cut and the reply's last one were lost
 * (a 264,000-character code reply came back as 263,997). The parts now concatenate to exactly
 * the text.
 */
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { memoryMiddleware, splitTurnText } from '../../src/integrations/ai-sdk.js';
import { createMemory } from '../../src/memory.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('ai-sdk-split', (e) => (encoder = e));

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** Text made of words, white space runs, line breaks, sentence ends, surrogate pairs and CJK. */
const pieces = fc.constantFrom('a', 'word', ' ', '   ', '\n', '\n\n', '\t', '.', '!', '?', '😀', '👨‍👩‍👧', '猫', '我今天去了公园', '。', 'x'.repeat(7), ' \n ');
const texts = fc.oneof(fc.array(pieces, { maxLength: 60 }).map((a) => a.join('')), fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }));

describe('splitTurnText: parts concatenate to exactly the text', () => {
  it('for arbitrary text and limits: join is the text, each part within the limit, no surrogate pair cut', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 2, max: 40 }), (text, max) => {
        const parts = splitTurnText(text, max);
        expect(parts.join('')).toBe(text);
        for (const p of parts) {
          expect(p.length).toBeGreaterThan(0);
          expect(p.length).toBeLessThanOrEqual(max);
          // A part ending in a high surrogate whose low half starts the next part: a cut pair.
          const last = p.charCodeAt(p.length - 1);
          const next = text.charCodeAt(parts.slice(0, parts.indexOf(p) + 1).join('').length);
          expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the line break at a cut with the line before it', () => {
    const pair = 'const x = 1;\nfunction f(a) { return a * 2 }\n'; // 44 characters
    // Limit 50: each part ends after the last line break in its second half, at 44.
    const parts = splitTurnText(pair.repeat(3), 50);
    expect(parts).toEqual([pair, pair, pair]);
    const code = pair.repeat(3);
    expect(parts.join('')).toBe(code);
  });
});

describe('memoryMiddleware: a long reply is stored as parts that join to the reply', () => {
  it('a code reply over maxTextChars, ending in a line break: the stored parts concatenate to it', async () => {
    const memory = await createMemory({ encoder, parameters: { maxTextChars: 1_000 } });
    const reply = 'const x = 1;\nfunction f(a) { return a * 2 }\n'.repeat(60); // 2,640 characters
    const model = new MockLanguageModelV4({ doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }) as never });
    const r = await generateText({ model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory) }), prompt: 'Write code' });
    expect(r.text).toBe(reply);
    const page = await memory.list({ limit: 100 });
    const parts = page.memories
      .filter((m) => m.provenance.speaker === 'assistant')
      .sort((a, b) => (a.provenance.metadata?.part as number) - (b.provenance.metadata?.part as number));
    // Each part ends after the last line break in its 1,000 characters: 22 pairs of lines (44) and
    // "const x = 1;\n" (13) = 981; then to the line break at 1,980 (999); the 660 left.
    expect(parts.map((m) => m.text.length)).toEqual([981, 999, 660]);
    expect(parts.map((m) => m.text.endsWith('\n'))).toEqual([true, true, true]);
    expect(parts.map((m) => m.text).join('')).toBe(reply);
    await memory.close();
  });
});
