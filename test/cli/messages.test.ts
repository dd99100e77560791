/**
 * What the CLI says: --version, --help made from the same table as the parser, unknown options,
 * numeric flags, CLI advice for STORE_MISSING and System Two, bench moved out of the package;
 * and error values shown with their type in the library's messages.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, OPTIONS, UsageError, commandUsage, parseCommandLine, usage, type CommandName, type OptionName } from '../../src/cli/commands.js';
import { resolveParameters } from '../../src/config.js';
import { describeValue, isJevMemError } from '../../src/errors.js';
import { createNodeMemory, createSqliteFileStorage } from '../../src/node.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { createSystemTwo } from '../../src/system-two/client.js';
import { ROOT, SAMPLE, cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-msg-'));
const store = join(dir, 'store');
const H = ['--system-one', 'heuristic'];
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  expect((await cli(['ingest', SAMPLE, '--store', store, '--namespace', 'sample', ...H])).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--version', () => {
  it.each([['--version'], ['-v'], ['recall', '--version']])('%s prints the version of package.json and exits 0', async (...args) => {
    const r = await cli(args);
    expect(r).toEqual({ code: 0, out: [version], err: [] });
  });
});

describe('options', () => {
  it('an unknown option names itself, the command and the command’s valid options, and exits 2', async () => {
    const r = await cli(['recall', 'q', '--store', store, '--foo']);
    expect(r.code).toBe(2);
    expect(r.err[0]).toBe('jev-mem: unknown option --foo for "recall"; valid options: --store, --namespace, --system-one, --base-url, --vector-index, --k, --json, --questions, --after, --before, --filter, --min-score, --help, --version');
    expect(r.err.join('\n')).not.toMatch(/To specify a positional argument/); // Node's parseArgs text
  });

  it('an option of another command is unknown to this one', async () => {
    const r = await cli(['stats', '--store', store, '--reembed']);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/^jev-mem: unknown option --reembed for "stats"; valid options: --store, --namespace, --system-one, --base-url, --vector-index, --help, --version$/);
  });

  it('a string option without its value, and a boolean one given a value, are usage errors', async () => {
    expect((await cli(['recall', 'q', '--store'])).err[0]).toBe('jev-mem: --store needs a value <dir>');
    expect((await cli(['recall', 'q', '--store', '--json'])).err[0]).toBe('jev-mem: --store needs a value <dir>');
    const r = await cli(['recall', 'q', '--store', store, '--json=yes']);
    expect(r.code).toBe(2);
    expect(r.err[0]).toBe('jev-mem: --json takes no value, got "yes"');
  });

  it.each([['ten'], ['0'], ['-3'], ['2.5'], ['10x'], [''], ['1001'], ['1000000000'], ['99999999999999999999']])('--k %s says the accepted range and what it got, quoted, and exits 2', async (k) => {
    const r = await cli(['recall', 'q', '--store', store, '--namespace', 'sample', `--k=${k}`, ...H]);
    expect(r.code).toBe(2);
    expect(r.err[0]).toBe(`jev-mem: --k: expected an integer from 1 to 1000, got ${JSON.stringify(k)}`);
  });

  it('a question and --questions together are a usage error naming both (exit 2); the question was ignored', async () => {
    const r = await cli(['recall', 'Where', 'does Maya live?', '--questions', 'qs.txt', '--store', store, ...H]);
    expect([r.code, r.err[0]]).toEqual([2, 'jev-mem: recall takes one question or --questions <file>, not both: got the question "Where does Maya live?" and --questions "qs.txt"']);
    expect(r.out).toEqual([]);
  });

  it('--k 10 reaches the API as the number 10', async () => {
    const r = await cli(['recall', 'What did Theo replace on his bike?', '--store', store, '--namespace', 'sample', '--k', '10', '--json', ...H]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out[0] as string) as { memories: unknown[] }).memories).toHaveLength(10);
  });
});

describe('--help', () => {
  it('lists every command and every option', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    for (const c of Object.keys(COMMANDS)) expect(text).toMatch(new RegExp(`^  ${c} +\\S`, 'm'));
    for (const o of Object.keys(OPTIONS)) expect(text).toContain(`--${o}`);
    expect(text).toContain('-v, --version');
    expect(text).not.toMatch(/jev-mem bench/);
  });

  it('each command’s help lists exactly the options its parser accepts', () => {
    for (const c of Object.keys(COMMANDS) as CommandName[]) {
      const help = commandUsage(c);
      for (const o of Object.keys(OPTIONS) as OptionName[]) {
        const args = [c, `--${o}`, ...(OPTIONS[o].type === 'string' ? ['x'] : [])];
        let accepted = true;
        try {
          parseCommandLine(args);
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          accepted = false;
        }
        expect(new RegExp(`--${o}(?![\\w-])`).test(help), `${c} --${o}`).toBe(accepted); // --k is not --keep-backup
      }
    }
    expect(usage()).toContain(commandUsage('forget').split('\n')[2]?.replace('Usage: ', '') as string);
  });

  it('help and -h print the help on stdout and exit 0; no command prints it on stderr and exits 2', async () => {
    expect((await cli(['help'])).out.join('\n')).toBe(usage());
    expect((await cli(['-h'])).code).toBe(0);
    expect((await cli(['recall', '-h'])).out.join('\n')).toBe(commandUsage('recall'));
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.err.join('\n')).toBe(usage());
  });

  it('an unknown command lists the commands and exits 2', async () => {
    const r = await cli(['recal', 'q']);
    expect(r.code).toBe(2);
    expect(r.err[0]).toBe(`jev-mem: unknown command "recal"; commands: ${Object.keys(COMMANDS).join(', ')}`);
  });
});

describe('bench', () => {
  it('says benchmarks run from a checkout with npm run bench, and exits 2', async () => {
    const r = await cli(['bench', 'locomo', '--split', 'test']);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toContain('npm run bench -- <locomo|scale|system-one|answers>');
  });

  it('the CLI imports nothing from the benchmarks', () => {
    const cliDir = join(ROOT, 'src', 'cli');
    for (const f of readdirSync(cliDir)) expect(readFileSync(join(cliDir, f), 'utf8'), f).not.toMatch(/from '\.\.\/bench\/|import\('\.\.\/bench\//);
  });
});

describe('advice for the CLI, not for the library', () => {
  it('STORE_MISSING tells how to make a store with the CLI, not `create: true`', async () => {
    const missing = join(dir, 'typo');
    const r = await cli(['recall', 'q', '--store', missing, ...H]);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      `jev-mem: STORE_MISSING: no jev-mem store at ${missing} (the directory does not exist); check --store, or make one with \`jev-mem ingest <file> --store ${missing}\` (or \`jev-mem import <file.json> --store ${missing}\`)`,
    ]);
  });

  it('the library keeps its own advice (create: true) and gives the folder and reason in details', async () => {
    const missing = join(dir, 'typo');
    const e: unknown = await createSqliteFileStorage({ dir: missing, create: false }).catch((x: unknown) => x);
    expect(isJevMemError(e, 'STORE_MISSING')).toBe(true);
    expect((e as Error).message).toContain('pass create: true to make one');
    expect(isJevMemError(e) && e.details).toMatchObject({ dir: missing, reason: 'the directory does not exist' });
  });

  it('answer without System Two names the CLI’s environment variables', async () => {
    const saved = { base: process.env.JEV_MEM_LLM_BASE_URL, model: process.env.JEV_MEM_LLM_MODEL };
    delete process.env.JEV_MEM_LLM_BASE_URL;
    delete process.env.JEV_MEM_LLM_MODEL;
    try {
      const r = await cli(['answer', 'What did Theo replace on his bike?', '--store', store, '--namespace', 'sample', ...H]);
      expect(r.code).toBe(1);
      expect(r.err).toEqual([
        'jev-mem: SYSTEM_TWO_NOT_CONFIGURED: answer needs System Two: set JEV_MEM_LLM_BASE_URL (an OpenAI-compatible base URL) and JEV_MEM_LLM_MODEL, and JEV_MEM_LLM_API_KEY if the endpoint needs one; recall works without it',
      ]);
    } finally {
      if (saved.base !== undefined) process.env.JEV_MEM_LLM_BASE_URL = saved.base;
      if (saved.model !== undefined) process.env.JEV_MEM_LLM_MODEL = saved.model;
    }
  });
});

describe('error values show their type', () => {
  it('describeValue quotes strings and names every type but numbers', () => {
    expect(['10', 10, 1.5, Number.NaN, true, null, undefined, [1, 2], { a: 1 }, 10n].map(describeValue)).toEqual([
      '"10" (a string)',
      '10',
      '1.5',
      'NaN',
      'true (a boolean)',
      'null',
      'undefined',
      'an array of 2',
      'an object',
      '10n (a bigint)',
    ]);
    expect(describeValue('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…" (a string)`);
  });

  it('recall({k: "10"}) says the 10 was a string', async () => {
    const memory = await createNodeMemory({ systemOne: createHeuristicSystemOne() });
    try {
      await expect(memory.recall('q', { k: '10' as unknown as number })).rejects.toThrow('options.k: expected a positive integer, got "10" (a string)');
      await expect(memory.addMany([{ text: 'a' }], { chunkSize: '8' as unknown as number })).rejects.toThrow('options.chunkSize: expected a positive integer, got "8" (a string)');
    } finally {
      await memory.close();
    }
  });

  it('parameters and System-Two options say the same', () => {
    expect(() => resolveParameters({ k: '3' as unknown as number })).toThrow('option parameters.k: expected a positive integer, got "3" (a string)');
    expect(() => resolveParameters({ maintenanceThreshold: '0.5' as unknown as number })).toThrow('got "0.5" (a string)');
    expect(() => createSystemTwo({ url: 'http://127.0.0.1:9/v1/chat/completions', model: 'm', maxTokens: '5' as unknown as number })).toThrow(
      'option maxTokens: expected an integer > 0, got "5" (a string)',
    );
  });
});
