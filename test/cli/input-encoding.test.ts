/**
 * An input file that is not UTF-8 is refused with INVALID_INPUT naming where (line, byte offset,
 * the bytes), and nothing is written: invalid UTF-8 used to be stored as U+FFFD. A UTF-16 file is
 * named as UTF-16. JSONL, the JSON readers (`.json`: LoCoMo / MemoryBank / LongMemEval),
 * `import` and `recall --questions` alike.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('ingest of a file that is not UTF-8', () => {
  it('refuses a JSONL line with a bad byte sequence, naming line and offset, and makes no store', async () => {
    // Line 3 starts at byte 18 (line 2 is blank); {"text":"bad  is 13 bytes into it, so c3 is at 31: c3 is a lead byte, 28 "(" no continuation.
    const path = file('bad.jsonl', Buffer.concat([Buffer.from('{"text":"hello"}\n\n{"text":"bad '), Buffer.from([0xc3, 0x28]), Buffer.from(' utf8"}\n')]));
    const store = join(dir, 's1');
    const r = await cli(['ingest', path, '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([`jev-mem: INVALID_INPUT: ${path}: line 3 is not valid UTF-8: bytes c3 28 20 75 at byte offset 31 (byte 14 of the line); save the file as UTF-8 (nothing was written)`]);
    expect(existsSync(store)).toBe(false);
  });

  it('names a stray continuation byte after valid multi-byte text at its own offset', async () => {
    // "é" is c3 a9 (valid); the 80 after it begins nothing.
    const path = file('stray.jsonl', Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xc3, 0xa9, 0x80]), Buffer.from('"}\n')]));
    const r = await cli(['ingest', path, '--store', join(dir, 's2'), '--system-one', 'heuristic']);
    expect(r.err[0]).toContain('line 1 is not valid UTF-8: bytes 80 22 7d 0a at byte offset 14 (byte 15 of the line)');
  });

  it('says a UTF-16 file is UTF-16, with or without a byte-order mark', async () => {
    const text = '{"text":"hello"}\n';
    const withBom = file('bom16.jsonl', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const r1 = await cli(['ingest', withBom, '--store', join(dir, 's3'), '--system-one', 'heuristic']);
    expect(r1.err).toEqual([`jev-mem: INVALID_INPUT: ${withBom}: the file is UTF-16 (it starts with the byte-order mark FF FE), not UTF-8; save it as UTF-8 and run again`]);
    const noBom = file('nobom16.jsonl', Buffer.from(text, 'utf16le'));
    const r2 = await cli(['ingest', noBom, '--store', join(dir, 's4'), '--system-one', 'heuristic']);
    expect(r2.err).toEqual([`jev-mem: INVALID_INPUT: ${noBom}: the file is UTF-16 (NUL bytes between its characters), not UTF-8; save it as UTF-8 and run again`]);
    expect(existsSync(join(dir, 's3')) || existsSync(join(dir, 's4'))).toBe(false);
  });

  it('refuses a .json conversation file and an import file alike', async () => {
    const locomo = file('conv.json', Buffer.concat([Buffer.from('[{"sample_id":"x","conversation":{"speaker_a":"A","speaker_b":"B","session_1":[{"speaker":"A","dia_id":"D1:1","text":"hi '), Buffer.from([0xff]), Buffer.from('"}]}}]')]));
    const r1 = await cli(['ingest', locomo, '--store', join(dir, 's5'), '--system-one', 'heuristic']);
    expect(r1.err).toEqual([`jev-mem: INVALID_INPUT: ${locomo}: line 1 is not valid UTF-8: bytes ff 22 7d 5d at byte offset 121 (byte 122 of the line); save the file as UTF-8 (nothing was written)`]);
    // Line 2 starts at byte 2; e2 82 (a 3-byte sequence cut short) at 2 + 17.
    const exp = file('export.json', Buffer.concat([Buffer.from('{\n"format":"jev-mem'), Buffer.from([0xe2, 0x82]), Buffer.from('"}\n')]));
    const r2 = await cli(['import', exp, '--store', join(dir, 's6'), '--system-one', 'heuristic']);
    expect(r2.err).toEqual([`jev-mem: INVALID_INPUT: ${exp}: line 2 is not valid UTF-8: bytes e2 82 22 7d at byte offset 19 (byte 18 of the line); save the file as UTF-8 (nothing was written)`]);
    expect(existsSync(join(dir, 's5')) || existsSync(join(dir, 's6'))).toBe(false);
  });
});

describe('recall --questions of a file that is not UTF-8', () => {
  it('refuses it naming the line and offset, with field questions, before any question is asked', async () => {
    const store = join(dir, 'q1');
    const seed = file('seed.jsonl', Buffer.from('{"text":"We met at the cafe in May."}\n'));
    expect((await cli(['ingest', seed, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
    // Line 1 "When did we meet?\n" is 18 bytes; "What is caf" is 11 more, so c3 (lead byte, 28 "(" no continuation) is at 29.
    const qs = file('questions.txt', Buffer.concat([Buffer.from('When did we meet?\nWhat is caf'), Buffer.from([0xc3, 0x28]), Buffer.from('?\n')]));
    const r = await cli(['recall', '--questions', qs, '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([`jev-mem: INVALID_INPUT: ${qs}: line 2 is not valid UTF-8: bytes c3 28 3f 0a at byte offset 29 (byte 12 of the line); save the file as UTF-8 (nothing was written)`]);
  });
});
