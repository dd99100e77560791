/**
 * Requests in assistant chats (h-break9 finding: the AI SDK middleware stored "What is my dog
 * called?", and recall "dog" then returned it above "My dog is called Rex"). A user's question
 * to an assistant is conversation, not a fact: it is kept verbatim, as every observation is
 * (it can still be the only trace of a topic, and "what did I ask you about…" reads it), but
 * it ranks below the statements that answer it.
 *
 * A *request* is a turn of the user's side of an assistant chat that states nothing: its role
 * (`metadata.role`, written by a chat message `{ role, content }`, `Observation.role`, the AI SDK
 * middleware, the MCP and AI SDK `remember` tools) is not an assistant's, or, with no role, its
 * speaker is a user role ("user", "human"); and every sentence of its text is a question
 * (system-one/state-update.ts `assertedSentences` leaves nothing). A question between two named
 * people (LoCoMo: "Did you finish the painting you started in May?") is not a request: there it
 * often carries the evidence, and such turns are never demoted.
 *
 * In the final ranking (recalled.ts) a request's score is multiplied by {@link REQUEST_FACTOR},
 * unless the query itself is about what was asked ({@link asksAboutQuestions}).
 *
 * @module
 */
import { assertedSentences } from '../system-one/state-update.js';
import type { MemoryNode } from '../types.js';
import { ASSISTANT_ROLES, isRole } from './guard.js';

/**
 * The factor of a request's score in the final ranking: a stored question repeats the words of
 * a later question about the same thing and so scores up to ~2.4× the statement answering it
 * (measured on the finding's chat: "Tell me about my pets", 0.351 against 0.146); ¼ puts it below
 * such a statement while it stays recalled when nothing else matches.
 */
export const REQUEST_FACTOR = 0.25;

/** True when the turn is a request of the user's side of an assistant chat (see the module comment). */
export function isRequest(node: Pick<MemoryNode, 'text' | 'provenance'>): boolean {
  const role = node.provenance.metadata?.['role'];
  if (typeof role === 'string') {
    if (ASSISTANT_ROLES.has(role.trim().toLowerCase())) return false;
  } else {
    const speaker = node.provenance.speaker;
    if (!isRole(speaker) || ASSISTANT_ROLES.has((speaker as string).trim().toLowerCase())) return false;
  }
  return assertedSentences(node.text).trim() === '';
}

/** Words of a query about what was asked ("What did I ask you about my dog?", "my question about…"). */
const ASKING = /\b(ask|asks|asked|asking|question|questions|inquired|enquired|wondered)\b/iu;

/** True when the query asks about questions asked (then requests are the evidence, not demoted). */
export function asksAboutQuestions(query: string): boolean {
  return ASKING.test(query);
}
