/**
 * Test helper: renames a namespace inside a closed SQLite store the way an older build could have
 * held it (a name today's rules refuse). The records are rewritten with the layout-7 seal (value
 * CRC only, no key part), since a layout-8 keyed seal names the namespace it was put under and a
 * plain SQL rename would (rightly) read as a changed key.
 */
import type { SqlConnection } from '../../src/plane/drivers/sql-connection.js';
import { joinChunks } from '../../src/plane/drivers/record-sql-codec.js';
import { sealValue, unsealValue } from '../../src/plane/drivers/record-sql-seal.js';

type Db = Pick<SqlConnection, 'query' | 'transaction'>;

/** Moves every record of namespace `from` to `to` in the store's tables, each value re-sealed as layout 7 wrote it (one chunk). */
export function renameNamespaceAsOlderBuild(db: Db, from: string, to: string): void {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
  db.transaction(() => {
    const rows = db.query('SELECT id, tbl, k, chunk, v FROM jev_mem_rec WHERE ns = ? ORDER BY tbl, k, chunk', [bytes(from)]);
    const groups = new Map<string, { first: number; rest: number[]; parts: Uint8Array[] }>();
    for (const row of rows) {
      const name = `${String(row.tbl)}\u0000${String(row.k)}`;
      const group = groups.get(name);
      if (group === undefined) groups.set(name, { first: row.id as number, rest: [], parts: [row.v as Uint8Array] });
      else {
        group.rest.push(row.id as number);
        group.parts.push(row.v as Uint8Array);
      }
    }
    for (const group of groups.values()) {
      const inner = unsealValue(group.parts.length === 1 ? group.parts[0]! : group.parts);
      const whole = inner instanceof Uint8Array ? inner : (joinChunks(inner) as Uint8Array);
      db.query('UPDATE jev_mem_rec SET v = ?, ns = ? WHERE id = ?', [sealValue(whole), bytes(to), group.first]);
      for (const id of group.rest) db.query('DELETE FROM jev_mem_rec WHERE id = ?', [id]);
    }
    db.query('UPDATE jev_mem_rec_lex SET ns = ? WHERE ns = ?', [bytes(to), bytes(from)]);
  });
}

