/**
 * How a failed CLI command ends: what it prints on stderr and its exit code (see main.ts's
 * module notes): 2 for a usage error, 3 for a damaged store, 1 for any other JevMemError (in
 * the CLI's words where the library's advice names an option the CLI has no flag for) and for
 * an unexpected error (with its stack).
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import { EXIT_DAMAGED, isDamaged, unreadableStoreHint } from './check.js';
import { UsageError } from './commands.js';
import { storeFlagMessage } from './error-words.js';
import type { CliIO } from './io.js';

/** The CLI's words for a missing store: the library's advice (`create: true`) is no flag here. */
function storeMissingMessage(e: JevMemError, store: string | undefined): string {
  const dir = typeof e.details.dir === 'string' ? e.details.dir : (store ?? '<dir>');
  const reason = typeof e.details.reason === 'string' ? ` (${e.details.reason})` : '';
  return `no jev-mem store at ${dir}${reason}; check --store, or make one with \`jev-mem ingest <file> --store ${dir}\` (or \`jev-mem import <file.json> --store ${dir}\`)`;
}

/**
 * Prints the failure `e` of command `cmd` on `io.err` and returns the exit code.
 * @param store - The `--store` given, if any (named in the messages).
 */
export function failureExit(e: unknown, cmd: string, store: string | undefined, io: CliIO): number {
  if (e instanceof UsageError) {
    io.err(`jev-mem: ${e.message}`);
    io.err(`(jev-mem ${cmd} --help lists its options)`);
    return 2;
  }
  if (isJevMemError(e, 'STORE_MISSING')) {
    io.err(`jev-mem: STORE_MISSING: ${storeMissingMessage(e, store)}`);
    return 1;
  }
  if (isJevMemError(e, 'SYSTEM_TWO_NOT_CONFIGURED')) {
    // The library's advice (options.systemTwo) is no flag here: name the CLI's variables.
    io.err(`jev-mem: SYSTEM_TWO_NOT_CONFIGURED: answer needs System Two: set JEV_MEM_LLM_BASE_URL (an OpenAI-compatible base URL) and JEV_MEM_LLM_MODEL, and JEV_MEM_LLM_API_KEY if the endpoint needs one; recall works without it`);
    return 1;
  }
  if (isJevMemError(e)) {
    io.err(`jev-mem: ${e.code}: ${storeFlagMessage(e, store)}`);
    // (A refusal that says what to do itself, as a salvage refused over pending erasures, gets no hint.)
    if (isDamaged(e) && (cmd === 'check' || cmd === 'repair') && store !== undefined && e.details.reason === undefined) io.err(unreadableStoreHint(store, cmd));
    return isDamaged(e) ? EXIT_DAMAGED : 1;
  }
  io.err(`jev-mem: unexpected error: ${(e as Error)?.stack ?? String(e)}`);
  return 1;
}
