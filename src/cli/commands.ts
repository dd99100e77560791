/**
 * The command line of `jev-mem`: one table of options and one of commands, from which both the
 * parser (which options each command takes) and the help text are made, so `--help` cannot drift
 * from what the parser accepts. Parsing is Node's `util.parseArgs` in lenient mode with tokens;
 * the checks and their messages (unknown option, missing value, numbers) are ours.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { MAX_RECALL_K } from '../config.js';
import { MAX_LIST_LIMIT } from '../memory/list.js';
import { JSONL_FIELDS_HELP } from '../formats/jsonl.js';
import { SYSTEM_ONE_NAMES } from '../system-one/from-name.js';
import { expandHomePath } from '../util/home-path.js';
import { parseDateInput } from '../util/date-input.js';
import { isJevMemError } from '../errors.js';

/** A usage error: the CLI prints it with a pointer to `--help` and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError' as const;
}

/** One option of the command line. */
export interface OptionSpec {
  /** `string` options take a value (`--store dir` or `--store=dir`); `boolean` ones take none. */
  type: 'string' | 'boolean';
  /** One-letter alias (`-h`). */
  short?: string;
  /** The value's placeholder in the help (`<dir>`). */
  value?: string;
  /** One line of help. */
  help: string;
}

/** Every option the CLI knows; which command takes which is in {@link COMMANDS}. */
export const OPTIONS = {
  store: { type: 'string', value: '<dir>', help: 'store directory (made by ingest, import and mcp; other commands need it to exist)' },
  namespace: { type: 'string', value: '<ns>', help: 'namespace inside the store (default: "default"; ingest of LoCoMo/MemoryBank: the sample/user id)' },
  format: { type: 'string', value: '<jsonl|locomo|memorybank|longmemeval>', help: 'input format (default: jsonl, or detected for .json files)' },
  sample: { type: 'string', value: '<id>', help: 'the LoCoMo conversation, MemoryBank user or LongMemEval question to ingest from a file of several' },
  k: { type: 'string', value: '<N>', help: `how many memories to return, an integer from 1 to ${MAX_RECALL_K} (default: the memory parameter k)` },
  json: { type: 'boolean', help: 'print JSON instead of text' },
  after: { type: 'string', value: '<date>', help: 'recall: only memories whose event (or observation) time is at or after this ISO date/instant (no offset = UTC; a date alone, 2024-05-01, is UTC midnight)' },
  before: { type: 'string', value: '<date>', help: 'recall: only memories whose event (or observation) time is before this ISO date/instant (UTC as --after; the window is half-open, [after, before): --after 2024-05-01 --before 2024-05-02 is the UTC day of May 1)' },
  limit: { type: 'string', value: '<N>', help: `list: memories per page, an integer from 1 to ${MAX_LIST_LIMIT} (default: 50)` },
  cursor: { type: 'string', value: '<C>', help: 'list: where to continue (printed with the previous page)' },
  filter: { type: 'string', value: '<json>', help: 'list, recall: only memories matching this filter, a JSON object (docs/api.md), e.g. \'{"speaker":"Maya","observedAt":{"$gte":"2023-05-01"}}\'' },
  'min-score': { type: 'string', value: '<0..1>', help: 'recall: only memories whose score (in [0,1], the order of the results) is at least this (default: 0)' },
  questions: { type: 'string', value: '<file>', help: 'one question a line (plain text or JSON with a "question" field); prints one JSON line each' },
  reembed: { type: 'boolean', help: 're-embed nodes whose embeddings come from another encoder instead of refusing' },
  'keep-backup': { type: 'boolean', help: 'repair: keep the damaged file beside the repaired store (it keeps every record as it was at the repair, text you erase later included; delete and forget warn about it) instead of removing it' },
  'skip-damaged': { type: 'boolean', help: 'export: print the readable records of a damaged store (exit 0; the damaged ids are in "damaged"; where SQLite cannot read through the damage, the file is read page by page as repair does and what was left out is said on stderr) instead of exit 3' },
  backend: { type: 'string', value: `<${SYSTEM_ONE_NAMES.join('|')}>`, help: 'System-One backend that answers the request (default: local)' },
  'system-one': { type: 'string', value: `<${SYSTEM_ONE_NAMES.join('|')}>`, help: 'System-One backend (default: local)' },
  'base-url': { type: 'string', value: '<url>', help: 'base URL of the remote System One (or JEV_MEM_SYSTEM_ONE_URL)' },
  'vector-index': { type: 'string', value: '<flat|ann|hnsw|auto>', help: 'vector index: flat (exact), ann (approximate, built in), hnsw (hnswlib-wasm, Node), auto (exact while small, then ann; the default)' },
  'split-long': { type: 'boolean', help: 'ingest: keep a text longer than the memory\'s limit (parameters.maxTextChars) as several observations, in order, same speaker and time, metadata.part/parts saying which part of how many (as the AI SDK middleware does), instead of refusing it (TOO_LARGE)' },
  user: { type: 'string', value: '<id>', help: 'mcp: tie every tool to this userId (remember stores under it, the other tools act only on its memories; a client passing another userId gets a tool error)' },
  agent: { type: 'string', value: '<id>', help: 'mcp: tie every tool to this agentId, as --user' },
  help: { type: 'boolean', short: 'h', help: 'print this help (or a command\'s: jev-mem <command> --help)' },
  version: { type: 'boolean', short: 'v', help: 'print the version of jev-mem' },
} as const satisfies Record<string, OptionSpec>;

/** Name of an option in {@link OPTIONS}. */
export type OptionName = keyof typeof OPTIONS;

/** Parsed option values: strings for string options, `true` for boolean ones given. */
export type OptionValues = { [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** One command: its arguments and the options it takes. */
export interface CommandSpec {
  /** Positional arguments as the help shows them (`<file>`, `"<question>"`). */
  args: string;
  /** One line of help. */
  summary: string;
  /** Options it takes (besides --help and --version, which every command takes). */
  options: readonly OptionName[];
  /** Of those, the ones it needs (shown without brackets in the help). */
  required?: readonly OptionName[];
}

const OPEN = ['store', 'namespace', 'system-one', 'base-url', 'vector-index'] as const satisfies readonly OptionName[];
const STORE = ['store'] as const satisfies readonly OptionName[];

/** Every command of the CLI, in the order of the help. */
export const COMMANDS = {
  ingest: { args: '<file>', summary: 'write a conversation (JSONL, LoCoMo or MemoryBank) into a store; makes the store when missing; prints the nodes and edges this ingest wrote, and the namespace\'s totals apart (namespaceTotals)', options: [...OPEN, 'format', 'sample', 'split-long'], required: STORE },
  recall: { args: '"<question>"', summary: 'the memories for a question (or each of --questions), with the trace; --json adds each one\'s score and calibrated relevance', options: [...OPEN, 'k', 'json', 'questions', 'after', 'before', 'filter', 'min-score'], required: STORE },
  answer: { args: '"<question>"', summary: 'recall + one System-Two call (needs JEV_MEM_LLM_BASE_URL and JEV_MEM_LLM_MODEL)', options: [...OPEN, 'k', 'json'], required: STORE },
  decide: { args: '', summary: 'answer one System-One request read as JSON from stdin', options: ['backend', 'base-url'] },
  list: { args: '', summary: 'one page of the stored memories in insertion order, one JSON line each (--json: one object); the next page\'s --cursor on stderr', options: [...OPEN, 'limit', 'cursor', 'filter', 'json'], required: STORE },
  history: { args: '<id>', summary: 'the versions of a memory across updates, oldest first, one JSON line each (--json: one object)', options: [...OPEN, 'json'], required: STORE },
  stats: { args: '', summary: 'counts of a namespace (JSON)', options: OPEN, required: STORE },
  export: { args: '', summary: 'a namespace as one JSON export on stdout (exit 3 when records are damaged, unless --skip-damaged)', options: [...OPEN, 'skip-damaged'], required: STORE },
  import: { args: '<file.json>', summary: 'an export into an empty namespace; makes the store when missing; a node text edited in the file since the export is embedded again (counted in textEdited)', options: [...OPEN, 'reembed'], required: STORE },
  delete: { args: '<id>', summary: 'remove one memory (node) and its edges; prints {"deleted": true|false, "id"} (false, with a warning, for an id the namespace does not hold; exit 0)', options: OPEN, required: STORE },
  forget: { args: '', summary: 'remove a whole namespace', options: OPEN, required: ['store', 'namespace'] },
  maintain: { args: '', summary: 'run the maintenance pass on a namespace, then rewrite the store file when erasures are pending (also those a crash left); prints the counts and erasuresPending (JSON)', options: OPEN, required: STORE },
  check: { args: '', summary: 'verify every stored record against its checksum (JSON); exit 3 when damaged, 0 when clean', options: ['store', 'namespace'], required: STORE },
  mcp: { args: '', summary: 'serve the memory to an MCP client over stdio (tools remember, recall, answer, update, forget, list, history; needs @modelcontextprotocol/sdk); makes the store when missing', options: [...OPEN, 'user', 'agent'], required: STORE },
  repair: { args: '', summary: 'copy every readable record into a fresh store file, rebuild the indexes, then remove the damaged file (--keep-backup keeps it)', options: ['store', 'keep-backup'], required: STORE },
  help: { args: '', summary: 'print this help', options: [] },
} as const satisfies Record<string, CommandSpec>;

/** Name of a command in {@link COMMANDS}. */
export type CommandName = keyof typeof COMMANDS;

/** What `jev-mem bench` prints: benchmarks are not part of the published package. */
export const BENCH_MOVED =
  'jev-mem: benchmarks are not part of the jev-mem package; run them from a checkout of the repository:\n' +
  '  npm run bench -- <locomo|scale|system-one|answers> …';

const GLOBAL: readonly OptionName[] = ['help', 'version'];

function isCommand(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name);
}

function flag(name: OptionName): string {
  const o: OptionSpec = OPTIONS[name];
  return `--${name}${o.value ? ` ${o.value}` : ''}`;
}

/** `jev-mem forget --store <dir> --namespace <ns> [--system-one] [--base-url] [--vector-index]`. */
function commandLine(name: CommandName): string {
  const c: CommandSpec = COMMANDS[name];
  const required = c.required ?? [];
  const opts = [...required.map(flag), ...c.options.filter((o) => !required.includes(o)).map((o) => `[--${o}]`)].join(' ');
  return ['jev-mem', name, c.args, opts].filter((s) => s !== '').join(' ');
}

function optionLines(names: readonly OptionName[]): string {
  const rows = names.map((n) => {
    const o: OptionSpec = OPTIONS[n];
    return [`${o.short ? `-${o.short}, ` : '    '}${flag(n)}`, o.help] as const;
  });
  const width = Math.max(...rows.map(([f]) => f.length));
  return rows.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`).join('\n');
}

/** The whole help text (`jev-mem --help`). */
export function usage(): string {
  const names = Object.keys(COMMANDS) as CommandName[];
  const width = Math.max(...names.map((n) => n.length));
  return `jev-mem — client-side long-term memory for AI agents

Usage: jev-mem <command> [arguments] [options]

Commands:
${names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`).join('\n')}

${names.filter((n) => n !== 'help').map((n) => `  ${commandLine(n)}`).join('\n')}
  jev-mem --version | -v
  jev-mem <command> --help

Options:
${optionLines(Object.keys(OPTIONS) as OptionName[])}

Input of ingest (--format jsonl, the default): ${JSONL_FIELDS_HELP}

System Two (for 'answer') comes from the environment:
  JEV_MEM_LLM_BASE_URL  OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1
  JEV_MEM_LLM_MODEL     model name (required with the base URL)
  JEV_MEM_LLM_API_KEY   bearer key (optional)
System One 'remote' comes from JEV_MEM_SYSTEM_ONE_URL and JEV_MEM_SYSTEM_ONE_KEY (or --base-url).

Output: results on stdout (JSON, JSON lines for list and history, or text for recall and answer
without --json); progress, hints and errors on stderr.

Exit codes:
  0    success; also when the reader of stdout stops early (jev-mem recall … | head -1)
  1    an error of jev-mem, its code printed (jev-mem: NOT_FOUND: …). recall, answer, list, stats
       and export on a namespace that holds no memories are NOT_FOUND, with the store's namespaces;
       also a failed write of the output (export > file on a full disk: ENOSPC), and a full disk
       during ingest (QUOTA_EXCEEDED, with the count of observations written); an ingest stopped
       by another error once it began writing (the store's lock held by another process) also
       prints how many observations were committed
  2    usage: unknown command or option, missing or malformed argument
  3    the store is damaged (STORE_DAMAGED; check found damage; export of damaged records without
       --skip-damaged): jev-mem check names the records, jev-mem repair salvages the rest
  130  ingest interrupted (Ctrl-C): the chunks committed so far stay, their count is printed

Benchmarks are not part of the package: run them from a checkout with npm run bench -- <locomo|scale|system-one|answers>.`;
}

/** The help of one command (`jev-mem recall --help`). */
export function commandUsage(name: CommandName): string {
  const c: CommandSpec = COMMANDS[name];
  return `jev-mem ${name} — ${c.summary}

Usage: ${commandLine(name)}

Options:
${optionLines([...c.options, ...GLOBAL])}${name === 'ingest' ? `

Input (--format jsonl, the default): ${JSONL_FIELDS_HELP}` : ''}`;
}

/** A parsed command line. */
export interface CommandLine {
  /** The command, `bench` (moved out), or undefined when none was given. */
  command: CommandName | 'bench' | undefined;
  /** Positional arguments after the command. */
  positionals: string[];
  /** Option values. */
  values: OptionValues;
}

/**
 * Parses `argv` (without `node` and the script). A leading `~` or `~/` of `--store` is expanded to
 * the home directory (util/home-path.ts), for every command.
 * @throws UsageError for an unknown command, an option the command does not take
 *   (`unknown option --foo for "recall"; valid options: --store, …`), a string option without
 *   its value or a boolean option given one.
 */
export function parseCommandLine(argv: string[]): CommandLine {
  const { values, positionals, tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const [first, ...rest] = positionals;
  if (first === 'bench') return { command: 'bench', positionals: rest, values: {} };
  if (first !== undefined && !isCommand(first)) throw new UsageError(`unknown command ${JSON.stringify(first)}; commands: ${Object.keys(COMMANDS).join(', ')}`);
  const allowed: readonly OptionName[] = first === undefined ? GLOBAL : [...COMMANDS[first].options, ...GLOBAL];
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const name = t.name as OptionName;
    if (!allowed.includes(name)) {
      const where = first === undefined ? ' before a command' : ` for "${first}"`;
      throw new UsageError(`unknown option ${t.rawName}${where}; valid options: ${allowed.map((o) => `--${o}`).join(', ')}`);
    }
    const spec: OptionSpec = OPTIONS[name];
    if (spec.type === 'boolean' && t.value !== undefined) throw new UsageError(`--${name} takes no value, got ${JSON.stringify(t.value)}`);
    if (spec.type === 'string') {
      // Lenient parseArgs takes the next argument as the value even when it is an option
      // (`--store --json`); a value starting with '-' must be written --store=-x.
      if (t.value === undefined || (!t.inlineValue && /^-[^\d.]/.test(t.value))) throw new UsageError(`--${name} needs a value ${spec.value ?? ''}`.trimEnd());
    }
  }
  const parsed = values as OptionValues;
  // `--store ~/x` where no shell expanded it (quoted, `--store=~/x`, an MCP client's argv).
  if (parsed.store !== undefined) parsed.store = expandHomePath(parsed.store);
  return { command: first, positionals: rest, values: parsed };
}

/**
 * `--min-score`, a number in [0, 1].
 * @returns undefined when the option is absent.
 * @throws UsageError `--min-score: expected a number from 0 to 1, got "high"`.
 */
export function unitOption(values: OptionValues, name: 'min-score'): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const n = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--${name}: expected a number from 0 to 1, got ${JSON.stringify(v)}`);
  return n;
}

/**
 * A date option (`--after`, `--before`), checked before the store is opened by the library's own
 * strict date reader (`util/date-input.ts`, the one `recall({ after, before })` uses).
 * @returns the value as given (the library reads it again), or undefined when absent.
 * @throws UsageError (exit 2) naming the flag: `--after: expected an ISO-8601 date or instant of a
 *   day that exists (…), got "2024-02-30"`.
 */
export function dateOption(values: OptionValues, name: 'after' | 'before'): string | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  try {
    parseDateInput(v, `--${name}`);
  } catch (e) {
    if (isJevMemError(e, 'INVALID_INPUT')) throw new UsageError(e.message);
    throw e;
  }
  return v;
}

/** The largest value of each integer option: `--k` up to `MAX_RECALL_K`, `--limit` up to `MAX_LIST_LIMIT` (both 1,000). */
export const INT_OPTION_MAX = { k: MAX_RECALL_K, limit: MAX_LIST_LIMIT } as const;

/**
 * An integer option (`--k`, `--limit`) parsed to a number before the store is opened: an integer
 * from 1 to {@link INT_OPTION_MAX} (`0`, `-3`, `2.5`, `ten`, `1001` are refused alike).
 * @returns undefined when the option is absent.
 * @throws UsageError (exit 2) naming the flag and the accepted range:
 *   `--k: expected an integer from 1 to 1000, got "ten"`.
 */
export function positiveIntOption(values: OptionValues, name: 'k' | 'limit'): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const max = INT_OPTION_MAX[name];
  const n = /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new UsageError(`--${name}: expected an integer from 1 to ${max}, got ${JSON.stringify(v)}`);
  return n;
}
