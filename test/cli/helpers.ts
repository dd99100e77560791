import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The shipped 30-turn sample conversation. */
export const SAMPLE = fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url));
const ENTRY = fileURLToPath(new URL('./source-entry.ts', import.meta.url));

/** Runs the CLI in this process, collecting its lines. */
export async function cli(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out, err };
}

/** Starts the CLI (the sources, through tsx) as a child process with piped stdio. */
export function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with the exit code (or the signal's name) once `child` has exited. */
export function exited(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
}
