/**
 * The memory tools an agent calls (issue 23, "memory where agents already live"): one definition
 * per tool — name, description written for a model, JSON Schema of the arguments, and the run
 * over a {@link Memory} — shared by the MCP server over stdio (`jev-mem mcp`), the MCP server of
 * the Cloudflare Worker (Streamable HTTP, src/edge/mcp.ts) and the Vercel AI SDK tools
 * (`jev-mem/ai-sdk`). Nothing here imports an SDK: each integration wraps these definitions in
 * its own SDK's shapes.
 *
 * Tools: `remember`, `recall`, `answer` (only where System Two is configured), `update`, `forget`
 * (one memory) and `list`. Arguments are checked here: a bad argument throws JevMemError
 * `INVALID_INPUT` naming it, which the integrations return to the model as a tool error.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { Memory, RecallResult } from '../memory.js';
import type { Observation, RecalledMemory } from '../types.js';
import { listPage } from './list.js';

/** A JSON Schema (draft 2020-12 / draft-07 subset) of a tool's arguments: always an object. */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

/** One memory tool, independent of any SDK. */
export interface MemoryTool {
  /** Tool name (`remember`, `recall`, …); MCP and AI SDK use it as is. */
  name: MemoryToolName;
  /** A short human title. */
  title: string;
  /** What the tool does, when a model should call it, what comes back: shown to the model. */
  description: string;
  /** The arguments. */
  inputSchema: ToolInputSchema;
  /** MCP tool annotations (hints for clients: read-only, destructive, idempotent). */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  /**
   * Runs the tool.
   * @returns a JSON-safe object (the tool's structured result).
   * @throws JevMemError `INVALID_INPUT` naming the argument; the memory's own errors
   *   (`NOT_FOUND` for an unknown id, `SYSTEM_TWO_*` for answer, …).
   */
  run(memory: Memory, args: unknown): Promise<Record<string, unknown>>;
}

/** Names of the memory tools. */
export type MemoryToolName = 'remember' | 'recall' | 'answer' | 'update' | 'forget' | 'list';

/** Options of {@link memoryTools}. */
export interface MemoryToolsOptions {
  /** Offer `answer` (recall + one System-Two call): only when the memory has System Two. @default false */
  answer?: boolean;
  /** `source` written on memories the `remember` and `update` tools store (provenance). @default 'agent' */
  source?: string;
  /** The time of a memory stored without `observedAt` (the moment the model stores it). @default () => new Date() */
  now?: () => Date;
}

/** Largest `k` a tool call may ask for: tool results go into a model's context. */
export const MAX_TOOL_K = 50;
/** `k` of `recall` and `answer` when the model gives none. */
export const DEFAULT_TOOL_K = 8;

function bad(field: string, message: string): JevMemError {
  return new JevMemError('INVALID_INPUT', `${field}: ${message}`, { field });
}

function argsObject(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw bad('arguments', 'expected an object');
  return args as Record<string, unknown>;
}

function onlyKeys(a: Record<string, unknown>, schema: ToolInputSchema): void {
  for (const key of Object.keys(a)) {
    if (!(key in schema.properties)) throw bad(key, `unknown argument; expected ${Object.keys(schema.properties).join(', ')}`);
  }
}

function text(a: Record<string, unknown>, key: string, required: true): string;
function text(a: Record<string, unknown>, key: string, required: false): string | undefined;
function text(a: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const v = a[key];
  if (v === undefined || v === null) {
    if (required) throw bad(key, 'is required (a non-empty string)');
    return undefined;
  }
  if (typeof v !== 'string' || v.trim() === '') throw bad(key, `expected a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function intArg(a: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = a[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(key, `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return v;
}

/** The fields of a memory a model needs: no embedding, no types, no scores beyond 4 digits. */
export function memoryView(m: RecalledMemory): Record<string, unknown> {
  const out: Record<string, unknown> = { id: m.id, text: m.text, score: Math.round(m.score * 1e4) / 1e4, status: m.status };
  if (m.observedAtLocal !== undefined) out.observedAt = m.observedAtLocal;
  if (m.provenance.speaker !== undefined) out.speaker = m.provenance.speaker;
  if (m.provenance.sessionId !== undefined) out.sessionId = m.provenance.sessionId;
  if (m.timeRefs.length > 0) out.timeRefs = m.timeRefs.map((t) => ({ text: t.text, when: t.when }));
  if (m.supersededAtLocal !== undefined || m.supersededAt !== undefined) out.supersededAt = m.supersededAtLocal ?? m.supersededAt;
  return out;
}

/** The trace of a recall in one line's worth of fields: why these memories (SPEC 6). */
export function traceSummary(r: RecallResult): Record<string, unknown> {
  const t = r.trace;
  return {
    views: t.routing.active,
    depth: `${t.depth.reached}/${t.depth.max}`,
    stopReason: t.stopReason,
    visited: t.limits.visited,
    systemOneCalls: t.limits.controllerCalls,
    fallbacks: t.fallbacks,
    ms: Math.round(t.timings.totalMs * 10) / 10,
  };
}

const ID = { type: 'string', minLength: 1, description: 'The id of a memory, as returned by remember, recall or list.' };
const WHEN = {
  type: 'string',
  description: 'When it was said or happened, ISO-8601 (e.g. "2025-03-10T07:30:00+09:00" or "2025-03-10"). Omit to use the current time. Relative dates in the text ("last Friday") are resolved against it.',
};

const remember: Omit<MemoryTool, 'run'> = {
  name: 'remember',
  title: 'Remember',
  description:
    'Store one fact, preference, event or piece of conversation in long-term memory so it can be recalled in later conversations. ' +
    'Call it when the user tells you something worth keeping (who they are, what they like, plans, decisions, things that happened). ' +
    'Store one self-contained statement per call, in the words it was said, with its speaker; do not store greetings or your own reasoning. ' +
    'To correct something already stored, call update with its id instead. Returns {id, deduplicated}: deduplicated is true when the same text at the same time was already stored.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1, description: 'The statement to remember, self-contained (name people and things rather than "he" or "it").' },
      speaker: { type: 'string', description: 'Who said it or whom it is about, e.g. "user" or a name.' },
      observedAt: WHEN,
      sessionId: { type: 'string', description: 'The conversation it comes from, if you track one.' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  // Not idempotent: without observedAt each call is timed now, so a repeat is a new memory.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

function observationOf(a: Record<string, unknown>, source: string, now: () => Date): Observation {
  const o: Observation = { text: text(a, 'text', true), source, observedAt: text(a, 'observedAt', false) ?? now().toISOString() };
  const speaker = text(a, 'speaker', false);
  if (speaker !== undefined) o.speaker = speaker;
  const session = text(a, 'sessionId', false);
  if (session !== undefined) o.sessionId = session;
  return o;
}

const QUERY_PROPS = {
  query: { type: 'string', minLength: 1, description: 'A natural-language question or topic, e.g. "What is the user\'s dog called?" or "user\'s travel plans in May".' },
  k: { type: 'integer', minimum: 1, maximum: MAX_TOOL_K, description: `How many memories to return, best first. Default ${DEFAULT_TOOL_K}.` },
};

/**
 * The memory tools, in the order a model should consider them.
 * @example
 * ```ts
 * for (const t of memoryTools({ answer: false })) console.log(t.name, t.inputSchema);
 * ```
 */
export function memoryTools(options: MemoryToolsOptions = {}): MemoryTool[] {
  const source = options.source ?? 'agent';
  const now = options.now ?? (() => new Date());
  const tools: ToolSpec[] = [
    {
      ...remember,
      async run(memory, a) {
        const r = await memory.add(observationOf(a, source, now));
        return { id: r.id, deduplicated: r.deduplicated };
      },
    },
    {
      name: 'recall',
      title: 'Recall',
      description:
        'Search long-term memory for what is relevant to a question, before answering anything that may depend on earlier conversations (the user\'s name, preferences, plans, past events). ' +
        'Returns {memories, trace}: memories best first, each {id, text, score in [0,1], status, observedAt, speaker, timeRefs}; status "superseded" marks an older version that a later memory replaced (prefer the active one). ' +
        'trace says how the search went (graph views used, depth, why it stopped). Memories can be unrelated when nothing relevant is stored: judge them by their text.',
      inputSchema: {
        type: 'object',
        properties: {
          ...QUERY_PROPS,
          after: { type: 'string', description: 'Only memories whose event or observation time is at or after this ISO-8601 date (e.g. "2025-05-01").' },
          before: { type: 'string', description: 'Only memories whose event or observation time is before this ISO-8601 date.' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const o: Parameters<Memory['recall']>[1] = { k: intArg(a, 'k', 1, MAX_TOOL_K) ?? DEFAULT_TOOL_K };
        const after = text(a, 'after', false);
        if (after !== undefined) o.after = after;
        const before = text(a, 'before', false);
        if (before !== undefined) o.before = before;
        const r = await memory.recall(text(a, 'query', true), o);
        return { memories: r.memories.map(memoryView), trace: traceSummary(r) };
      },
    },
  ];
  if (options.answer === true) {
    tools.push({
      name: 'answer',
      title: 'Answer from memory',
      description:
        'Answer a question from long-term memory in one step: recalls the relevant memories and has the configured language model write a short answer grounded in them. ' +
        'Use it for factual questions about the user\'s past ("When did I move to Berlin?"); use recall instead when you want the memories themselves. ' +
        'Returns {answer, model, memories} where memories are the ones the answer was based on.',
      inputSchema: { type: 'object', properties: { ...QUERY_PROPS }, required: ['query'], additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      async run(memory, a) {
        const r = await memory.answer(text(a, 'query', true), { k: intArg(a, 'k', 1, MAX_TOOL_K) ?? DEFAULT_TOOL_K });
        return { answer: r.text, model: r.systemTwo.model, memories: r.memories.map(memoryView), trace: traceSummary(r) };
      },
    });
  }
  tools.push(
    {
      name: 'update',
      title: 'Update a memory',
      description:
        'Replace a stored memory with a corrected or newer version, e.g. when the user says "actually my dog is called Rex" and recall found the old statement. ' +
        'The old version is kept as history (status "superseded") and ranked below the new one. Returns {id, replaces}: the new version\'s id and the old id.',
      inputSchema: {
        type: 'object',
        properties: { id: ID, text: { type: 'string', minLength: 1, description: 'The new, complete statement (not a diff).' }, observedAt: WHEN },
        required: ['id', 'text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      async run(memory, a) {
        const id = text(a, 'id', true);
        const r = await memory.update(id, { text: text(a, 'text', true), source, observedAt: text(a, 'observedAt', false) ?? now().toISOString() });
        return { id: r.id, replaces: id };
      },
    },
    {
      name: 'forget',
      title: 'Forget a memory',
      description:
        'Delete one memory for good (its text, links and index entries), e.g. when the user asks you to forget something or a memory is plainly wrong. ' +
        'This cannot be undone; to correct a memory use update. Returns {deleted: true, id}; an unknown id is an error.',
      inputSchema: { type: 'object', properties: { id: ID }, required: ['id'], additionalProperties: false },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const id = text(a, 'id', true);
        if (!(await memory.delete(id))) throw new JevMemError('NOT_FOUND', `no memory with id ${JSON.stringify(id)}`, { field: 'id' });
        return { deleted: true, id };
      },
    },
    {
      name: 'list',
      title: 'List memories',
      description:
        'Page through everything stored, oldest first, e.g. when the user asks what you remember about them or to review memories. ' +
        'Not a search: use recall to find memories about a topic. Returns {memories, nextCursor}; pass nextCursor back as cursor for the next page (absent on the last page).',
      inputSchema: {
        type: 'object',
        properties: {
          cursor: { type: 'string', description: 'nextCursor of the previous page; omit for the first page.' },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Memories per page. Default 20.' },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const cursor = text(a, 'cursor', false);
        const page = await listPage(memory, { limit: intArg(a, 'limit', 1, 100) ?? 20, ...(cursor !== undefined ? { cursor } : {}) });
        return { ...page };
      },
    },
  );
  return tools.map(checked);
}

/** A tool before its arguments are checked: `run` gets the arguments object. */
interface ToolSpec extends Omit<MemoryTool, 'run'> {
  run(memory: Memory, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The tool with its arguments checked (an object with only the schema's keys) before it runs. */
function checked(spec: ToolSpec): MemoryTool {
  return {
    ...spec,
    run: (memory, args) => {
      const a = argsObject(args);
      onlyKeys(a, spec.inputSchema);
      return spec.run(memory, a);
    },
  };
}

/**
 * Runs the tool `name` from `tools`.
 * @throws JevMemError `NOT_FOUND` (field `name`) for an unknown tool; the tool's errors.
 */
export async function runMemoryTool(tools: readonly MemoryTool[], memory: Memory, name: string, args: unknown): Promise<Record<string, unknown>> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new JevMemError('NOT_FOUND', `no tool ${JSON.stringify(name)}; tools: ${tools.map((t) => t.name).join(', ')}`, { field: 'name' });
  return tool.run(memory, args);
}
