/**
 * The metadata filter of `list` and `recall` (issue 23): a small, documented query language over
 * a node's provenance and metadata, compiled once per call into a predicate. Recall applies it
 * to its candidates (anchor pools and final ranking, as the time window), list to the pages it
 * reads; it never changes a score.
 *
 * **Fields.** A key names one value of the node:
 * - `speaker`, `source`, `sessionId`, `turnId` (provenance), `observedAt`, `ingestedAt` (ISO
 *   strings), `status` (`'active'` / `'superseded'`): the node's own fields; `observedAt` is the
 *   memory's time, its `ingestedAt` when it was written without one (as the time window reads it);
 * - `metadata.a.b`: the path `a.b` inside `provenance.metadata` (the way to name a metadata key
 *   that begins with `$`, which a bare key would read as an operator: `metadata.$x`);
 * - any other key `k`: `provenance.metadata[k]` (so the scope fields `userId`, `agentId` and the
 *   expiry `expiresAt`, kept in metadata by the memory, are filtered as `userId`, …).
 * A key is read in Unicode form NFC, the form metadata keys are stored in (util/metadata.ts), so
 * `"é"` typed decomposed (NFD) finds the key written composed. String values are compared in NFC
 * too (a `speaker` or `userId` typed either way, stored either way, is one value).
 *
 * **Conditions.** A field's condition is a literal (string, number, boolean, null: equality; a
 * stored array matches when one element equals it) or an object of operators, all of which must
 * hold: `$eq`, `$ne`, `$in` (array of literals), `$nin`, `$exists` (boolean), and `$gt`, `$gte`,
 * `$lt`, `$lte` with a number (compared with stored numbers) or an ISO-8601 date / instant
 * (`"2024-03-01"`, `"2024-03-01T10:00:00+02:00"`; compared as instants with stored ISO strings),
 * read by the one date parser of options and filters (util/date-input.ts: a day that does not
 * exist, such as `"2024-02-30"`, is refused). On the time fields {@link TIME_FILTER_FIELDS}
 * (`observedAt`, `ingestedAt`, `expiresAt`) a number bound is epoch ms, as in recall's
 * `after` / `before`.
 * A value that cannot be compared (a string for a numeric bound) does not match. An absent
 * field matches only `$exists: false`, `$ne` and `$nin`.
 *
 * **Combinators.** The keys of one object must all hold (and); `$and: [f, …]`, `$or: [f, …]`,
 * `$not: f` combine filters. Bounds: {@link MAX_FILTER_DEPTH} levels, {@link MAX_FILTER_TERMS}
 * conditions, {@link MAX_IN_VALUES} values per `$in`/`$nin`.
 *
 * @example `{ userId: 'alice', $or: [{ speaker: 'Caroline' }, { 'metadata.topic': { $in: ['pets', 'home'] } }], observedAt: { $gte: '2023-05-01' } }`
 * @module
 */
import { describeValue, invalidInput } from '../errors.js';
import { ISO_DAY, parseDateInput, strictIsoMs } from '../util/date-input.js';
import type { MemoryNode } from '../types.js';
import { nfc } from '../util/nfc.js';

/** A literal a condition compares with. */
export type FilterLiteral = string | number | boolean | null;

/** Operators of one field's condition (all given must hold). */
export interface FilterOperators {
  $eq?: FilterLiteral;
  $ne?: FilterLiteral;
  $in?: FilterLiteral[];
  $nin?: FilterLiteral[];
  $exists?: boolean;
  /** A number, or an ISO-8601 date / instant string. */
  $gt?: number | string;
  $gte?: number | string;
  $lt?: number | string;
  $lte?: number | string;
}

/** A filter over nodes (see the module note for fields, operators and bounds). */
export interface MemoryFilter {
  $and?: MemoryFilter[];
  $or?: MemoryFilter[];
  $not?: MemoryFilter;
  [field: string]: FilterLiteral | FilterOperators | MemoryFilter[] | MemoryFilter | undefined;
}

/** A compiled filter. */
export type NodePredicate = (node: MemoryNode) => boolean;

/** Deepest nesting of `$and` / `$or` / `$not`. */
export const MAX_FILTER_DEPTH = 8;
/** Most field conditions in one filter. */
export const MAX_FILTER_TERMS = 64;
/** Most values in one `$in` / `$nin`. */
export const MAX_IN_VALUES = 1000;

/** The node fields a filter key names directly (others are metadata keys). */
export const NODE_FILTER_FIELDS = ['speaker', 'source', 'sessionId', 'turnId', 'observedAt', 'ingestedAt', 'status'] as const;

/** The fields whose number bounds are epoch ms (the time fields; other numbers compare with stored numbers). */
export const TIME_FILTER_FIELDS = ['observedAt', 'ingestedAt', 'expiresAt'] as const;

const OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$exists', '$gt', '$gte', '$lt', '$lte']);

/** Epoch ms of a strict ISO-8601 date or instant (no offset = UTC; util/date-input.ts), else undefined. */
export function isoMs(value: unknown): number | undefined {
  return typeof value === 'string' ? strictIsoMs(value) : undefined;
}

/** The value a filter key names in a node (undefined when absent). */
export function fieldValue(node: MemoryNode, key: string): unknown {
  switch (key) {
    case 'speaker':
    case 'source':
    case 'sessionId':
    case 'turnId':
      return node.provenance[key];
    case 'observedAt':
      // The memory's time, as the time window and state updates read it: observedAt, else the
      // time it was written (an observation given without observedAt is timed at ingestion).
      return node.observedAt ?? node.ingestedAt;
    case 'ingestedAt':
    case 'status':
      return node[key];
  }
  let v: unknown = node.provenance.metadata;
  for (const part of key.startsWith('metadata.') ? key.slice('metadata.'.length).split('.') : [key]) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function isLiteral(v: unknown): v is FilterLiteral {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Equality of a stored value with a literal (given in NFC, {@link checkLiteral}): strings are
 * compared in Unicode form NFC, so `"Jose\u0301"` stored by a version that kept ids as given
 * matches a filter or scope `"José"`, and the other way round (util/nfc.ts).
 */
function equals(stored: unknown, lit: FilterLiteral): boolean {
  if (Array.isArray(stored)) return stored.some((x) => same(x, lit));
  return same(stored, lit);
}

function same(stored: unknown, lit: FilterLiteral): boolean {
  return stored === lit || (typeof stored === 'string' && typeof lit === 'string' && stored.normalize('NFC') === lit);
}

/** A comparison bound: a number, or an ISO instant (compared in ms). */
type Bound = { kind: 'number'; value: number } | { kind: 'time'; value: number };

function compare(stored: unknown, b: Bound): number | undefined {
  if (b.kind === 'number') return typeof stored === 'number' && Number.isFinite(stored) ? stored - b.value : undefined;
  const ms = isoMs(stored);
  return ms === undefined ? undefined : ms - b.value;
}

/** For a bound given as a string that reads as a number (`"3"`): how to compare with numbers. */
function numericHint(arg: unknown): string {
  return typeof arg === 'string' && arg.trim() !== '' && Number.isFinite(Number(arg)) ? `; to compare with stored numbers give a number (${Number(arg)}), not a string` : '';
}

interface Budget {
  terms: number;
}

function checkLiteral(v: unknown, field: string): FilterLiteral {
  if (!isLiteral(v)) throw invalidInput(field, `expected a string, a finite number, a boolean or null, got ${describeValue(v)}`);
  return nfc(v);
}

function compileField(given: string, cond: unknown, field: string, budget: Budget): NodePredicate {
  const key = given.normalize('NFC'); // stored metadata keys are NFC (util/metadata.ts)
  if (key === '') throw invalidInput(field, 'empty field name; use $and, $or, $not, or a field name');
  // A metadata key that begins with `$` (accepted on write) is named by its path: `metadata.$x`.
  if (key.startsWith('$')) throw invalidInput(field, `unknown operator ${JSON.stringify(key)}; use $and, $or, $not, or a field name (a metadata key that begins with "$" is filtered by its path: ${JSON.stringify(`metadata.${key}`)})`);
  if (++budget.terms > MAX_FILTER_TERMS) throw invalidInput(field, `a filter holds at most ${MAX_FILTER_TERMS} conditions`);
  if (isLiteral(cond)) {
    const lit = nfc(cond);
    return (n) => equals(fieldValue(n, key), lit);
  }
  if (cond === null || typeof cond !== 'object' || Array.isArray(cond)) throw invalidInput(field, `expected a literal or an object of operators ($eq, $in, $exists, $gt, …), got ${describeValue(cond)}`);
  const tests: Array<(v: unknown) => boolean> = [];
  for (const [op, arg] of Object.entries(cond)) {
    const f = `${field}.${op}`;
    if (!OPERATORS.has(op)) throw invalidInput(f, `unknown operator; expected one of ${[...OPERATORS].join(', ')}`);
    if (op === '$eq' || op === '$ne') {
      const lit = checkLiteral(arg, f);
      tests.push(op === '$eq' ? (v) => v !== undefined && equals(v, lit) : (v) => v === undefined || !equals(v, lit));
    } else if (op === '$in' || op === '$nin') {
      if (!Array.isArray(arg)) throw invalidInput(f, `expected an array of literals, got ${describeValue(arg)}`);
      if (arg.length > MAX_IN_VALUES) throw invalidInput(f, `holds ${arg.length} values; at most ${MAX_IN_VALUES}`);
      const lits = arg.map((x, i) => checkLiteral(x, `${f}[${i}]`));
      tests.push(op === '$in' ? (v) => v !== undefined && lits.some((l) => equals(v, l)) : (v) => v === undefined || !lits.some((l) => equals(v, l)));
    } else if (op === '$exists') {
      if (typeof arg !== 'boolean') throw invalidInput(f, `expected true or false, got ${describeValue(arg)}`);
      tests.push((v) => (v !== undefined) === arg);
    } else {
      let b: Bound;
      const timeField = (TIME_FILTER_FIELDS as readonly string[]).includes(key);
      if (typeof arg === 'number' && Number.isFinite(arg) && !timeField) b = { kind: 'number', value: arg };
      // A time field takes a date or epoch ms (the date parser's own message); another field a
      // string only when it reads as a date ("2024-02-30" is named as a day that does not exist).
      else if (timeField ? typeof arg === 'number' || typeof arg === 'string' : typeof arg === 'string' && ISO_DAY.test(arg)) b = { kind: 'time', value: parseDateInput(arg, f) };
      else throw invalidInput(f, `expected a finite number or an ISO-8601 date/instant such as "2024-03-01", got ${describeValue(arg)}${numericHint(arg)}`);
      const ok = op === '$gt' ? (d: number) => d > 0 : op === '$gte' ? (d: number) => d >= 0 : op === '$lt' ? (d: number) => d < 0 : (d: number) => d <= 0;
      tests.push((v) => {
        const d = compare(v, b);
        return d !== undefined && ok(d);
      });
    }
  }
  return (n) => {
    const v = fieldValue(n, key);
    return tests.every((t) => t(v));
  };
}

function compileFilter(filter: unknown, field: string, depth: number, budget: Budget): NodePredicate {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw invalidInput(field, `expected a filter object, got ${describeValue(filter)}`);
  if (depth > MAX_FILTER_DEPTH) throw invalidInput(field, `is nested more than ${MAX_FILTER_DEPTH} levels deep`);
  const parts: NodePredicate[] = [];
  for (const [key, value] of Object.entries(filter)) {
    const f = `${field}.${key}`;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw invalidInput(f, `expected a non-empty array of filters, got ${describeValue(value)}`);
      const subs = value.map((x, i) => compileFilter(x, `${f}[${i}]`, depth + 1, budget));
      parts.push(key === '$and' ? (n) => subs.every((s) => s(n)) : (n) => subs.some((s) => s(n)));
    } else if (key === '$not') {
      const sub = compileFilter(value, f, depth + 1, budget);
      parts.push((n) => !sub(n));
    } else if (value === undefined) {
      // An unset variable must not widen the selection (a reset or recall meant for one user
      // would reach every user's memories).
      throw invalidInput(f, 'is undefined: leave the key out, or match memories without it with { $exists: false }');
    } else {
      parts.push(compileField(key, value, f, budget));
    }
  }
  return (n) => parts.every((p) => p(n));
}

/**
 * Compiles a filter into a predicate over nodes.
 * @param filter - The caller's filter (see the module note).
 * @param field - Its path in errors (`options.filter`).
 * @throws JevMemError `INVALID_INPUT` naming the offending path (`options.filter.$or[1].age.$gt`):
 *   an unknown operator, a bound that is neither a number nor an ISO date, a bad literal, a key
 *   whose value is `undefined`, an empty `$and`/`$or`, or a filter over the bounds.
 */
export function compileNodeFilter(filter: unknown, field: string): NodePredicate {
  return compileFilter(filter, field, 1, { terms: 0 });
}
