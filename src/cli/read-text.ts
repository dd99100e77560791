/**
 * Reading an input file (`ingest`, `import`, `recall --questions`) as UTF-8 text, strictly: bytes that are not UTF-8
 * are refused, never replaced by U+FFFD and stored (issue 22: "bad input names the field"). The
 * error names where: the line and the byte offset of the first bad sequence, with its bytes;
 * a UTF-16 file (a byte-order mark `FF FE` / `FE FF`, or NUL bytes between the characters) is
 * named as such, with what to do. A UTF-8 byte-order mark is dropped.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { JevMemError } from '../errors.js';
import { withoutBom } from '../formats/jsonl.js';

/**
 * The text of `file`, decoded as UTF-8 with `TextDecoder('utf-8', { fatal: true })`, without a
 * leading byte-order mark.
 * @param field - the option the errors name (`file` for a positional file; `questions` for `--questions`).
 * @throws JevMemError `NOT_FOUND` (field `field`: unreadable); `INVALID_INPUT` (field `field`):
 *   UTF-16 ("the file is UTF-16 …, save it as UTF-8"), or not UTF-8 (naming the line, the byte
 *   offset in the file, 0-based, and the bytes there).
 */
export async function readUtf8File(file: string, field = 'file'): Promise<string> {
  const bytes = await readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw new JevMemError('NOT_FOUND', `cannot read ${file}: ${e.code ?? e.message}`, { field, cause: e });
  });
  return withoutBom(decodeUtf8(bytes, file, field));
}

/**
 * `bytes` decoded as UTF-8 (see {@link readUtf8File}); `name` names the file in the errors.
 * @param field - the option the errors name. @default 'file'
 * @throws JevMemError `INVALID_INPUT` (field `field`) as {@link readUtf8File}.
 */
export function decodeUtf8(bytes: Uint8Array, name: string, field = 'file'): string {
  const utf16 = utf16Sign(bytes);
  if (utf16 !== undefined) {
    throw new JevMemError('INVALID_INPUT', `${name}: the file is UTF-16 (${utf16}), not UTF-8; save it as UTF-8 and run again`, { field });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalid(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const shown = Array.from(bytes.subarray(at, Math.min(at + 4, bytes.length)), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new JevMemError(
      'INVALID_INPUT',
      `${name}: line ${line} is not valid UTF-8: bytes ${shown} at byte offset ${at} (byte ${at - lineStart + 1} of the line); save the file as UTF-8 (nothing was written)`,
      { field, line, offset: at },
    );
  }
}

/** Why `bytes` look like UTF-16 (a byte-order mark, or NUL bytes as every other byte of the start), else `undefined`. */
function utf16Sign(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return `it starts with the byte-order mark ${bytes[0] === 0xff ? 'FF FE' : 'FE FF'}`;
  }
  const head = bytes.subarray(0, 512);
  let nuls = 0;
  for (const b of head) if (b === 0) nuls++;
  // ASCII text in UTF-16 is half NUL bytes; a quarter leaves room for text beyond ASCII.
  return head.length >= 4 && nuls * 4 >= head.length ? 'NUL bytes between its characters' : undefined;
}

/**
 * The offset of the first byte of the first invalid UTF-8 sequence in `bytes` (which the fatal
 * decoder refused): the shortest prefix a streaming fatal decode refuses is found by bisection
 * (a prefix ending inside a sequence is not refused while streaming), then the sequence's lead
 * byte, if the bytes before end inside a sequence.
 */
function firstInvalid(bytes: Uint8Array): number {
  const refuses = (n: number): boolean => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let end = bytes.length;
  if (refuses(end)) {
    let lo = 0; // refuses(lo) is false
    while (end - lo > 1) {
      const mid = (lo + end) >>> 1;
      if (refuses(mid)) end = mid;
      else lo = mid;
    }
  }
  // bytes[end - 1] is where the decoder failed (or the file ended inside a sequence). If the
  // bytes before it end inside a sequence, that sequence is the bad one: step back to its lead byte.
  let at = Math.max(0, end - 1);
  let complete = true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, at));
  } catch {
    complete = false;
  }
  for (let j = at - 1; !complete && j >= 0 && j >= at - 3; j--) {
    if (bytes[j]! >= 0xc0) {
      at = j;
      break;
    }
  }
  return at;
}
