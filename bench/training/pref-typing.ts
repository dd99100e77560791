/**
 * How well the typing head marks user preference statements (issue 24, h-pref): P(type.preference)
 * of the preference parts' evidence turns (long user turns with a taste in passing), of the other
 * user turns and of assistant turns, with the local System One. Dev parts only by default.
 *
 * `npx tsx bench/training/pref-typing.ts [--part prefdev|prefheld|dev]`
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { probability } from '../../src/system-one/controller.js';
import { typingRequest } from '../../src/write/typing.js';
import { partHistories, type ChatPart } from '../chats/chats.js';

const { values } = parseArgs({ options: { part: { type: 'string', default: 'prefdev' } } });
const part = values.part as ChatPart;
const backend = await createSystemOneFromName('local', { env: process.env });
const groups: Record<string, number[]> = { evidence: [], user: [], assistant: [] };
for (const make of partHistories(part)) {
  const h = make();
  const ev = new Set(h.questions.filter((q) => q.category === 3).flatMap((q) => q.evidence));
  const res = await backend.decideMany(h.observations.map((o) => typingRequest(o.text, o.speaker, o.observedAt === undefined ? undefined : new Date(o.observedAt).toISOString())));
  h.observations.forEach((o, i) => {
    const p = probability(res[i] as never, 'type.preference', 0.5);
    (groups[ev.has(o.turnId as string) ? 'evidence' : o.speaker === 'user' ? 'user' : 'assistant'] as number[]).push(p);
  });
}
const q = (xs: number[], f: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))] as number;
for (const [k, xs] of Object.entries(groups)) {
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(`${k.padEnd(10)} n=${String(xs.length).padStart(5)} mean ${mean.toFixed(3)} p10 ${q(xs, 0.1).toFixed(3)} p50 ${q(xs, 0.5).toFixed(3)} p90 ${q(xs, 0.9).toFixed(3)} share≥0.5 ${(xs.filter((x) => x >= 0.5).length / Math.max(1, xs.length)).toFixed(3)}`);
}
await backend.close();
