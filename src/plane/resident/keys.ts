/**
 * Keys the resident bookkeeping files nodes under (issue 7 item 4, issue 15, issue 22): the
 * exact-repeat key of a node and the canonical form of a speaker's name. Pure functions; the
 * checkpoint's `book.json` holds values derived from them, so they must not change without a new
 * checkpoint format (`checkpoint-format.ts`). The repeat key gained the write's metadata (issue
 * 22/25) without one: a key without metadata is unchanged, and the older key of a node with
 * metadata ({@link legacyDedupKey}) is looked up too (memory/write.ts) and unfiled with the node.
 *
 * @module
 */
import { normalizeText } from '../text/text.js';

/**
 * Key of exact-repeat detection: same text, same time, same source, same scope, same metadata
 * (issue 7 item 4, issue 22/25). The text is compared in its normalised form (`normalizeText`:
 * NFC, trimmed, white space collapsed; issue 15), so the same sentence in NFC and NFD, or with a
 * trailing space, is one node. An absent time or source differs from every present one, the
 * empty string included.
 *
 * Scope: a repeat is one only within the same `userId` and `agentId` (the scope fields a write
 * carries in `provenance.metadata`), so one user's write never merges into another's node (no
 * existence oracle, no provenance in a stranger's node). Metadata: a repeat is one only with the
 * same other `provenance.metadata` ({@link canonicalMetadata}: same keys and values, key order
 * ignored), so "Meeting at 10" of project A and of project B are two memories.
 *
 * A write with no scope and no other metadata keeps the unscoped 3-element key, byte-identical
 * to the one older checkpoints (`book.json`) hold; a scoped write gets a 5-element key, which no
 * unscoped key can equal; a write with other metadata gets a 6-element key (the 5 and the
 * canonical metadata). Checkpoints written before metadata was part of the key hold the
 * 3/5-element key ({@link legacyDedupKey}) of a node with other metadata: the write path looks that
 * key up too and compares the node's own key (`nodeDedupKey`) before merging.
 * @param scope the write's `userId` / `agentId`; absent or both undefined: unscoped.
 * @param metadata the write's `provenance.metadata` (its `userId` / `agentId` are read as the
 *   scope only when `scope` is not given; every other field is compared).
 * @returns a JSON array string `[observedAt | null, source | null, normalized text]`, or with a
 *   scope `[…, userId | null, agentId | null]`, or with other metadata
 *   `[…, userId | null, agentId | null, canonical metadata]`.
 */
export function dedupKey(text: string, observedAt: string | undefined, source: string | undefined, scope?: DedupScope, metadata?: Readonly<Record<string, unknown>>): string {
  const extra = canonicalMetadata(metadata);
  const base = legacyDedupKey(text, observedAt, source, scope);
  if (extra === undefined) return base;
  const s = scope ?? {};
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text), s.userId ?? null, s.agentId ?? null, extra]);
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

type KeyedNode = { readonly text: string; readonly observedAt?: string | undefined; readonly provenance: { readonly source?: string | undefined; readonly metadata?: Readonly<Record<string, unknown>> | undefined } };

/** {@link dedupKey} of a stored node or a write: its text, time, source, scope and metadata. */
export function nodeDedupKey(n: KeyedNode): string {
  return dedupKey(n.text, n.observedAt, n.provenance.source, dedupScopeOf(n.provenance.metadata), n.provenance.metadata);
}

/** {@link legacyDedupKey} of a stored node: undefined when it equals its {@link nodeDedupKey} (no metadata besides the scope). */
export function nodeLegacyDedupKey(n: KeyedNode): string | undefined {
  if (canonicalMetadata(n.provenance.metadata) === undefined) return undefined;
  return legacyDedupKey(n.text, n.observedAt, n.provenance.source, dedupScopeOf(n.provenance.metadata));
}

/** Key of a speaker name in the namespace's speaker map: NFC, lower case. */
export function speakerKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
