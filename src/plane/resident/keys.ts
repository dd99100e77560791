/**
 * Keys the resident bookkeeping files nodes under (issue 7 item 4, issue 15, issue 22): the
 * exact-repeat key of a node and the canonical form of a speaker's name. Pure functions; the
 * checkpoint's `book.json` holds values derived from them, so they must not change without a new
 * checkpoint format (`checkpoint-format.ts`).
 *
 * @module
 */
import { normalizeText } from '../text/text.js';

/**
 * Key of exact-repeat detection: same text, same time, same source, same scope (issue 7 item 4).
 * The text is compared in its normalised form (`normalizeText`: NFC, trimmed, white space
 * collapsed; issue 15), so the same sentence in NFC and NFD, or with a trailing space, is one
 * node. An absent time or source differs from every present one, the empty string included.
 *
 * Scope: a repeat is one only within the same `userId` and `agentId` (the scope fields a write
 * carries in `provenance.metadata`), so one user's write never merges into another's node (no
 * existence oracle, no provenance in a stranger's node). A write with neither keeps the unscoped
 * 3-element key, byte-identical to the one older checkpoints (`book.json`) hold; a scoped write
 * gets a 5-element key, which no unscoped key can equal (an old key of a scoped node that a
 * checkpoint restored is verified against the node's scoped key and never matches).
 * @param scope the write's `userId` / `agentId`; absent or both undefined: unscoped.
 * @returns a JSON array string `[observedAt | null, source | null, normalized text]`, or with a
 *   scope `[observedAt | null, source | null, normalized text, userId | null, agentId | null]`.
 */
export function dedupKey(text: string, observedAt: string | undefined, source: string | undefined, scope?: DedupScope): string {
  const userId = scope?.userId;
  const agentId = scope?.agentId;
  if (userId === undefined && agentId === undefined) return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text)]);
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text), userId ?? null, agentId ?? null]);
}

/** The scope fields of a dedup key: a write's `userId` / `agentId` (undefined: not set). */
export interface DedupScope {
  readonly userId?: string | undefined;
  readonly agentId?: string | undefined;
}

/**
 * The scope of a stored write for {@link dedupKey}: `userId` / `agentId` of its
 * `provenance.metadata` when they are strings (anything else counts as unset).
 */
export function dedupScopeOf(metadata: Readonly<Record<string, unknown>> | undefined): DedupScope {
  const u = metadata?.['userId'];
  const a = metadata?.['agentId'];
  return { userId: typeof u === 'string' ? u.normalize('NFC') : undefined, agentId: typeof a === 'string' ? a.normalize('NFC') : undefined };
}

/** {@link dedupKey} of a stored node: its text, time, source and scope. */
export function nodeDedupKey(n: { readonly text: string; readonly observedAt?: string | undefined; readonly provenance: { readonly source?: string | undefined; readonly metadata?: Readonly<Record<string, unknown>> | undefined } }): string {
  return dedupKey(n.text, n.observedAt, n.provenance.source, dedupScopeOf(n.provenance.metadata));
}

/** Key of a speaker name in the namespace's speaker map: NFC, lower case. */
export function speakerKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
