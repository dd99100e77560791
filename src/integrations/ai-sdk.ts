/**
 * `jev-mem/ai-sdk`: jev-mem in the Vercel AI SDK (`ai`, v7; issue 23).
 *
 * - {@link createMemoryTools}: the memory tools of ./tools.ts (remember, recall, answer, update,
 *   forget, list) as AI SDK `tool()`s with JSON Schemas, for `generateText({ tools })`: the model
 *   decides when to read and write memory.
 * - {@link memoryMiddleware}: a language-model middleware for `wrapLanguageModel` that recalls
 *   before every generation (the last user message is the query) and puts the recalled memories
 *   into the prompt as a system message, then remembers the exchange (the user's message and the
 *   model's reply) once the generation has finished: memory without any tool call.
 *
 * `ai` is an optional peer of jev-mem: {@link createMemoryTools} imports it on first use and
 * throws `DEPENDENCY_MISSING` (`npm i ai`) without it; the middleware needs nothing from it at
 * run time.
 *
 * @module
 */
import type { LanguageModelMiddleware, Tool } from 'ai';
import { MAX_RECALL_K } from '../config.js';
import { JevMemError, isJevMemError } from '../errors.js';
import { MAX_QUERY_CHARS, type Memory, type MemoryFilter, type MemoryScope } from '../memory.js';
import { answerEvidence } from '../memory/relevance.js';
import type { Observation, RecalledMemory } from '../types.js';
import { importOptional } from '../util/optional.js';
import { storableParts } from '../write/split-long.js';
import { warnRememberFailed, type RememberFailure, type TurnFinish } from './ai-sdk-turn.js';
import { DEFAULT_MEMORY_CHARS, formatMemories, MEMORY_MESSAGE_HEADER, MIN_MEMORY_CHARS, type MemoryFormatContext } from './memory-prompt.js';
import { memoryTools, type MemoryToolName, type MemoryToolsOptions } from './tools.js';

export { splitTurnText, warnRememberFailed, type RememberFailure, type TurnFinish } from './ai-sdk-turn.js';
export { bestPassage, DEFAULT_MEMORY_CHARS, formatMemories, LONG_MEMORY_SHARE, MEMORY_MESSAGE_HEADER, MIN_MEMORY_CHARS, MIN_PASSAGE_CHARS, type MemoryFormatContext } from './memory-prompt.js';

/**
 * The memory tools as AI SDK tools, keyed by name (`remember`, `recall`, `update`, `forget`,
 * `list`, `history`, and `answer` when `options.answer`). A tool whose run fails (bad argument, unknown id)
 * throws the JevMemError, which the AI SDK hands back to the model as a tool error reading
 * `CODE: message` (`INVALID_INPUT: k: expected an integer from 1 to 50, got 0`).
 * @param options.source - provenance `source` of what the tools store. @default 'ai-sdk'
 * @param options.scope - ties every tool to one user / agent / session (`{ userId: 'alice' }`):
 *   a model-supplied different `userId` is a tool error; without it the model chooses the scope.
 * @throws JevMemError `DEPENDENCY_MISSING` (details `package: 'ai'`) when `ai` is not installed;
 *   `INVALID_OPTION` (`scope…`) for a bad `options.scope`.
 * @example
 * ```ts
 * const tools = await createMemoryTools(memory);
 * const { text } = await generateText({ model, tools, prompt: 'What is my dog called?', stopWhen: stepCountIs(3) });
 * ```
 */
export async function createMemoryTools(memory: Memory, options: MemoryToolsOptions = {}): Promise<Record<MemoryToolName, Tool>> {
  const ai = await importOptional<typeof import('ai')>('ai', 'ai', 'jev-mem/ai-sdk');
  const out: Partial<Record<MemoryToolName, Tool>> = {};
  for (const t of memoryTools({ source: 'ai-sdk', ...options })) {
    out[t.name] = ai.tool({
      title: t.title,
      description: t.description,
      inputSchema: ai.jsonSchema<Record<string, unknown>>(t.inputSchema as Parameters<typeof ai.jsonSchema>[0]),
      execute: async (args: Record<string, unknown>) => {
        try {
          return await t.run(memory, args);
        } catch (e) {
          throw asToolError(e);
        }
      },
    }) as Tool;
  }
  return out as Record<MemoryToolName, Tool>;
}

/**
 * A JevMemError as the AI SDK shows a failed tool to the model: the SDK sends `error.toString()`,
 * which for an Error is `name: message` (`JevMemError: k: …`); the model gets `CODE: message`
 * instead (`INVALID_INPUT: k: …`), as the MCP server sends it, so it can tell a bad argument from
 * an unknown id. The error stays the same JevMemError (code, details) for the caller's handlers.
 */
function asToolError(e: unknown): unknown {
  if (!isJevMemError(e)) return e;
  Object.defineProperty(e, 'toString', { value: () => `${e.code}: ${e.message}`, enumerable: false, configurable: true });
  return e;
}

/** Options of {@link memoryMiddleware}. */
export interface MemoryMiddlewareOptions {
  /** Memories recalled into the prompt: an integer from 1 to `MAX_RECALL_K` (1,000). @default 5 */
  k?: number;
  /**
   * Only memories whose final `score` (in [0,1], falling with rank) is at least this go into
   * the prompt, as `minScore` of `Memory.recall`: always the best-ranked ones; 0 puts every
   * recalled memory in. @default none: as `Memory.answer`, the `DEFAULT_ANSWER_KEEP_TOP` (3)
   * top-ranked memories and, below them, every memory down to the lowest-ranked one with
   * calibrated `relevance` ≥ `DEFAULT_ANSWER_MIN_SCORE` (0.01) (memory/relevance.ts `answerEvidence`)
   */
  minScore?: number;
  /**
   * Scope of the conversation (issue 23): recall reads only this user's / agent's / session's
   * memories, and the remembered turns are written with these `userId`, `agentId` and
   * `sessionId` ({@link MemoryMiddlewareOptions.sessionId}, when given, is the one written).
   * @throws JevMemError `INVALID_INPUT` (`options.scope.…`) at the first call for a scope field
   *   that is not a non-empty string.
   */
  scope?: MemoryScope;
  /** Metadata filter of the recall (read/filter.ts `MemoryFilter`), ANDed with `scope`. */
  filter?: MemoryFilter;
  /** Remember the exchange after the generation. @default true */
  remember?: boolean;
  /** Speaker names of the two sides. @default { user: 'user', assistant: 'assistant' } */
  speakers?: { user?: string; assistant?: string };
  /** Provenance `source` of remembered turns. @default 'ai-sdk' */
  source?: string;
  /** The time of a remembered exchange (its `observedAt`). @default () => new Date() */
  now?: () => Date;
  /**
   * Session id written on remembered turns (e.g. the chat id). It does not narrow the recall
   * (memories of earlier sessions are the point); `scope.sessionId` does.
   */
  sessionId?: string;
  /**
   * Budget of the system message of memories, in UTF-16 code units (JavaScript string length),
   * header and line breaks included: an integer ≥ `MIN_MEMORY_CHARS` (256). Memories go in in
   * rank order until it is spent; a memory longer than a quarter of it is cut to its
   * best-matching passage (integrations/memory-prompt.ts). A custom `format` gets it in its
   * context and is to keep it itself. @default DEFAULT_MEMORY_CHARS (4,000, about 1,000 tokens)
   */
  maxChars?: number;
  /**
   * How the recalled memories are written into the system message, given the recall query and
   * the budget (`maxChars`). @default {@link formatMemories}
   */
  format?: (memories: RecalledMemory[], context: MemoryFormatContext) => string;
  /**
   * Called when the memory fails the call's recall (`turn.stage` `'recall'`: a closed, damaged or
   * busy store, a refused scope; the model is then called without memories) or the remembering of
   * a finished exchange (`'remember'`: a full or closed store, a refused observation…; the model's
   * answer is returned all the same). The call never rejects for its memory. Called with the error
   * (a JevMemError as a rule) and the exchange; what it throws is ignored.
   * @default {@link warnRememberFailed}: one `console.warn` line
   */
  onError?: (error: unknown, turn: RememberFailure) => void;
}

type Params = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type Prompt = Params['prompt'];
type GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>;
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;

/** Text of the last message of the prompt when it is the user's (the question of this turn). */
function lastUserText(prompt: Prompt): string | undefined {
  const last = prompt[prompt.length - 1];
  if (last === undefined || last.role !== 'user') return undefined;
  const text = last.content
    .filter((p): p is Extract<typeof p, { type: 'text' }> => p.type === 'text')
    .map((p) => p.text)
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
}

/** Text of the most recent user message anywhere in the prompt (later tool-loop steps end in tool results). */
function latestUserText(prompt: Prompt): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]?.role === 'user') return lastUserText(prompt.slice(0, i + 1) as Prompt);
  }
  return undefined;
}

/**
 * The recall query of a user message: the message, or its last {@link MAX_QUERY_CHARS} characters
 * when it is longer (a question usually follows what was pasted before it; recall refuses a
 * longer query with `TOO_LARGE`, which would fail the model call). A surrogate pair is not split.
 */
export function recallQueryOf(text: string): string {
  if (text.length <= MAX_QUERY_CHARS) return text;
  const tail = text.slice(text.length - MAX_QUERY_CHARS);
  const c = tail.charCodeAt(0);
  return c >= 0xdc00 && c <= 0xdfff ? tail.slice(1) : tail;
}

/**
 * A middleware for `wrapLanguageModel({ model, middleware: memoryMiddleware(memory) })`.
 *
 * Before each call to the model (`generate` or `stream`): recalls `k` memories for the latest
 * user message (its last `MAX_QUERY_CHARS` characters when longer: {@link recallQueryOf}; within `scope` and `filter`; only those with score ≥ `minScore`,
 * by default the top-ranked ones down to the last one above the default relevance floor, as `Memory.answer` gives System Two) and adds them as a system message
 * after the prompt's own system messages, within `maxChars` UTF-16 code units (4,000 by default;
 * a long memory cut to its best-matching passage: {@link formatMemories}); none are added when none pass. After a
 * call that ends a turn (the model wrote text and called no tool), remembers the user's message
 * and the model's text as two observations (speaker `user` and `assistant`, or the names of
 * `speakers`; role `user` and `assistant` whatever the names, kept in `metadata.role`;
 * `observedAt` now, with the scope's `userId` / `agentId` and the session id). The user's
 * message is kept verbatim even when it only asks; recall ranks such a question below the
 * statements answering it (read/request.ts), so it never crowds out the fact in a later prompt.
 * Calls that end in tool calls remember nothing: the turn ends in a later call.
 *
 * What is kept depends on how the call ended (its `finishReason`): `stop` keeps both sides; a reply
 * cut short (`length`, `content-filter`, `interrupted`, `other`) is kept with
 * `metadata.finishReason` set to that reason; a call that ended in an error (`error`, an `error`
 * part in the stream, a thrown error, an abort) keeps nothing, not even the user's message, which
 * is kept when it is sent again. A side longer than the memory's `parameters.maxTextChars`
 * (100,000 by default) is kept as several memories of at most that length, cut at sentence ends
 * ({@link splitTurnText}), each with the turn's speaker, role and time and `metadata.part` (1, 2, …)
 * and `metadata.parts` (their count); the parts concatenate to exactly the text, white space and
 * line breaks included (a reply is kept as the model wrote it, not trimmed). Remembering never fails the model call: a failed write goes
 * to `options.onError` (default: one `console.warn` line) and the answer is returned. A failed
 * recall before the model call goes to `onError` too (`stage: 'recall'`) and the model is called
 * without memories.
 * @throws JevMemError `INVALID_OPTION` naming a bad option, when the middleware is made; never at
 *   run time for its memory (recall and remember failures go to `options.onError`).
 */
export function memoryMiddleware(memory: Memory, options: MemoryMiddlewareOptions = {}): LanguageModelMiddleware {
  const k = options.k ?? 5;
  if (!Number.isInteger(k) || k < 1 || k > MAX_RECALL_K) throw new JevMemError('INVALID_OPTION', `option k: expected an integer from 1 to ${MAX_RECALL_K}, got ${JSON.stringify(k)}`, { field: 'k' });
  const minScore = options.minScore;
  if (minScore !== undefined && (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1))) throw new JevMemError('INVALID_OPTION', `option minScore: expected a number in [0,1], got ${JSON.stringify(minScore)}`, { field: 'minScore' });
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_CHARS;
  if (!Number.isSafeInteger(maxChars) || maxChars < MIN_MEMORY_CHARS) throw new JevMemError('INVALID_OPTION', `option maxChars: expected an integer of at least ${MIN_MEMORY_CHARS} (UTF-16 code units), got ${JSON.stringify(maxChars)}`, { field: 'maxChars' });
  const format = options.format ?? formatMemories;
  const source = options.source ?? 'ai-sdk';
  const now = options.now ?? (() => new Date());
  const recallOptions: Parameters<Memory['recall']>[1] = { k };
  if (options.scope !== undefined) recallOptions.scope = options.scope;
  const scope: MemoryScope = { ...options.scope };
  if (options.sessionId !== undefined) scope.sessionId = options.sessionId;
  if (options.filter !== undefined) recallOptions.filter = options.filter;

  const onError = options.onError ?? warnRememberFailed;

  /** One side of the exchange as observations: one, or its parts when longer than the memory's text limit. */
  function sideOf(text: string, speaker: string, role: string, base: Partial<Observation>, marks: Record<string, unknown>): Observation[] {
    const parts = storableParts(text, memory.parameters.maxTextChars);
    return parts.map((part, i) => {
      const metadata = parts.length > 1 ? { ...marks, part: i + 1, parts: parts.length } : marks;
      return { ...base, text: part, speaker, role, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
    });
  }

  async function rememberTurn(prompt: Prompt, reply: string, finish: TurnFinish | undefined): Promise<void> {
    if (options.remember === false) return;
    // A turn that ended in an error (finishReason `error`, an error part in the stream) keeps
    // nothing, as one that threw or was aborted: its text is no answer, and the user's message
    // is stored when it is asked again (storing it now would keep it twice).
    if (finish === 'error' || finish === 'tool-calls') return;
    const question = latestUserText(prompt);
    // An exchange is kept whole or not at all: a reply to no user text (a blank or system-only
    // prompt) is not a memory of the user's conversation.
    if (question === undefined) return;
    try {
      const base: Partial<Observation> = { source, observedAt: now().toISOString() };
      // The role is carried explicitly (metadata.role): a renamed assistant (speakers.assistant)
      // is still an assistant, whose answers hold no state of the user (write/state-updates.ts).
      const turns = sideOf(question, options.speakers?.user ?? 'user', 'user', base, {});
      // A reply the model did not finish (`length`: out of tokens; `content-filter`, `interrupted`,
      // `other`) is kept, marked with its finishReason in the metadata.
      const marks = finish !== undefined && finish !== 'stop' ? { finishReason: finish } : {};
      // The reply as the model wrote it: its parts concatenate to exactly the reply (h-break14).
      if (reply.trim() !== '') turns.push(...sideOf(reply, options.speakers?.assistant ?? 'assistant', 'assistant', base, marks));
      await memory.addMany(turns, Object.keys(scope).length > 0 ? { scope } : {});
    } catch (e) {
      report(e, { stage: 'remember', question, reply });
    }
  }

  function report(e: unknown, turn: RememberFailure): void {
    try {
      onError(e, turn);
    } catch {
      // onError's own failure must not fail the model call either.
    }
  }

  return {
    specificationVersion: 'v4',
    async transformParams({ params }) {
      const query = latestUserText(params.prompt);
      if (query === undefined || params.prompt.some((m) => m.role === 'system' && m.content.startsWith(MEMORY_MESSAGE_HEADER))) return params;
      let recalled: RecalledMemory[];
      const asked = recallQueryOf(query);
      try {
        recalled = answerEvidence((await memory.recall(asked, recallOptions)).memories, minScore);
      } catch (e) {
        // Memory is an aid to the call, not a condition of it: a closed, damaged or busy store
        // (or a refused scope) is reported and the model answers without memories.
        report(e, { stage: 'recall', question: query, reply: '' });
        return params;
      }
      if (recalled.length === 0) return params;
      const at = params.prompt.findIndex((m) => m.role !== 'system');
      const prompt = [...params.prompt];
      prompt.splice(at < 0 ? prompt.length : at, 0, { role: 'system', content: format(recalled, { query: asked, maxChars }) });
      return { ...params, prompt };
    },
    async wrapGenerate({ doGenerate, params }): Promise<GenerateResult> {
      const result = await doGenerate();
      if (!result.content.some((c) => c.type === 'tool-call')) {
        await rememberTurn(params.prompt, result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), result.finishReason?.unified);
      }
      return result;
    },
    async wrapStream({ doStream, params }): Promise<StreamResult> {
      const result = await doStream();
      let text = '';
      let toolCall = false;
      let finish: TurnFinish | undefined;
      const watch = new TransformStream<(typeof result.stream extends ReadableStream<infer P> ? P : never), (typeof result.stream extends ReadableStream<infer P> ? P : never)>({
        transform(part, controller) {
          if (part.type === 'text-delta') text += part.delta;
          else if (part.type === 'tool-call') toolCall = true;
          else if (part.type === 'error') finish = 'error';
          else if (part.type === 'finish' && finish !== 'error') finish = part.finishReason?.unified;
          controller.enqueue(part);
        },
        // Not called when the stream errors or is cancelled (an abort): such a turn keeps nothing.
        async flush() {
          if (!toolCall) await rememberTurn(params.prompt, text, finish);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    },
  };
}
