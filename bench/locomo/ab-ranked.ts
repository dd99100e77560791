/**
 * The rankings of one code tree on LoCoMo, for an A/B check that a change leaves them identical
 * (issue 25, h-open): the same script runs against main and a branch, since it imports `<repo>`'s
 * own bench helpers (`bench/lib/jev.ts`: `buildJevMemory`, `recallJev`), encoder and local System
 * One. Each conversation of the split is built as `npm run bench -- locomo` builds it (one
 * `addMany`, namespace = sample id, a fresh file store), then each of its evaluable questions is
 * recalled as the bench's `jev-mem` system recalls it (top 20), and the ranked turn ids are
 * written to `<out.json>`, one entry per question in order. `cmp` two trees' files.
 *
 * Run from inside `<repo>`: `cd <repo> && node --import tsx <this repo>/bench/locomo/ab-ranked.ts <repo> <out.json> [--split test|dev|all] [--data locomo10.json]`
 *
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data' && all[i - 1] !== '--split');
const [repoArg, outArg] = positional;
if (repoArg === undefined || outArg === undefined) throw new Error('usage: ab-ranked.ts <repo> <out.json> [--split test|dev|all] [--data locomo10.json]');
const repo = resolve(repoArg);
const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath, parseSplit, selectRun } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');
const { buildJevMemory, recallJev } = (await import(`${repo}/bench/lib/jev.ts`)) as typeof import('../lib/jev.js');
const { KS } = (await import(`${repo}/bench/lib/metrics.ts`)) as typeof import('../lib/metrics.js');

const data = await loadLocomo(option('--data') ?? defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const backend = await createSystemOneFromName('local', { env: process.env });
const root = await mkdtemp(join(tmpdir(), 'jev-mem-ab-ranked-'));
const out: Array<{ conversation: string; question: string; ranked: unknown[] }> = [];
try {
  for (const sel of selectRun(data, parseSplit(option('--split') ?? 'test'), false)) {
    const build = await buildJevMemory(sel.conversation, { encoder, backend, store: join(root, sel.conversation.sampleId), vectorIndex: 'flat' });
    try {
      for (const q of sel.questions) {
        const r = await recallJev(build.memory, q.question, 'jev-mem', Math.max(...KS));
        out.push({ conversation: sel.conversation.sampleId, question: q.question, ranked: r.ranked });
      }
    } finally {
      await build.memory.close();
    }
    console.log(`ab-ranked: ${sel.conversation.sampleId}: ${sel.questions.length} questions`);
  }
  await writeFile(resolve(outArg), `${JSON.stringify(out, null, 1)}\n`, 'utf8');
  console.log(`ab-ranked ${repo}: ${out.length} questions written to ${resolve(outArg)}`);
} finally {
  await backend.close?.();
  await encoder.close?.();
  await rm(root, { recursive: true, force: true });
}
