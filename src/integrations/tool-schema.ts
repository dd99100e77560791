/**
 * The JSON Schema pieces the memory tools (tools.ts) share: the `id` and `observedAt` arguments,
 * the owner scope of the id-addressed tools, the query and `k` of recall and answer, the
 * selection (filter and scope) of the reads, and `minScore`, with the bounds on `k`.
 *
 * @module
 */
import { MAX_QUERY_CHARS } from '../memory.js';

/** Largest `k` a tool call may ask for: tool results go into a model's context. */
export const MAX_TOOL_K = 50;
/** `k` of `recall` and `answer` when the model gives none. */
export const DEFAULT_TOOL_K = 8;

/** The `id` argument of the id-addressed tools. */
export const ID = { type: 'string', minLength: 1, description: 'The id of a memory, as returned by remember, recall or list.' };
/** The `observedAt` argument of remember and update. */
export const WHEN = {
  type: 'string',
  description: 'When it was said or happened, ISO-8601 (e.g. "2025-03-10T07:30:00+09:00" or "2025-03-10"). Omit to use the current time. Relative dates in the text ("last Friday") are resolved against it.',
};

/** `userId` / `agentId` of the tools that address one memory by id. */
export const OWNER_PROPS = {
  userId: { type: 'string', description: 'Act only on a memory of this user (as given to remember): a memory of another user is reported as not found.' },
  agentId: { type: 'string', description: 'Act only on a memory of this agent (as given to remember): a memory of another agent is reported as not found.' },
};

/** The query and `k` of recall and answer. */
export const QUERY_PROPS = {
  query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'A natural-language question or topic, e.g. "What is the user\'s dog called?" or "user\'s travel plans in May".' },
  k: { type: 'integer', minimum: 1, maximum: MAX_TOOL_K, description: `How many memories to return, best first. Default ${DEFAULT_TOOL_K}.` },
};

/** The selection arguments of recall, answer and list: a metadata filter and the scope fields. */
export const SELECT_PROPS = {
  filter: {
    type: 'object',
    description:
      'Only memories matching this filter (MongoDB-like). Keys: speaker, source, sessionId, turnId, observedAt, ingestedAt, status ("active"/"superseded"), ' +
      'userId, agentId, expiresAt, or any metadata key given to remember (metadata.a.b for a nested one). A value is an exact match, or an object of operators: ' +
      '$eq, $ne, $in, $nin, $exists, $gt, $gte, $lt, $lte (numbers or ISO dates); combine with $and, $or, $not. ' +
      'Example: {"speaker": "user", "topic": {"$in": ["travel", "work"]}, "observedAt": {"$gte": "2025-01-01"}}.',
  },
  userId: { type: 'string', description: 'Only the memories of this user (as given to remember).' },
  agentId: { type: 'string', description: 'Only the memories of this agent (as given to remember).' },
  sessionId: { type: 'string', description: 'Only the memories of this conversation session.' },
};

/** `minScore` of recall and answer. */
export const MIN_SCORE = {
  type: 'number',
  minimum: 0,
  maximum: 1,
  description:
    'Leave out memories whose score is below this. score is the final ranking score in [0,1] and falls with rank, so the cut keeps the best-ranked memories down to the first one below it ' +
    '(never one ranked below a memory it leaves out). Its level depends on the store and the question: read it off the scores a recall returns. ' +
    'Default 0 for recall (no cut).',
};
