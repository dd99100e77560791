/**
 * The `jev-mem` CLI run from the sources (what `bin/jev-mem.js` does in a checkout without
 * dist/), so `bench scale-cli` measures the code of the checkout, never a stale build.
 * Run: `node --import tsx bench/scale/cli-entry.ts <command> …`.
 *
 * @module
 */
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
