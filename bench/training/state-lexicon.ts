/**
 * Builds the state-topic lexicon of the state-update head (issue 14) and writes it as the
 * generated module src/system-one/state-lexicon.ts:
 *
 *   npx tsx bench/training/state-lexicon.ts [--check]
 *
 * For each kind of state (home, work, relationship, ownership, schedule, preference, contact,
 * plan) a handful of seed words, written here, are expanded with the shipped GloVe-SIF word vectors
 * (models/glove-sif-100d, int8 rows × per-row scales): a word of the {@link SCAN_WORDS} most frequent
 * ones joins kind k with score s_k(w) = max_{seed ∈ k} cos(w, seed) when s_k(w) ≥ {@link MIN_COSINE}
 * (seeds themselves score 1), at most {@link MAX_WORDS} words per kind, best first. At run time a
 * text's topic score for kind k is the best s_k over its words: "my inbox" scores for contact and
 * "the employer" for work although neither word is a seed. Run-time code needs no word vectors
 * (the lexicon is a table shipped with the code), so it holds with any configured encoder.
 *
 * Seeds marked `=` are kept but not expanded (their neighbours are generic: "number" sits next to
 * "many" and "one"), and stop words never join. Only content words are expanded: function-word cues (now, still, also) sit next to each other in
 * this space (cos(now, still) = 0.92) and stay the head's explicit marker features.
 *
 * Deterministic: the same model files give the same module; `--check` compares with it.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STOP_WORDS } from '../../src/plane/text/text.js';
import { writeOrCheckGenerated } from '../lib/generated.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const MODEL = join(HERE, '../../models/glove-sif-100d');
const OUT = join(HERE, '../../src/system-one/state-lexicon.ts');

/** Words scanned for expansion: the most frequent (vocab.txt is in frequency order). */
export const SCAN_WORDS = 40_000;
/** Least cosine to a seed for a word to join a kind. */
export const MIN_COSINE = 0.65;
/** Words kept per kind at most (seeds included). */
export const MAX_WORDS = 120;

/** The seed words of each kind: the only hand-written part of the lexicon. */
export const STATE_SEEDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  lives: ['=live', '=lives', 'living', 'moved', 'relocated', 'home', 'house', 'flat', 'apartment', 'neighbourhood', 'neighborhood', 'city', 'town', 'rent'],
  works: ['=work', 'job', 'jobs', 'employer', 'employed', 'hired', '=company', '=office', 'colleagues', 'boss', 'career', 'quit', 'resigned', 'promoted', 'salary'],
  relationship: ['girlfriend', 'boyfriend', 'partner', 'wife', 'husband', 'dating', 'married', 'engaged', 'divorced', 'fiancee', 'fiance', 'wedding', 'romance', 'breakup'],
  owns: ['=own', 'owned', 'bought', 'sold', 'car', 'bike', 'bicycle', 'van', 'dog', 'cat', 'puppy', 'laptop', 'boat', 'guitar', 'piano', 'adopted'],
  schedule: ['class', 'classes', 'practice', 'lesson', 'lessons', 'meeting', 'shift', 'rehearsal', 'schedule', 'rescheduled', 'weekly', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays', 'fridays', 'weekends'],
  preference: ['favourite', 'favorite', 'prefer', 'preferred', '=fan', '=taste', '=liked', '=enjoy', '=loves'],
  contact: ['email', 'mail', 'inbox', 'phone', '=number', 'address', 'contact', 'mobile', '=text', '=call'],
  plan: ['trip', 'holiday', 'vacation', 'party', 'concert', 'visit', 'tour', 'cancelled', 'canceled', 'postponed', '=plans', 'booked', 'tickets'],
});

/** Builds the generated module's text from the model files (deterministic), and the word lists for the log. */
export async function buildStateLexicon(): Promise<{ text: string; lexicon: Record<string, Array<[string, number]>> }> {
  const manifest = JSON.parse(await readFile(join(MODEL, 'encoder.json'), 'utf8')) as { dimension: number; words: number; version: string; name: string };
  const D = manifest.dimension;
  const vocab = (await readFile(join(MODEL, 'vocab.txt'), 'utf8')).split('\n').filter((w) => w !== '');
  const q = new Int8Array((await readFile(join(MODEL, 'vectors.i8'))).buffer.slice(0));
  const buf = await readFile(join(MODEL, 'scales.f32'));
  const scales = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const row = new Map(vocab.map((w, i) => [w, i]));
  // Unit rows (the scale cancels under normalisation, but is applied for clarity).
  const unit = (r: number): Float64Array => {
    const v = new Float64Array(D);
    let n = 0;
    for (let i = 0; i < D; i++) {
      v[i] = (q[r * D + i] as number) * (scales[r] as number);
      n += (v[i] as number) ** 2;
    }
    n = Math.sqrt(n) || 1;
    for (let i = 0; i < D; i++) v[i] = (v[i] as number) / n;
    return v;
  };
  const scan = Math.min(SCAN_WORDS, vocab.length);
  const rows: Float64Array[] = [];
  for (let r = 0; r < scan; r++) rows.push(unit(r));
  const lexicon: Record<string, Array<[string, number]>> = {};
  for (const [kind, seeds] of Object.entries(STATE_SEEDS)) {
    const words = seeds.map((s) => s.replace(/^=/, ''));
    const seedRows = seeds.filter((s) => !s.startsWith('=')).map((s) => {
      const r = row.get(s);
      if (r === undefined) throw new Error(`seed ${JSON.stringify(s)} of ${kind} is not in ${manifest.name}/vocab.txt`);
      return unit(r);
    });
    for (const w of words) if (!row.has(w)) throw new Error(`seed ${JSON.stringify(w)} of ${kind} is not in ${manifest.name}/vocab.txt`);
    const scored = new Map<string, number>(words.map((s) => [s, 1]));
    for (let r = 0; r < scan; r++) {
      const w = vocab[r] as string;
      if (scored.has(w) || w.length < 3 || /\d/.test(w) || STOP_WORDS.has(w)) continue;
      let best = -1;
      for (const s of seedRows) {
        let dot = 0;
        const v = rows[r] as Float64Array;
        for (let i = 0; i < D; i++) dot += (v[i] as number) * (s[i] as number);
        if (dot > best) best = dot;
      }
      if (best >= MIN_COSINE) scored.set(w, Math.round(best * 100) / 100);
    }
    lexicon[kind] = [...scored].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_WORDS);
  }
  const body = Object.entries(lexicon)
    .map(([k, ws]) => `  ${k}: {${ws.map(([w, s]) => `${JSON.stringify(w)}: ${s}`).join(', ')}},`)
    .join('\n');
  const text = `/**
 * GENERATED by bench/training/state-lexicon.ts — do not edit by hand. Regenerate with
 * \`npx tsx bench/training/state-lexicon.ts\` (\`--check\` verifies this file).
 *
 * The state-topic lexicon of the state-update head (issue 14): per kind of state, the seed words of
 * the builder (score 1) and the words of the ${SCAN_WORDS.toLocaleString('en-US')} most frequent of
 * ${manifest.name}@${manifest.version} whose cosine to a seed is ≥ ${MIN_COSINE} (score: that cosine,
 * two decimals), at most ${MAX_WORDS} per kind. Lower-case words as \`tokenize()\` gives them.
 *
 * @module
 */

/** Kind → word → topic score in [0,1]. */
export const STATE_LEXICON: Readonly<Record<string, Readonly<Record<string, number>>>> = Object.freeze({
${body}
});
`;
  return { text, lexicon };
}

async function main(): Promise<void> {
  const { text, lexicon } = await buildStateLexicon();
  for (const [k, ws] of Object.entries(lexicon)) console.log(`${k.padEnd(13)} ${String(ws.length).padStart(4)} words: ${ws.slice(0, 40).map(([w]) => w).join(' ')}`);
  await writeOrCheckGenerated(OUT, text, process.argv.includes('--check'), 'a fresh build');
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
