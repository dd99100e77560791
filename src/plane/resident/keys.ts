/**
 * Keys the resident bookkeeping files nodes under (issue 7 item 4, issue 15, issue 22): the
 * exact-repeat key of a node and the canonical form of a speaker's name. Pure functions; the
 * checkpoint's `book.json` holds values derived from them, so they must not change without a new
 * checkpoint format (`checkpoint-format.ts`). The repeat key gained the write's metadata (issue
 * 22/25), then its speaker (hostile review h-break13), without one: a key without metadata and
 * speaker is unchanged, and the older keys of a node ({@link olderDedupKeys}) are looked up too
 * (memory/write.ts) and unfiled with the node.
 *
 * @module
 */
import { normalizeText } from '../text/text.js';

/**
 * Key of exact-repeat detection: same text, same time, same source, same scope, same metadata,
 * same speaker (issue 7 item 4, issue 22/25, hostile review h-break13). The text is compared in its normalised form (`normalizeText`:
 * NFC, trimmed, white space collapsed; issue 15), so the same sentence in NFC and NFD, or with a
 * trailing space, is one node. An absent time or source differs from every present one, the
 * empty string included.
 *
 * Scope: a repeat is one only within the same `userId` and `agentId` (the scope fields a write
 * carries in `provenance.metadata`), so one user's write never merges into another's node (no
 * existence oracle, no provenance in a stranger's node). Metadata: a repeat is one only with the
 * same other `provenance.metadata` ({@link canonicalMetadata}: same keys and values, key order
 * ignored), so "Meeting at 10" of project A and of project B are two memories (the chat role,
 * `metadata.role`, is metadata: a user's and an assistant's "Okay." are two). Speaker: the same
 * text said by another speaker ({@link speakerKey}: NFC, case aside) is another observation, so an
 * assistant's turn that repeats the user's words at the same time is a memory of its own, kept
 * with its speaker, not merged into the user's.
 *
 * A write with no scope, no other metadata and no speaker keeps the unscoped 3-element key,
 * byte-identical to the one older checkpoints (`book.json`) hold; a scoped write gets a 5-element
 * key, which no unscoped key can equal; a write with other metadata gets a 6-element key (the 5
 * and the canonical metadata); a write with a speaker a 7-element key (the 6, `null` for no
 * metadata, and the speaker's key). Checkpoints written before metadata, or the speaker, was part
 * of the key hold a node under an older key ({@link olderDedupKeys}): the write path looks those
 * keys up too and compares the node's own key (`nodeDedupKey`) before merging, so a store written
 * before still finds its repeats by the same speaker.
 * @param scope the write's `userId` / `agentId`; absent or both undefined: unscoped.
 * @param metadata the write's `provenance.metadata` (its `userId` / `agentId` are read as the
 *   scope only when `scope` is not given; every other field is compared).
 * @param speaker the write's `provenance.speaker`; absent or empty: none.
 * @returns a JSON array string `[observedAt | null, source | null, normalized text]`, or with a
 *   scope `[…, userId | null, agentId | null]`, or with other metadata
 *   `[…, userId | null, agentId | null, canonical metadata]`, or with a speaker
 *   `[…, userId | null, agentId | null, canonical metadata | null, speaker key]`.
 */
export function dedupKey(text: string, observedAt: string | undefined, source: string | undefined, scope?: DedupScope, metadata?: Readonly<Record<string, unknown>>, speaker?: string): string {
  const extra = canonicalMetadata(metadata);
  if (speaker === undefined || speaker === '') return metadataDedupKey(text, observedAt, source, scope, extra);
  const s = scope ?? {};
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text), s.userId ?? null, s.agentId ?? null, extra ?? null, speakerKey(speaker)]);
}

/** The key without the speaker: {@link dedupKey} before the speaker was part of it (`extra`: the canonical metadata). */
function metadataDedupKey(text: string, observedAt: string | undefined, source: string | undefined, scope: DedupScope | undefined, extra: string | undefined): string {
  const base = legacyDedupKey(text, observedAt, source, scope);
  if (extra === undefined) return base;
  const s = scope ?? {};
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text), s.userId ?? null, s.agentId ?? null, extra]);
}

/**
 * The keys older checkpoints may hold a write under, other than its {@link dedupKey}: the key
 * without the speaker (checkpoints up to the speaker's addition) and the key without metadata
 * and speaker ({@link legacyDedupKey}, before metadata's), each only where it differs.
 */
export function olderDedupKeys(text: string, observedAt: string | undefined, source: string | undefined, scope?: DedupScope, metadata?: Readonly<Record<string, unknown>>, speaker?: string): string[] {
  const extra = canonicalMetadata(metadata);
  const keys = new Set([metadataDedupKey(text, observedAt, source, scope, extra), legacyDedupKey(text, observedAt, source, scope)]);
  keys.delete(dedupKey(text, observedAt, source, scope, metadata, speaker));
  return [...keys];
}

/**
 * The repeat key without metadata, as checkpoints written before metadata was part of it hold it
 * ({@link dedupKey} of the same write when it has no metadata besides its scope).
 */
export function legacyDedupKey(text: string, observedAt: string | undefined, source: string | undefined, scope?: DedupScope): string {
  const userId = scope?.userId;
  const agentId = scope?.agentId;
  if (userId === undefined && agentId === undefined) return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text)]);
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text), userId ?? null, agentId ?? null]);
}

/**
 * The metadata of a write a repeat must share, as one string: `metadata` without the scope fields
 * `userId` / `agentId` (compared as the scope), as JSON with every object's keys sorted (so key
 * order does not matter; arrays keep their order). Undefined when nothing is left.
 */
export function canonicalMetadata(metadata: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (metadata === undefined) return undefined;
  const rest = Object.keys(metadata).filter((k) => k !== 'userId' && k !== 'agentId' && metadata[k] !== undefined);
  if (rest.length === 0) return undefined;
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sorted(o[k])]));
  };
  return JSON.stringify(Object.fromEntries(rest.sort().map((k) => [k, sorted(metadata[k])])));
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

type KeyedNode = {
  readonly text: string;
  readonly observedAt?: string | undefined;
  readonly provenance: { readonly source?: string | undefined; readonly speaker?: string | undefined; readonly metadata?: Readonly<Record<string, unknown>> | undefined };
};

/** {@link dedupKey} of a stored node or a write: its text, time, source, scope, metadata and speaker. */
export function nodeDedupKey(n: KeyedNode): string {
  const p = n.provenance;
  return dedupKey(n.text, n.observedAt, p.source, dedupScopeOf(p.metadata), p.metadata, p.speaker);
}

/** {@link olderDedupKeys} of a stored node or a write (empty when it has no metadata besides the scope and no speaker). */
export function nodeOlderDedupKeys(n: KeyedNode): string[] {
  const p = n.provenance;
  return olderDedupKeys(n.text, n.observedAt, p.source, dedupScopeOf(p.metadata), p.metadata, p.speaker);
}

/** Key of a speaker name in the namespace's speaker map: NFC, lower case. */
export function speakerKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
