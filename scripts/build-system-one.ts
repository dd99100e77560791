/**
 * Builds the shipped System-One model (`models/system-one/`) from its float weights:
 *
 *   npx tsx scripts/build-system-one.ts                       # weights.json → <group>.onnx + manifest.json
 *   npx tsx scripts/build-system-one.ts --init-from-heuristic # first (re)write weights.json from the hand-set stand-in
 *   npx tsx scripts/build-system-one.ts --check               # exit 1 when the files on disk differ from a fresh build
 *   options: --weights <file> (default models/system-one/weights.json), --out <dir> (default models/system-one)
 *
 * A trainer writes weights.json in the format of src/system-one/onnx-model.ts (`SystemOneWeights`,
 * with `training.trained: true` and calibrated thresholds) and runs this script. Output is
 * deterministic: the same weights give byte-identical files.
 *
 * @module
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MANIFEST_FILE, WEIGHTS_FILE, buildModel, heuristicWeightsFile, stableJson } from './lib/system-one-model.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'init-from-heuristic': { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    weights: { type: 'string' },
    out: { type: 'string', default: join(root, 'models', 'system-one') },
  },
});
const outDir = resolve(values.out as string);
const weightsPath = resolve(values.weights ?? join(outDir, WEIGHTS_FILE));

async function main(): Promise<number> {
  if (values['init-from-heuristic']) {
    await mkdir(dirname(weightsPath), { recursive: true });
    await writeFile(weightsPath, stableJson(heuristicWeightsFile()));
    console.log(`wrote ${weightsPath} (hand-set heuristic weights, not trained)`);
  }
  const weights: unknown = JSON.parse(await readFile(weightsPath, 'utf8'));
  const { files, manifest } = buildModel(weights);
  const outputs = new Map<string, Uint8Array>([...files, [MANIFEST_FILE, new TextEncoder().encode(stableJson(manifest))]]);
  if (values.check) {
    const stale: string[] = [];
    for (const [name, bytes] of outputs) {
      const onDisk = await readFile(join(outDir, name)).catch(() => undefined);
      if (onDisk === undefined || Buffer.compare(onDisk, Buffer.from(bytes)) !== 0) stale.push(name);
    }
    if (stale.length > 0) {
      console.error(`stale or missing in ${outDir}: ${stale.join(', ')}; run npx tsx scripts/build-system-one.ts`);
      return 1;
    }
    console.log(`${outDir} is up to date (${outputs.size} files)`);
    return 0;
  }
  await mkdir(outDir, { recursive: true });
  for (const [name, bytes] of outputs) await writeFile(join(outDir, name), bytes);
  console.log(`wrote ${[...outputs.keys()].join(', ')} to ${outDir}: ${manifest.params} parameters, model ${manifest.id}@${manifest.version}, ${manifest.training.trained ? 'trained' : 'hand-set (not trained)'} weights`);
  return 0;
}

process.exitCode = await main();
