/**
 * Runs `jev-mem bench scale` with its own flags (the CLI's option table has no `--sizes` yet).
 *
 * Usage: `npx tsx scripts/bench-scale.ts [--sizes 1000,10000,100000] [--out bench-out/scale]
 *   [--system-one local|heuristic|...] [--vector-index flat|hnsw|auto] [--data <locomo10.json>]`
 *
 * Same as `jev-mem bench scale 1000,10000,100000 --out ...` (sizes as a positional).
 */
import { parseArgs } from 'node:util';
import { BENCH_USAGE, runBenchCommand } from '../src/bench/cli.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    out: { type: 'string' },
    data: { type: 'string' },
    'system-one': { type: 'string' },
    'vector-index': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (values.help) {
  process.stdout.write(BENCH_USAGE);
} else {
  process.exitCode = await runBenchCommand(['scale'], values, {
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${s}\n`),
  });
}
