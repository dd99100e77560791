/**
 * The AI SDK middleware's memory message stays within its character budget (h-break15 finding
 * 5): memories in rank order until `maxChars` UTF-16 code units are spent, a long memory cut to
 * its best-matching passage (the piece holding the question's words, not the start), never a
 * cut inside a surrogate pair; and the middleware, over a real memory and the AI SDK's mock
 * model, puts at most `maxChars` into the prompt where it put a whole 30,000-character answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMemories, MEMORY_MESSAGE_HEADER, memoryMiddleware } from '../../src/integrations/ai-sdk.js';
import { createNodeMemory } from '../../src/node.js';
import type { RecalledMemory } from '../../src/types.js';
import { hasLoneSurrogate } from '../../src/util/invisible.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-memory-prompt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A recalled memory as formatMemories reads it (text, speaker, date, status). */
const recalled = (text: string, speaker = 'user'): RecalledMemory => ({ text, provenance: { speaker }, status: 'active', observedAtLocal: '2025-03-01T09:00:00' }) as unknown as RecalledMemory;

const FILL = 'The Quokkaville itinerary includes a museum visit and lunch by the river. ';
/** 30,000 characters of itinerary with one sentence about the dog two thirds in. */
const LONG = `${FILL.repeat(270)}Your dog Rex will stay with the sitter in Quokkaville. ${FILL.repeat(130)}`;

describe('formatMemories keeps the budget', () => {
  it('cuts a long memory to the passage that matches the query, and keeps the short one whole, within maxChars', () => {
    const short = recalled('My dog is called Rex.');
    const out = formatMemories([recalled(LONG, 'assistant'), short], { query: 'Where will my dog Rex stay?', maxChars: 4000 });
    expect(out.length).toBeLessThanOrEqual(4000);
    const lines = out.split('\n');
    expect(lines[0]).toBe(MEMORY_MESSAGE_HEADER);
    // The long memory's line: at most a quarter of the budget (1,000 of its text), the dog's sentence in it, cut on both sides.
    expect(lines[1]).toMatch(/^- \[2025-03-01\] assistant: …/);
    expect(lines[1]).toContain('Your dog Rex will stay with the sitter in Quokkaville.');
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(lines[1]!.length - '- [2025-03-01] assistant: '.length).toBeLessThanOrEqual(1000);
    expect(lines[2]).toBe('- [2025-03-01] user: My dog is called Rex.');
    expect(lines).toHaveLength(3);
  });

  it('puts memories in rank order until the budget is spent', () => {
    // Ten memories of 600 characters (under a quarter of 3,000: kept whole while they fit); each line is 622 with its "\n- [date] user: ".
    const ms = Array.from({ length: 10 }, (_, i) => recalled(`Memory ${i}: ${'x'.repeat(600 - `Memory ${i}: `.length)}`));
    const out = formatMemories(ms, { query: 'memory', maxChars: 3000 });
    const lines = out.split('\n').slice(1);
    // Header 109 + 4 × 622 = 2,597; the fifth gets 3,000 − 2,597 − 22 = 381 for its text: cut at 379
    // (no space to cut at) plus "…" (its first piece holds "Memory"); then nothing is left.
    expect(lines.slice(0, 4)).toEqual(ms.slice(0, 4).map((m) => `- [2025-03-01] user: ${m.text}`));
    expect(lines[4]).toBe(`- [2025-03-01] user: ${ms[4]!.text.slice(0, 379)}…`);
    expect(lines).toHaveLength(5);
    expect(out.length).toBe(2999);
  });

  it('never cuts inside a surrogate pair', () => {
    // 5,000 emoji (10,000 code units) with no space or sentence end: the cut falls at the budget.
    for (const odd of ['', 'a']) {
      const out = formatMemories([recalled(`${odd}${'😀'.repeat(5000)}`)], { query: 'smile', maxChars: 1001 });
      expect(out.length).toBeLessThanOrEqual(1001);
      expect(out.length).toBeGreaterThan(300);
      expect(hasLoneSurrogate(out)).toBe(false);
    }
  });
});

describe('memoryMiddleware bounds the memories it puts into the prompt', () => {
  it('puts at most maxChars into the system message, the long answer cut to the passage about the dog', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'mw'), systemOne: 'heuristic', create: true });
    try {
      await memory.addMany([
        { text: 'My dog is called Rex.', speaker: 'user', observedAt: '2025-03-01T09:00:00Z' },
        { text: LONG, speaker: 'assistant', role: 'assistant', observedAt: '2025-03-02T09:00:00Z' },
      ]);
      let prompt: Array<{ role: string; content: unknown }> = [];
      const model = new MockLanguageModelV4({
        doGenerate: async (o) => {
          prompt = o.prompt as typeof prompt;
          return { content: [{ type: 'text', text: 'Rex.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] } as never;
        },
      });
      const ask = async (maxChars?: number): Promise<string> => {
        const mw = memoryMiddleware(memory, { k: 5, remember: false, ...(maxChars !== undefined ? { maxChars } : {}) });
        await generateText({ model: wrapLanguageModel({ model, middleware: mw }), prompt: 'Where does my dog Rex stay?' });
        return prompt.find((m) => m.role === 'system')?.content as string;
      };
      for (const [budget, max] of [[undefined, 4000], [1500, 1500]] as const) {
        const system = await ask(budget);
        expect(system.startsWith(MEMORY_MESSAGE_HEADER)).toBe(true);
        expect(system.length).toBeLessThanOrEqual(max);
        expect(system).toContain('user: My dog is called Rex.');
        expect(system).toContain('Your dog Rex will stay with the sitter in Quokkaville.');
      }
      expect(() => memoryMiddleware(memory, { maxChars: 100 })).toThrow(/option maxChars: expected an integer of at least 256/);
    } finally {
      await memory.close();
    }
  }, 120_000);
});
