// Long turns (300–900 words) made from examples/sample-conversation.jsonl, for the tests of
// ingests beside other processes (long-ingest-child.ts, ingest-beside-writer.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const lines = readFileSync(fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url)), 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { text: string }).text);

/** Turn i: the sample's lines from line i on, round and round, up to 300 + (211·i mod 601) words. */
export function longTurn(i: number): string {
  const want = 300 + ((211 * i) % 601);
  const out: string[] = [];
  for (let j = i, words = 0; words < want; j++) {
    const line = lines[j % lines.length] as string;
    out.push(line);
    words += line.split(/\s+/).length;
  }
  return out.join('\n');
}

/** `count` long turns, Maya and Theo in turn, one hour apart from 2024-05-01. */
export function longTurns(count: number): Array<{ text: string; speaker: string; observedAt: string }> {
  const t0 = Date.UTC(2024, 4, 1);
  return Array.from({ length: count }, (_, i) => ({ text: longTurn(i), speaker: i % 2 ? 'Theo' : 'Maya', observedAt: new Date(t0 + i * 3_600_000).toISOString() }));
}
