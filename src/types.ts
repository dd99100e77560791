/**
 * The data model of the memory plane (SPEC 3; paper eq. (4)-(7)). Plain, JSON-safe shapes:
 * every value here can be stored in IndexedDB, a file or a Durable Object as it is.
 *
 * @module
 */

/** The four views of the memory graph, 𝒢 in eq. (6). */
export type View = 'semantic' | 'temporal' | 'causal' | 'entity';

/** All views in a fixed order (used for ties, loops and tables). */
export const VIEWS: readonly View[] = Object.freeze(['causal', 'entity', 'semantic', 'temporal'] as const);

/** Edge subtypes per view (SPEC 3). */
export type EdgeSubtype =
  // temporal
  | 'precedes'
  | 'same_session'
  | 'close_in_time'
  | 'before'
  | 'after'
  | 'during'
  | 'contains'
  | 'overlaps'
  | 'same_time'
  // causal
  | 'leads_to'
  // semantic
  | 'related'
  | 'redundant'
  | 'contradicts'
  | 'updates'
  // entity
  | 'same_entity';

/** Node lifecycle status. Superseded nodes stay retrievable; deleted nodes are removed. */
export type NodeStatus = 'active' | 'superseded' | 'deleted';

/** The four overlapping memory-type scores t(v) of eq. (7), each a probability in [0,1]. */
export interface MemoryTypes {
  episodic: number;
  semantic: number;
  procedural: number;
  preference: number;
}

/** Where an observation came from (μ in eq. (4)). All fields optional. */
export interface Provenance {
  /** Free label of the source: `'chat'`, `'tool'`, `'note'`, a file name... */
  source?: string;
  /**
   * Who said or produced it. A speaker with no visible character (`''`, white space, invisible
   * characters only) is taken as no speaker given (write/validate.ts): `add` writes none, and
   * `update` keeps the old version's, as when `speaker` is left out. Stored, it would name
   * nobody, yet match a `speaker: ''` filter and read as a name in logs and prompts.
   */
  speaker?: string;
  /** Conversation session the observation belongs to. */
  sessionId?: string;
  /** Caller's id of the turn, e.g. a LoCoMo `dia_id` (`"D3:7"`). */
  turnId?: string;
  /**
   * Free JSON-safe metadata. One field is read by the write path: `stateKey` (a string), the
   * explicit key a key-value adapter wrote the memory under (the LangGraph store's item key).
   * Memories with a `stateKey` are replaced only by memories of the same key, never by an
   * inferred state update from a memory of another key or of none (write/state-updates.ts
   * `sameStateKey`); `Memory.update` still replaces any memory.
   */
  metadata?: Record<string, unknown>;
}

/**
 * An observation o = (x, τ, μ), eq. (4): what a caller hands to `memory.add`.
 */
export interface Observation extends Provenance {
  /** x: the content, kept verbatim. Non-empty after trimming; at most `limits.maxTextChars`. */
  text: string;
  /**
   * τ: when it was said or happened, as an ISO-8601 string, a `Date` or epoch milliseconds
   * (a nonzero number under 1e11 is refused as epoch seconds; a written date such as
   * "March 1, 2024" is refused; one written year first, "2023/05/20 (Sat) 02:21", is read as the
   * ISO it spells: util/date-input.ts). Optional: nodes without it get no timestamp-based edges and no recency bonus.
   * An ISO string's UTC offset (`2024-03-10T07:30:00+09:00`) is kept as the speaker's local
   * offset; a time without an offset (and a `Date` or epoch ms) is UTC.
   */
  observedAt?: string | number | Date;
  /**
   * The speaker's IANA time zone (`"Asia/Tokyo"`), when known. Kept with the node; the zone's
   * offset at `observedAt` (daylight saving included) is the local offset, over any offset
   * written in the string. The instant itself is never moved by it (a time without an offset is
   * UTC).
   */
  timeZone?: string;
  /**
   * Scope (issue 23): the end user this memory belongs to. Kept in `provenance.metadata.userId`;
   * a non-empty string of at most 256 characters.
   */
  userId?: string;
  /** Scope: the agent that holds this memory. Kept in `provenance.metadata.agentId`. */
  agentId?: string;
  /**
   * The speaker's role in a chat, whatever the speaker's name: `'user'`, `'assistant'` (also
   * `'model'`, `'ai'`, `'bot'`), `'system'`, `'tool'`, or another label; a non-empty string of at
   * most 256 characters. Kept in `provenance.metadata.role` (a chat message `{ role, content,
   * name? }` keeps its `role` there too). A turn whose role is an assistant's holds no state of the
   * user: the automatic state-update decision neither supersedes it nor lets it supersede another
   * memory (write/state-updates.ts `holdsNoState`; without a role the speaker's name is read).
   * Without a `speaker`, the role is also the speaker (as a chat message without a `name`), so
   * recall reads a role-only history as one (read/guard.ts).
   */
  role?: string;
  /**
   * When the memory expires: an ISO-8601 instant or date (no offset = UTC), a `Date` or epoch
   * ms. Kept as ISO UTC in `provenance.metadata.expiresAt`. From then on (the memory's clock,
   * `now` of `createMemory`) `get`, `list`, `history`, `recall` and `answer` never return it,
   * and `maintain()` erases it exactly (as `delete`), as does the first call of a memory that
   * opens its namespace after then (memory/expiry.ts).
   */
  expiresAt?: string | number | Date;
}

/** A time expression found in a node's text, resolved against its `observedAt`. */
export interface TimeRef {
  /** The words as written ("last Friday"). */
  text: string;
  /** Resolved start, ISO-8601 (UTC). */
  start: string;
  /** Resolved end when the expression names a span, ISO-8601. */
  end?: string;
  /** Which parts were given explicitly rather than implied by the reference date. */
  certain: Array<'year' | 'month' | 'day' | 'hour'>;
  /**
   * How sure the resolution is, in [0,1] (util/time.ts `CERTAINTY`): 1 explicit, 0.9 relative to
   * the observation, lower for year-less dates and bare weekdays. Absent in stores written before
   * it existed (read with `certaintyOf`).
   */
  certainty?: number;
}

/** A time reference as recall returns it: the resolved interval and how certain it is. */
export interface RecalledTimeRef {
  /** The words as written ("yesterday"). */
  text: string;
  /** Start of the interval, ISO-8601 (UTC). */
  start: string;
  /** Last millisecond of the interval, ISO-8601 (UTC). */
  end: string;
  /** The interval in the speaker's local calendar: `2024-03-10`, `2024-08`, `2023`, or an hour. */
  when: string;
  /** Certainty in [0,1]. */
  certainty: number;
}

/** A stored embedding and the fingerprint of the encoder that made it. */
export interface StoredEmbedding {
  /** The encoder's fingerprint (see `Encoder.fingerprint`). */
  encoder: string;
  /** The vector, L2-normalised. */
  vector: number[];
}

/** A canonical memory node (SPEC 3). One per valid observation, never dropped at ingestion. */
export interface MemoryNode {
  id: string;
  namespace: string;
  /** Verbatim text. */
  text: string;
  /** τ as ISO-8601 (UTC), when the caller gave one. */
  observedAt?: string;
  /** The speaker's UTC offset at τ in minutes east of UTC (540 for +09:00); absent = UTC (older stores too). */
  utcOffsetMinutes?: number;
  /** The speaker's IANA time zone, when the caller gave one. */
  timeZone?: string;
  /** Wall-clock time of ingestion, ISO-8601. */
  ingestedAt: string;
  provenance: Provenance;
  /** Entity identifiers found in the text and provenance (lower-cased canonical names). */
  entities: string[];
  /** Salient keywords (stemmed, stop words removed). */
  keywords: string[];
  /** Time expressions in the text, resolved against `observedAt`. */
  timeRefs: TimeRef[];
  /** t(v), eq. (7). */
  types: MemoryTypes;
  embedding: StoredEmbedding;
  status: NodeStatus;
  /** Ids of the nodes that supersede this one. */
  supersededBy: string[];
  /** Monotonic insertion sequence inside the namespace (1-based). */
  seq: number;
  /** Provenance of exact repeats merged into this node (SPEC lifecycle: dedup keeps provenance). */
  duplicates?: Array<Provenance & { ingestedAt: string }>;
}

/** Who made an edge: a deterministic rule or a System-One decision. */
export interface EdgeOrigin {
  kind: 'rule' | 'system-one';
  /** Rule name (`consecutive-turns`) or System-One model id. */
  by: string;
}

/** A typed, directed edge between two nodes of one namespace (SPEC 3). */
export interface MemoryEdge {
  id: string;
  namespace: string;
  from: string;
  to: string;
  view: View;
  subtype: EdgeSubtype;
  /** π_e in [0,1]. */
  weight: number;
  origin: EdgeOrigin;
  createdAt: string;
}

/** A memory returned by recall. */
export interface RecalledMemory {
  id: string;
  text: string;
  /** τ, ISO-8601 (UTC). */
  observedAt?: string;
  /** τ in the speaker's local time (`2024-03-10T07:30:00+09:00`; ends in `Z` when UTC). */
  observedAtLocal?: string;
  /** The speaker's IANA zone, when it was given. */
  timeZone?: string;
  /** Resolved time references of the text (event time), in text order. */
  timeRefs: RecalledTimeRef[];
  /**
   * The final score, in [0,1], that recall orders the memories by (eq. (23)-(25) with the
   * guard, the time window, supersession and the lifts of read/recalled.ts; divided by the best
   * when a lift takes it above 1): it never rises down the list. `minScore` of recall and answer
   * compares with it, so a cut keeps a prefix of the ranking. Its level depends on the namespace
   * and the other candidates: compare it within one result.
   */
  score: number;
  /**
   * System One's own estimate, in [0,1], that this memory alone is evidence for the query: a_v of
   * eq. (23) (its answer to `cand.relevance`, the last round's when it was reassessed) through the
   * Platt calibration fitted for the configured System-One model on LoCoMo DEV (memory/relevance.ts;
   * a model without a fit reports a_v as it is). It is one term of `score`, not the ranking: it
   * reads the memory with System One's features only, so it can be near 0 for the memory ranked
   * first (a wording those features miss, another language, a replacement that names no part of
   * the question: "Where do I live?" → "we're moving to Dublin", 0.003) and high for a memory
   * ranked lower (a replaced one). Calibrated on LoCoMo's English conversations: elsewhere read it
   * as an indication. No filter compares with it alone; `answer`'s default evidence reads it
   * (memory/relevance.ts `answerEvidence`).
   */
  relevance?: number;
  provenance: Provenance;
  status: NodeStatus;
  /**
   * For superseded memories: the time they were replaced (their "as of" limit), ISO-8601 UTC: the
   * replacing memory's `observedAt`, else its ingestion time (the memory's clock, `now`).
   */
  supersededAt?: string;
  /**
   * `supersededAt` in local time (`2024-06-02T18:00:00+09:00`): at the replacing memory's UTC
   * offset when it has one (its `observedAt` was given with an offset or `timeZone`), else at
   * this memory's own offset, the one of its `observedAtLocal`.
   */
  supersededAtLocal?: string;
  types: MemoryTypes;
  /**
   * Provenance of the exact repeats merged into this memory (`Memory.add`: same text, time,
   * source, scope, metadata and speaker), in the order they were written, each with its
   * `ingestedAt`, as `get` gives it (`MemoryNode.duplicates`): a caller that maps turn ids to
   * memories finds a repeated turn's id here. Absent when the memory has no repeats.
   */
  duplicates?: Array<Provenance & { ingestedAt: string }>;
}
