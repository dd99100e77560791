/**
 * The memory tools an agent calls (issue 23, "memory where agents already live"): one definition
 * per tool — name, description written for a model, JSON Schema of the arguments, and the run
 * over a {@link Memory} — shared by the MCP server over stdio (`jev-mem mcp`), the MCP server of
 * the Cloudflare Worker (Streamable HTTP, src/edge/mcp.ts) and the Vercel AI SDK tools
 * (`jev-mem/ai-sdk`). Nothing here imports an SDK: each integration wraps these definitions in
 * its own SDK's shapes.
 *
 * Tools: `remember`, `recall`, `answer` (only where System Two is configured), `update`, `forget`
 * (one memory with every version of it, `Memory.deleteVersions`), `list` and `history` (the versions of one memory). `recall`, `answer` and `list`
 * take the memory API's metadata `filter` and scope (`userId`, `agentId`, `sessionId`; docs/api.md),
 * `recall` and `answer` its `minScore` on the final `score` (memory/relevance.ts `answerEvidence`). `update`,
 * `forget` and `history` take `userId` / `agentId` too: given, they act only on a memory of that
 * scope (another scope's memory is `NOT_FOUND`, as an unknown id). `MemoryToolsOptions.scope`
 * ties every tool to one scope instead, whatever the model passes (tool-scope.ts). A query holds at most
 * `MAX_QUERY_CHARS` characters (the schema's `maxLength`).
 * Arguments are checked here: a bad argument throws JevMemError `INVALID_INPUT` naming it (the
 * memory's own field paths, `options.filter.…`, are renamed to the tool's argument, `filter.…`),
 * which the integrations return to the model as a tool error.
 *
 * Split by job: the argument readers are in tool-args.ts, the shared schema pieces in
 * tool-schema.ts, the result views in tool-views.ts and the fixed scope in tool-scope.ts; this
 * module defines the tools and runs them.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { Memory, MemoryScope } from '../memory.js';
import { listedView, listPage } from './list.js';
import { argsObject, asTool, bad, intArg, numArg, observationOf, ownerOf, selection, text } from './tool-args.js';
import { DEFAULT_TOOL_K, ID, MAX_TOOL_K, MIN_SCORE, OWNER_PROPS, QUERY_PROPS, SELECT_PROPS, WHEN } from './tool-schema.js';
import { bindScope, checkToolScope } from './tool-scope.js';
import { memoryView, traceSummary } from './tool-views.js';

export { DEFAULT_TOOL_K, MAX_TOOL_K } from './tool-schema.js';
export { toolField } from './tool-args.js';
export { memoryView, traceSummary } from './tool-views.js';

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
export type MemoryToolName = 'remember' | 'recall' | 'answer' | 'update' | 'forget' | 'list' | 'history';

/** Options of {@link memoryTools}. */
export interface MemoryToolsOptions {
  /** Offer `answer` (recall + one System-Two call): only when the memory has System Two. @default false */
  answer?: boolean;
  /** `source` written on memories the `remember` and `update` tools store (provenance). @default 'agent' */
  source?: string;
  /** The time of a memory stored without `observedAt` (the moment the model stores it). @default () => new Date() */
  now?: () => Date;
  /**
   * Ties every tool to one scope (`userId`, `agentId`, `sessionId`; at least one): `remember`
   * stores in it, `recall` / `answer` / `list` select in it, and `update` / `forget` / `history`
   * act only on a memory of it (another scope's memory is `NOT_FOUND`, as an unknown id). A
   * model-supplied scope argument that differs is refused as a tool error (`INVALID_INPUT`
   * naming it), and so is a `filter` condition selecting another value of a fixed field
   * (`INVALID_INPUT` naming the condition, `filter.userId`); the same value is accepted. Without it the scope arguments are the model's to
   * give, so a model can read or change any user's memories: set it when one memory serves
   * several users.
   * @throws JevMemError `INVALID_OPTION` (`scope`, `scope.userId`, …) from {@link memoryTools}
   *   when it is not such an object.
   */
  scope?: MemoryScope;
}

/** The `remember` tool but its run, which {@link memoryTools} adds (it needs the options' `source` and `now`). */
const remember: Omit<MemoryTool, 'run'> = {
  name: 'remember',
  title: 'Remember',
  description:
    'Store one fact, preference, event or piece of conversation in long-term memory so it can be recalled in later conversations. ' +
    'Call it when the user tells you something worth keeping (who they are, what they like, plans, decisions, things that happened). ' +
    'Store one self-contained statement per call, in the words it was said, with its speaker; do not store greetings or your own reasoning. ' +
    'To correct something already stored, call update with its id instead. Give expiresAt for something temporary ("I am in Rome this week"). ' +
    'Returns {id, deduplicated}: deduplicated is true when the same text at the same time, with the same scope and metadata, was already stored.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', minLength: 1, description: 'The statement to remember, self-contained (name people and things rather than "he" or "it").' },
      speaker: { type: 'string', description: 'Who said it or whom it is about, e.g. "user" or a name.' },
      role: {
        type: 'string',
        enum: ['user', 'assistant'],
        description: 'Whose turn it was: "user" (the default reading) or "assistant" for your own answer or advice, which then never replaces, nor is replaced by, a fact about the user.',
      },
      observedAt: WHEN,
      sessionId: { type: 'string', description: 'The conversation it comes from, if you track one.' },
      userId: { type: 'string', description: 'The user this memory belongs to, when one memory serves several users (recall and list can then select by it).' },
      agentId: { type: 'string', description: 'The agent that keeps this memory, when several agents share one memory.' },
      metadata: {
        type: 'object',
        description: 'Labels to select by later with a filter, e.g. {"topic": "travel", "importance": 3}: JSON values, keys without "." or "$". userId, agentId, expiresAt and role go in their own arguments.',
      },
      expiresAt: {
        type: 'string',
        description: 'When the memory stops being true or useful, ISO-8601 (e.g. "2025-06-30" for "this month only"); from then on it is never recalled or listed and is erased. Omit for a lasting memory.',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  // Not idempotent: without observedAt each call is timed now, so a repeat is a new memory.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/**
 * The memory tools, in the order a model should consider them.
 * @throws JevMemError `INVALID_OPTION` (`scope…`) when `options.scope` is not an object of
 *   non-empty scope ids (MemoryToolsOptions.scope).
 * @example
 * ```ts
 * for (const t of memoryTools({ answer: false })) console.log(t.name, t.inputSchema);
 * ```
 */
export function memoryTools(options: MemoryToolsOptions = {}): MemoryTool[] {
  const source = options.source ?? 'agent';
  const now = options.now ?? (() => new Date());
  const scope = checkToolScope(options.scope);
  const tools: ToolSpec[] = [
    {
      ...remember,
      async run(memory, a) {
        const observation = observationOf(a, source, now);
        const r = await asTool(() => memory.add(observation));
        return { id: r.id, deduplicated: r.deduplicated };
      },
    },
    {
      name: 'recall',
      title: 'Recall',
      description:
        'Search long-term memory for what is relevant to a question, before answering anything that may depend on earlier conversations (the user\'s name, preferences, plans, past events). ' +
        'Returns {memories, trace}: memories best first, each {id, text, score, relevance, status, observedAt (UTC), observedAtLocal (the writer\'s local time, when not UTC), speaker, timeRefs, metadata}; ' +
        'score (in [0,1]) is what the results are ordered by; relevance is the memory-control model\'s own estimate, in [0,1], that the memory alone answers the query (calibrated on conversation data; it can miss evidence the ranking found, so it may disagree with the order); ' +
        'status "superseded" marks an older version that a later memory replaced (prefer the active one; history shows all versions). ' +
        'A memory longer than 2,000 characters comes back as its passage that best matches the query, with truncated: true and textChars (its whole length); history gives the whole text. ' +
        'trace says how the search went (graph views used, depth, why it stopped). Memories can be unrelated when nothing relevant is stored: judge them by their text. ' +
        'Narrow the search with filter, userId/agentId/sessionId, after/before, and minScore; now sets the date the question is asked on.',
      inputSchema: {
        type: 'object',
        properties: {
          ...QUERY_PROPS,
          after: { type: 'string', description: 'Only memories whose event or observation time is at or after this ISO-8601 date (e.g. "2025-05-01").' },
          before: { type: 'string', description: 'Only memories whose event or observation time is before this ISO-8601 date.' },
          ...SELECT_PROPS,
          minScore: MIN_SCORE,
          now: {
            type: 'string',
            description:
              'The date the question is asked on, ISO-8601 (e.g. "2023-05-30" or "2023-05-30T18:00:00Z"): "last month", "two weeks ago" and questions about the present are read against it. ' +
              'Omit it for the current time; give it to ask about a past conversation as of its own day.',
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const o: Parameters<Memory['recall']>[1] = { k: intArg(a, 'k', 1, MAX_TOOL_K) ?? DEFAULT_TOOL_K, ...selection(a) };
        const after = text(a, 'after', false);
        if (after !== undefined) o.after = after;
        const before = text(a, 'before', false);
        if (before !== undefined) o.before = before;
        const minScore = numArg(a, 'minScore', 0, 1);
        if (minScore !== undefined) o.minScore = minScore;
        // RecallOptions.now: the memory reads the date (INVALID_INPUT options.now, named `now` here by asTool); epoch ms is taken too.
        const asked = a['now'];
        if (asked !== undefined && asked !== null) {
          if (typeof asked !== 'string' && typeof asked !== 'number') throw bad('now', `expected an ISO-8601 date or instant, got ${JSON.stringify(asked)}`);
          o.now = asked;
        }
        const query = text(a, 'query', true);
        const r = await asTool(() => memory.recall(query, o));
        return { memories: r.memories.map((m) => memoryView(m, query)), trace: traceSummary(r) };
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
        'By default the 3 best-ranked memories and, below them, every memory down to the last one with relevance at or above 0.01 reach the language model; with minScore, only those with score at or above it (always the best-ranked ones first). Returns {answer, model, memories} where memories are the ones the answer was based on.',
      inputSchema: { type: 'object', properties: { ...QUERY_PROPS, ...SELECT_PROPS, minScore: { ...MIN_SCORE, description: MIN_SCORE.description.replace('Default 0 for recall (no cut).', 'Default for answer: none (the 3 best-ranked memories, and below them every memory down to the last one with relevance at or above 0.01).') } }, required: ['query'], additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      async run(memory, a) {
        const o: Parameters<Memory['answer']>[1] = { k: intArg(a, 'k', 1, MAX_TOOL_K) ?? DEFAULT_TOOL_K, ...selection(a) };
        const minScore = numArg(a, 'minScore', 0, 1);
        if (minScore !== undefined) o.minScore = minScore;
        const query = text(a, 'query', true);
        const r = await asTool(() => memory.answer(query, o));
        return { answer: r.text, model: r.systemTwo.model, memories: r.memories.map((m) => memoryView(m, query)), trace: traceSummary(r) };
      },
    });
  }
  tools.push(
    {
      name: 'update',
      title: 'Update a memory',
      description:
        'Replace a stored memory with a corrected or newer version, e.g. when the user says "actually my dog is called Rex" and recall found the old statement. ' +
        'The old version is kept as history (status "superseded") and ranked below the new one. Returns {id, replaces}: the new version\'s id and the old id. ' +
        'Update the current version: an id that an earlier update already replaced is a CONFLICT error naming the current version\'s id.',
      inputSchema: {
        type: 'object',
        properties: { id: ID, text: { type: 'string', minLength: 1, description: 'The new, complete statement (not a diff).' }, observedAt: WHEN, ...OWNER_PROPS },
        required: ['id', 'text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      async run(memory, a) {
        const id = text(a, 'id', true);
        const observation = { text: text(a, 'text', true), source, observedAt: text(a, 'observedAt', false) ?? now().toISOString() };
        const r = await asTool(() => memory.update(id, observation, ownerOf(a)));
        return { id: r.id, replaces: id };
      },
    },
    {
      name: 'forget',
      title: 'Forget a memory',
      description:
        'Erase one memory for good, with every version of it (the statements it replaced through update, and the ones that replaced it), its links and index entries, in one step, e.g. when the user asks you to forget something or a memory is plainly wrong. ' +
        'No older version comes back in its place. This cannot be undone; to correct a memory use update instead. Returns {deleted: true, id, erased, count}: erased lists the ids removed, oldest version first, and count how many; an unknown id is an error.',
      inputSchema: { type: 'object', properties: { id: ID, ...OWNER_PROPS }, required: ['id'], additionalProperties: false },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const id = text(a, 'id', true);
        const erased = await asTool(() => memory.deleteVersions(id, ownerOf(a)));
        if (erased.length === 0) throw new JevMemError('NOT_FOUND', `no memory with id ${JSON.stringify(id)}`, { field: 'id' });
        return { deleted: true, id, erased, count: erased.length };
      },
    },
    {
      name: 'list',
      title: 'List memories',
      description:
        'Page through everything stored, oldest first, e.g. when the user asks what you remember about them or to review memories. ' +
        'Not a search: use recall to find memories about a topic; filter and userId/agentId/sessionId select which memories are listed. ' +
        'Returns {memories, nextCursor}; pass nextCursor back as cursor (with the same filter) for the next page. It is absent on the last page; with a filter a page may hold fewer memories than limit, even none, and still have a nextCursor.',
      inputSchema: {
        type: 'object',
        properties: {
          cursor: { type: 'string', description: 'nextCursor of the previous page; omit for the first page.' },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Memories per page. Default 20.' },
          ...SELECT_PROPS,
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const cursor = text(a, 'cursor', false);
        const o = { limit: intArg(a, 'limit', 1, 100) ?? 20, ...(cursor !== undefined ? { cursor } : {}), ...selection(a) };
        const page = await asTool(() => listPage(memory, o));
        return { ...page };
      },
    },
    {
      name: 'history',
      title: 'History of a memory',
      description:
        'The versions of one memory across update, oldest first: the statements it replaced, itself, and the ones that replaced it. ' +
        'Use it when the user asks what something used to be or when it changed ("what was my address before?"), or to see why recall marked a memory superseded. ' +
        'Returns {versions}: each {id, text, status, observedAt, speaker, ingestedAt, supersededBy}; the active one is the current version. An unknown id is an error.',
      inputSchema: { type: 'object', properties: { id: ID, ...OWNER_PROPS }, required: ['id'], additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run(memory, a) {
        const id = text(a, 'id', true);
        const versions = await asTool(() => memory.history(id, ownerOf(a)));
        return { versions: versions.map(listedView) };
      },
    },
  );
  return tools.map((t) => checked(t, scope));
}

/** A tool before its arguments are checked: `run` gets the arguments object. */
interface ToolSpec extends Omit<MemoryTool, 'run'> {
  run(memory: Memory, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Refuses an argument the tool's schema does not name (`INVALID_INPUT` naming it). */
function onlyKeys(a: Record<string, unknown>, schema: ToolInputSchema): void {
  for (const key of Object.keys(a)) {
    if (!(key in schema.properties)) throw bad(key, `unknown argument; expected ${Object.keys(schema.properties).join(', ')}`);
  }
}

/**
 * The tool with its arguments checked (an object with only the schema's keys) and the tools'
 * fixed scope bound into them (tool-scope.ts) before it runs.
 */
function checked(spec: ToolSpec, scope: Readonly<MemoryScope> | undefined): MemoryTool {
  return {
    ...spec,
    run: (memory, args) => {
      const a = argsObject(args);
      onlyKeys(a, spec.inputSchema);
      return spec.run(memory, bindScope(a, scope));
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