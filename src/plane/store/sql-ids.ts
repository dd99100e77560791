/**
 * Namespace ids, node slots and the origin dictionary of the SQL store (`sql-storage.ts`): the
 * integer keys every row is stored under (`names.ns`, `ids.slot`, `dict.code`), looked up one by
 * one or many per statement, made when missing, and cached for the running write transaction
 * (slots) or the connection (dictionary codes).
 *
 * @module
 */
import { quoteVisible } from '../../util/invisible.js';
import { checkNamespaceName } from './names.js';
import { num } from './sql-codec.js';
import { MAX_BINDINGS, type SqlRow, chunked, placeholders } from './sql-schema.js';
import type { SqlSession } from './sql-session.js';

/** The id lookups of one session (see the module header). */
export interface SqlIds {
  /**
   * The id of namespace `name`, or undefined when the store does not hold it. A driver may bind a
   * string only up to its first NUL (node-sqlite3-wasm does), so the name read back must equal
   * the name asked for: `"alice\u0000x"` never finds `"alice"`.
   */
  nsId(name: string): number | undefined;
  /**
   * The id of namespace `name`, made when missing: a new name must pass the rule of names.ts,
   * unless it is `carried` over from an older layout of this store (kept as it was, so it stays
   * listable, exportable and forgettable; a name that cannot be stored whole is refused).
   */
  ensureNs(name: string, carried?: boolean): number;
  /** The slot of node id `id` in namespace `ns`, or undefined when none. */
  slotOf(ns: number, id: string): number | undefined;
  /** The slot of node id `id` in namespace `ns`, made when missing. */
  ensureSlot(ns: number, id: string): number;
  /** Slots of many ids: id → slot (unknown ids left out). */
  slotsOf(ns: number, ids: readonly string[]): Map<string, number>;
  /** Puts the slots of these ids in the transaction's slot cache, a statement per {@link MAX_BINDINGS} ids. */
  prefetchSlots(ns: number, ids: Iterable<string>): void;
  /** Ids of many slots. */
  idsOf(slots: Iterable<number>): Map<number, string>;
  /** The dictionary code of an origin (JSON text), made when missing. */
  intern(value: string): number;
  /** The origin (JSON text) of a dictionary code. @throws Error when the code is not there. */
  lookup(code: number): string;
}

/** The id lookups over session `s`. */
export function createSqlIds(s: SqlSession): SqlIds {
  const { q, t, txSlots, dictByCode, dictByValue } = s;
  const nsId = (name: string): number | undefined => {
    if (name.includes('\u0000')) return undefined;
    const r = q(`SELECT ns, name FROM ${t.names} WHERE name = ?`, [name])[0];
    return r === undefined || r.name !== name ? undefined : num(r.ns);
  };
  const slotOf = (ns: number, id: string): number | undefined => {
    const key = `${ns}:${id}`;
    if (txSlots.on && (txSlots.found.has(key) || txSlots.none.has(key))) return txSlots.found.get(key);
    const r = q(`SELECT slot FROM ${t.ids} WHERE ns = ? AND id = ?`, [ns, id])[0];
    if (r === undefined) return undefined;
    const slot = num(r.slot);
    if (txSlots.on) txSlots.found.set(key, slot);
    return slot;
  };
  const slotsOf = (ns: number, ids: readonly string[]): Map<string, number> => {
    const out = new Map<string, number>();
    for (const part of chunked([...new Set(ids)], MAX_BINDINGS)) {
      for (const r of q(`SELECT slot, id FROM ${t.ids} WHERE ns = ? AND id IN (${placeholders(part.length)})`, [ns, ...part])) out.set(String(r.id), num(r.slot));
    }
    return out;
  };
  return {
    nsId,
    ensureNs(name, carried = false) {
      const id = nsId(name);
      if (id !== undefined) return id;
      if (!carried) checkNamespaceName(name);
      q(`INSERT INTO ${t.names} (name, floor) VALUES (?, 0)`, [name]);
      const made = nsId(name);
      if (made === undefined) throw new Error(`namespace ${quoteVisible(name)} was not stored whole`);
      return made;
    },
    slotOf,
    ensureSlot(ns, id) {
      const slot = slotOf(ns, id);
      if (slot !== undefined) return slot;
      q(`INSERT INTO ${t.ids} (ns, id) VALUES (?, ?)`, [ns, id]);
      txSlots.none.delete(`${ns}:${id}`);
      return slotOf(ns, id) as number;
    },
    slotsOf,
    prefetchSlots(ns, ids) {
      if (!txSlots.on) return;
      const missing = new Set<string>();
      for (const id of ids) if (!txSlots.found.has(`${ns}:${id}`)) missing.add(id);
      const found = slotsOf(ns, [...missing]);
      for (const id of missing) {
        const slot = found.get(id);
        if (slot === undefined) txSlots.none.add(`${ns}:${id}`);
        else txSlots.found.set(`${ns}:${id}`, slot);
      }
    },
    idsOf(slots) {
      const out = new Map<number, string>();
      for (const part of chunked([...new Set(slots)], MAX_BINDINGS)) {
        for (const r of q(`SELECT slot, id FROM ${t.ids} WHERE slot IN (${placeholders(part.length)})`, part)) out.set(num(r.slot), String(r.id));
      }
      return out;
    },
    intern(value) {
      const cached = dictByValue.get(value);
      if (cached !== undefined) return cached;
      let r = q(`SELECT code FROM ${t.dict} WHERE value = ?`, [value])[0];
      if (r === undefined) {
        q(`INSERT INTO ${t.dict} (value) VALUES (?)`, [value]);
        r = q(`SELECT code FROM ${t.dict} WHERE value = ?`, [value])[0] as SqlRow;
      }
      const code = num(r.code);
      dictByValue.set(value, code);
      dictByCode.set(code, value);
      return code;
    },
    lookup(code) {
      const cached = dictByCode.get(code);
      if (cached !== undefined) return cached;
      const r = q(`SELECT value FROM ${t.dict} WHERE code = ?`, [code])[0];
      if (r === undefined) throw new Error(`edge origin code ${code} is not in ${t.dict}`);
      const value = String(r.value);
      dictByCode.set(code, value);
      dictByValue.set(value, code);
      return value;
    },
  };
}
