/**
 * Generated source modules (the state-update weights, the state-topic lexicon): write the fresh
 * text, or with `--check` compare it with the committed file and exit 1 when they differ.
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';

/**
 * Writes `text` to `path`, or when `check` is set verifies that `path` already holds it.
 * @param what How the fresh text was made, for the message (`a fresh fit`, `a fresh build`).
 * @returns nothing; on a failed check it prints why and exits the process with status 1.
 */
export async function writeOrCheckGenerated(path: string, text: string, check: boolean, what: string): Promise<void> {
  if (check) {
    if ((await readFile(path, 'utf8')) !== text) {
      console.error(`${path} differs from ${what}; run without --check`);
      process.exit(1);
    }
    console.log(`${path} is up to date`);
  } else {
    await writeFile(path, text);
    console.log(`wrote ${path}`);
  }
}
