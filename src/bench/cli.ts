/**
 * TEMPORARY stand-in, to be deleted with the CLI's `bench` sub-command: the benchmarks moved out
 * of the package into the repository's `bench/` folder (`npm run bench -- <sub> ...`). Kept only
 * so that `src/cli/main.ts`, which still imports this path for `jev-mem bench`, compiles until
 * that sub-command is removed. Imports nothing from `bench/`.
 *
 * @module
 */

/**
 * Answers `jev-mem bench ...` with where the benchmarks went; exit code 2 (a usage error).
 * @param positionals The sub-command and its arguments (only echoed back).
 */
export async function runBenchCommand(positionals: string[], _values: Record<string, string | boolean | undefined>, io: { err(s: string): void }): Promise<number> {
  io.err(`jev-mem: the benchmarks are not part of the package; from a checkout of the repository run: npm run bench -- ${positionals.join(' ')}`);
  return 2;
}
