/**
 * Limits of an observation's `metadata` (issue 22, bounded resources): it is stored with every
 * node, copied into every export and parsed at every load, so its size and nesting are bounded.
 *
 * @module
 */
import { JevMemError, invalidInput, isJevMemError } from '../errors.js';

/** Largest `metadata`, as UTF-8 bytes of its JSON (16 KiB). */
export const MAX_METADATA_BYTES = 16 * 1024;

/** Deepest nesting of objects and arrays in `metadata`, the metadata object itself counting 1. */
export const MAX_METADATA_DEPTH = 16;

const utf8 = new TextEncoder();

/**
 * The kind of a non-plain object (`Map`, `Set`, `Uint8Array`, a class instance's class name) that
 * JSON would store changed (a Map or Set as `{}`, a typed array as an object of indexes), or
 * `undefined` for a plain object (of any realm, or with a null prototype), an array or a `Date`
 * (stored as its ISO-8601 UTC string, as JSON writes it).
 */
function notPlain(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object Date]') return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null || Object.getPrototypeOf(proto) === null) return undefined;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : tag.slice(8, -1);
}

/** What JSON would make of `value` (for the message), or `'(unwritable)'`. */
function safeJson(value: unknown): unknown {
  try {
    const s = JSON.stringify(value);
    return s === undefined ? undefined : s.length > 40 ? `${s.slice(0, 40)}…` : JSON.parse(s);
  } catch {
    return '(unwritable)';
  }
}

/**
 * Depth of objects and arrays under `value` (1 for `{}`), walking at most one level past
 * `limit`; refuses, with its path (`path`) in the message, a value JSON would change or drop without a word: a
 * function, a symbol, a BigInt, or a number that is not finite (`NaN` would come back `null`).
 */
function depthOf(value: unknown, field: string, path: string, ancestors: Set<object>, limit: number): number {
  const at = path === field ? '' : ` (at ${path})`;
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    throw invalidInput(field, `must be JSON-serialisable; got a ${typeof value}${at}`);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw invalidInput(field, `must hold finite numbers only; got ${String(value)}${at}, which JSON stores as null`);
  if (value === null || typeof value !== 'object') return 0;
  const kind = notPlain(value);
  if (kind !== undefined) {
    throw invalidInput(field, `must hold plain objects, arrays, strings, numbers, booleans, null or Dates; got a ${kind}${at}, which JSON would store as ${JSON.stringify(safeJson(value))}; convert it first (Object.fromEntries(map), [...set], Array.from(bytes))`);
  }
  if (ancestors.has(value)) throw invalidInput(field, `must be JSON-serialisable (it refers to itself${path === field ? '' : ` at ${path}`})`);
  if (ancestors.size >= limit) return ancestors.size + 1;
  ancestors.add(value);
  let deepest = 0;
  const array = Array.isArray(value);
  for (const [key, child] of Object.entries(value)) {
    deepest = Math.max(deepest, depthOf(child, field, array ? `${path}[${key}]` : `${path}.${key}`, ancestors, limit));
    if (deepest + 1 > limit) break;
  }
  ancestors.delete(value);
  return deepest + 1;
}

/**
 * Checks an observation's metadata and returns a JSON copy of it (what `JSON.stringify` keeps:
 * a `Date` becomes its ISO-8601 UTC string, and comes back as that string), its keys in Unicode
 * form NFC ({@link nfcKeys}).
 * @param value - The caller's metadata: a plain object.
 * @param field - The path in errors (`observation.metadata`).
 * @throws JevMemError `INVALID_INPUT` naming `field` (the message gives the path inside it,
 *   `field.a.b[2]`) when it is not a plain object, refers to itself, is nested deeper than {@link MAX_METADATA_DEPTH}
 *   levels, holds a function, symbol, BigInt or non-finite number, or an object that is not a plain
 *   object, an array or a Date (a Map, Set, typed array or class instance, which JSON would store
 *   changed: a Map as `{}`), or cannot be written as JSON, or has two
 *   keys that differ only by Unicode normalisation; `TOO_LARGE` naming `field` when its JSON is over {@link MAX_METADATA_BYTES} bytes.
 */
export function checkMetadata(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidInput(field, 'expected a plain object');
  let json: string;
  try {
    const depth = depthOf(value, field, field, new Set(), MAX_METADATA_DEPTH);
    if (depth > MAX_METADATA_DEPTH) throw invalidInput(field, `is nested more than ${MAX_METADATA_DEPTH} levels deep; flatten it`);
    json = JSON.stringify(value);
  } catch (e) {
    // A getter or proxy that throws while it is read.
    if (isJevMemError(e)) throw e;
    throw invalidInput(field, `must be JSON-serialisable (${e instanceof Error ? e.message : String(e)})`);
  }
  const bytes = utf8.encode(json).length;
  if (bytes > MAX_METADATA_BYTES) {
    throw new JevMemError('TOO_LARGE', `${field}: ${bytes} bytes as JSON is over the limit of ${MAX_METADATA_BYTES} (16 KiB); keep large data outside the memory and store a reference`, { field });
  }
  return nfcKeys(JSON.parse(json), field, field) as Record<string, unknown>;
}

/**
 * `value` (a JSON copy) with every object key in Unicode form NFC (issue 22): `"é"` typed as
 * `e` + U+0301 (NFD, as macOS input and file names often give it) and as U+00E9 are one key, so
 * a filter written either way finds it (the filter normalises its keys too, read/filter.ts).
 * Values are kept as given. Changes `value` in place.
 * @throws JevMemError `INVALID_INPUT` naming `field` (the message gives the path) when two keys
 *   of one object differ only by normalisation.
 */
function nfcKeys(value: unknown, field: string, path: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    value.forEach((v, i) => (value[i] = nfcKeys(v, field, `${path}[${i}]`)));
    return value;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.every((k) => k.normalize('NFC') === k)) {
    for (const k of keys) o[k] = nfcKeys(o[k], field, `${path}.${k}`);
    return o;
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const nfc = k.normalize('NFC');
    if (Object.hasOwn(out, nfc)) throw invalidInput(field, `holds two keys that are the same text in Unicode form NFC (${JSON.stringify(nfc)}) at ${path}; keep one`);
    out[nfc] = nfcKeys(o[k], field, `${path}.${nfc}`);
  }
  return out;
}
