/**
 * One argument written for a POSIX shell (sh, bash, zsh): left as it is when it holds only
 * characters no shell treats specially, else in single quotes, where `$`, backticks, `\`, `!` and
 * spaces stay literal (a single quote inside becomes `'\''`). Used where an error message gives a
 * command for the user to paste (issue 22: the erasure command of a damaged store).
 * @param arg - any string (a path, a namespace, an id).
 * @returns the argument, safe to paste as one word.
 */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
