/**
 * The versioned export file of one namespace (issue 7 item 3): nodes, edges, embeddings with the
 * encoder fingerprint, and the System-One model version. Loading checks every record, so a
 * damaged or hostile file is refused with an error naming the first bad field before anything is
 * written, and refuses unknown formats and newer versions.
 *
 * @module
 */
import { JevMemError, describeValue, invalidInput } from '../../errors.js';
import { VIEWS, type EdgeSubtype, type MemoryEdge, type MemoryNode } from '../../types.js';

/** Format tag of export files. */
export const EXPORT_FORMAT = 'jev-mem/export' as const;
/** Current export version. Files of a higher version are refused. */
export const EXPORT_VERSION = 1 as const;

/**
 * An export file (JSON). `meta` is the namespace's meta, including its `schemaVersion` (see
 * `plane/store/schema.ts`); importing migrates an older one and refuses a newer one.
 */
export interface MemoryExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  namespace: string;
  /** ISO-8601. */
  exportedAt: string;
  /** Fingerprint of the encoder that made every embedding. */
  encoder: string;
  /** System-One model id (versioned) of the memory that exported the file. */
  systemOne: string;
  /** Nodes in `seq` order, embeddings included. */
  nodes: MemoryNode[];
  edges: MemoryEdge[];
  meta: Record<string, unknown>;
  /**
   * Ids of the nodes the store holds damaged (failed their checksum or could not be read; issue
   * 22), left out of `nodes`; absent when none. Import ignores it.
   */
  damaged?: string[];
  /**
   * How many edges of the namespace were left out of `edges` because a node at one end is not
   * in the file although it is no expired memory (a damaged node, listed in `damaged`: `jev-mem
   * repair` drops its edges too; issue 22). Absent when none. Import ignores it.
   */
  edgesLeftOut?: number;
  /**
   * Edges the store's kept counter holds that the export's read of the namespace did not reach
   * (a damaged page hides their adjacency records; issue 22). Absent when none. Import ignores it.
   */
  edgesUnread?: number;
  /**
   * The hash of each node's text when it was exported (node id → `textKey(text)`, util/hash.ts),
   * so an import can tell a text edited in the file since (memory/text-edits.ts: its embedding,
   * keywords, entities and time references are derived again). Absent in exports written before
   * this field: such a file is imported as is.
   */
  textHashes?: Record<string, string>;
}

const STATUSES = new Set(['active', 'superseded']);
const SUBTYPES = new Set<EdgeSubtype>([
  'precedes',
  'same_session',
  'close_in_time',
  'before',
  'after',
  'during',
  'contains',
  'overlaps',
  'same_time',
  'leads_to',
  'related',
  'redundant',
  'contradicts',
  'updates',
  'same_entity',
]);
const TYPE_KEYS = ['episodic', 'semantic', 'procedural', 'preference'] as const;
const PROVENANCE_STRINGS = ['source', 'speaker', 'sessionId', 'turnId'] as const;

/** Largest finite float32: vectors are held as Float32Array, where larger numbers become Infinity. */
const FLOAT32_MAX = 3.4028234663852886e38;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 1000;

/**
 * Checks an id of the file (a node's `id`, an edge's `id`, `from`, `to`): a non-empty string of at
 * most 1000 characters with no control character. The ids this library makes never hold one; a
 * NUL or a newline in an edited file would let two ids look alike (`"a\u0000b"` prints as `"a"`),
 * as every other text field of a record refuses them.
 */
function checkId(v: unknown, field: string): void {
  if (!isId(v)) throw invalidInput(field, 'expected a non-empty string of at most 1000 characters');
  const cc = v.match(/\p{Cc}/u)?.[0];
  if (cc !== undefined) throw invalidInput(field, `contains a control character (U+${(cc.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}): ${JSON.stringify(v)}; an id this library writes never holds one`);
}
const isTime = (v: unknown): v is string => typeof v === 'string' && Number.isFinite(Date.parse(v));
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isProbability = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;

function checkProvenance(p: unknown, field: string): void {
  if (!isObject(p)) throw invalidInput(field, 'expected an object');
  for (const k of PROVENANCE_STRINGS) {
    if (p[k] !== undefined && typeof p[k] !== 'string') throw invalidInput(`${field}.${k}`, `expected a string, got ${typeof p[k]}`);
  }
  if (p.metadata !== undefined && !isObject(p.metadata)) throw invalidInput(`${field}.metadata`, 'expected a plain object');
}

function checkNode(n: unknown, field: string): void {
  if (!isObject(n)) throw invalidInput(field, 'expected a node object');
  checkId(n.id, `${field}.id`);
  // The rest of the text's rules (blank, length), and those of the provenance and metadata, are
  // add's own, applied by the import (memory/transfer.ts `checkImportedNode`).
  if (typeof n.text !== 'string') throw invalidInput(`${field}.text`, `expected a string, got ${describeValue(n.text)}`);
  if (n.observedAt !== undefined && !isTime(n.observedAt)) throw invalidInput(`${field}.observedAt`, `expected an ISO-8601 time, got ${JSON.stringify(n.observedAt)}`);
  if (n.utcOffsetMinutes !== undefined && !(Number.isInteger(n.utcOffsetMinutes) && Math.abs(n.utcOffsetMinutes as number) <= 18 * 60)) throw invalidInput(`${field}.utcOffsetMinutes`, `expected whole minutes within ±1080, got ${JSON.stringify(n.utcOffsetMinutes)}`);
  if (n.timeZone !== undefined && typeof n.timeZone !== 'string') throw invalidInput(`${field}.timeZone`, `expected an IANA zone name, got ${JSON.stringify(n.timeZone)}`);
  if (!isTime(n.ingestedAt)) throw invalidInput(`${field}.ingestedAt`, `expected an ISO-8601 time, got ${JSON.stringify(n.ingestedAt)}`);
  checkProvenance(n.provenance, `${field}.provenance`);
  if (!isStringArray(n.entities)) throw invalidInput(`${field}.entities`, 'expected an array of strings');
  if (!isStringArray(n.keywords)) throw invalidInput(`${field}.keywords`, 'expected an array of strings');
  if (!Array.isArray(n.timeRefs) || !n.timeRefs.every((t) => isObject(t) && typeof t.text === 'string' && isTime(t.start) && (t.end === undefined || isTime(t.end)) && isStringArray(t.certain) && (t.certainty === undefined || isProbability(t.certainty)))) {
    throw invalidInput(`${field}.timeRefs`, 'expected an array of { text, start, end?, certain, certainty? }');
  }
  if (!isObject(n.types) || !TYPE_KEYS.every((k) => isProbability((n.types as Record<string, unknown>)[k]))) {
    throw invalidInput(`${field}.types`, `expected { ${TYPE_KEYS.join(', ')} } with probabilities in [0,1]`);
  }
  const emb = n.embedding;
  if (!isObject(emb) || typeof emb.encoder !== 'string' || !Array.isArray(emb.vector) || !emb.vector.every((x) => typeof x === 'number' && Math.abs(x) <= FLOAT32_MAX)) {
    throw invalidInput(`${field}.embedding`, 'expected { encoder: string, vector: finite numbers within float32 range }');
  }
  // A deleted memory is erased from the store, never exported: 'deleted' in a file was written
  // by hand, and such a node would be hidden from recall yet returned by get.
  if (n.status === 'deleted') throw invalidInput(`${field}.status`, 'a deleted memory is never exported (delete erases it); remove the node from the file, or set "active"');
  if (typeof n.status !== 'string' || !STATUSES.has(n.status)) throw invalidInput(`${field}.status`, `expected active or superseded, got ${JSON.stringify(n.status)}`);
  if (!isStringArray(n.supersededBy)) throw invalidInput(`${field}.supersededBy`, 'expected an array of node ids');
  if (typeof n.seq !== 'number' || !Number.isSafeInteger(n.seq) || n.seq < 1) throw invalidInput(`${field}.seq`, `expected a positive integer, got ${JSON.stringify(n.seq)}`);
  if (n.duplicates !== undefined) {
    if (!Array.isArray(n.duplicates)) throw invalidInput(`${field}.duplicates`, 'expected an array');
    n.duplicates.forEach((d, j) => {
      checkProvenance(d, `${field}.duplicates[${j}]`);
      if (!isTime((d as Record<string, unknown>).ingestedAt)) throw invalidInput(`${field}.duplicates[${j}].ingestedAt`, 'expected an ISO-8601 time');
    });
  }
}

function checkEdge(e: unknown, field: string): void {
  if (!isObject(e)) throw invalidInput(field, 'expected an edge object');
  for (const k of ['id', 'from', 'to'] as const) checkId(e[k], `${field}.${k}`);
  if (typeof e.view !== 'string' || !(VIEWS as readonly string[]).includes(e.view)) throw invalidInput(`${field}.view`, `expected one of ${VIEWS.join(', ')}, got ${JSON.stringify(e.view)}`);
  if (typeof e.subtype !== 'string' || !SUBTYPES.has(e.subtype as EdgeSubtype)) throw invalidInput(`${field}.subtype`, `unknown subtype ${JSON.stringify(e.subtype)}`);
  if (!isProbability(e.weight)) throw invalidInput(`${field}.weight`, `expected a weight in [0,1], got ${JSON.stringify(e.weight)}`);
  if (!isObject(e.origin) || (e.origin.kind !== 'rule' && e.origin.kind !== 'system-one') || typeof e.origin.by !== 'string') {
    throw invalidInput(`${field}.origin`, "expected { kind: 'rule' | 'system-one', by: string }");
  }
  if (!isTime(e.createdAt)) throw invalidInput(`${field}.createdAt`, 'expected an ISO-8601 time');
}

/**
 * Checks that `value` is an export file this build can read: the header, then every node and
 * edge (shapes, ids without control characters, times, probabilities, finite vectors, a node
 * status `active` or `superseded`: a deleted memory is never exported) and that node and edge
 * ids are unique. What holds across records (unique `seq`, `supersededBy` and edge ends naming
 * nodes of the file) is the import's to rebuild (memory/import-repair.ts).
 * Cost: O(size of the file).
 * @returns `value`, typed.
 * @throws JevMemError `INVALID_INPUT` naming the first bad field (`export.nodes[3].seq`), or
 *   `SCHEMA_MISMATCH` (export version newer than {@link EXPORT_VERSION}).
 */
export function checkExport(value: unknown): MemoryExport {
  if (!isObject(value)) throw invalidInput('export', 'expected a jev-mem export object');
  const v = value as Partial<MemoryExport>;
  if (v.format !== EXPORT_FORMAT) throw invalidInput('export.format', `expected "${EXPORT_FORMAT}", got ${JSON.stringify(v.format)}`);
  if (typeof v.version !== 'number' || !Number.isInteger(v.version) || v.version < 1) throw invalidInput('export.version', `expected a positive integer, got ${JSON.stringify(v.version)}`);
  if (v.version > EXPORT_VERSION) {
    throw new JevMemError('SCHEMA_MISMATCH', `export version ${v.version} is newer than this build reads (${EXPORT_VERSION}); upgrade jev-mem`, { field: 'export.version' });
  }
  if (typeof v.namespace !== 'string' || v.namespace.trim() === '') throw invalidInput('export.namespace', 'expected a non-empty string');
  if (typeof v.encoder !== 'string') throw invalidInput('export.encoder', 'expected the encoder fingerprint');
  if (!Array.isArray(v.nodes)) throw invalidInput('export.nodes', 'expected an array');
  if (!Array.isArray(v.edges)) throw invalidInput('export.edges', 'expected an array');
  if (v.meta !== undefined && !isObject(v.meta)) throw invalidInput('export.meta', 'expected a plain object');
  const ids = new Set<string>();
  v.nodes.forEach((n, i) => {
    checkNode(n, `export.nodes[${i}]`);
    if (ids.has(n.id)) throw invalidInput(`export.nodes[${i}].id`, `node id ${JSON.stringify(n.id)} appears twice`);
    ids.add(n.id);
  });
  const edgeIds = new Set<string>();
  v.edges.forEach((e, i) => {
    checkEdge(e, `export.edges[${i}]`);
    if (edgeIds.has(e.id)) throw invalidInput(`export.edges[${i}].id`, `edge id ${JSON.stringify(e.id)} appears twice`);
    edgeIds.add(e.id);
  });
  return v as MemoryExport;
}
