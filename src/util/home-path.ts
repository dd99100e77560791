/**
 * `~` in a store path, as a shell would expand it. Node only (it reads `os.homedir()`): the one
 * place every Node entry point expands a store path — `createNodeMemory({ store })`,
 * `createSqliteFileStorage({ dir })` and the CLI's `--store` (every command, `jev-mem mcp`
 * included, whose clients start the command without a shell).
 *
 * @module
 */
import { homedir } from 'node:os';

/**
 * Replaces a leading `~` that stands alone or is followed by a path separator (`~`, `~/x`, and on
 * any platform `~\x`) with the home directory. Other paths come back unchanged: `~user/x` (another
 * user's home, which Node cannot look up portably), `a/~/b`, `./~`, `~x`.
 * @param path a store path as the user wrote it.
 * @param home the home directory. @default `os.homedir()` (`$HOME` on POSIX, `USERPROFILE` on Windows)
 * @returns the path with the home directory in place of the leading `~`; not resolved or normalised.
 */
export function expandHomePath(path: string, home: () => string = homedir): string {
  return /^~(?=$|[\\/])/.test(path) ? `${home()}${path.slice(1)}` : path;
}
