// The jev-mem command on the TypeScript sources, for tests that need a real process (signals,
// pipes). bin/jev-mem.js would run a build in dist/ when one exists, which may be stale.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
