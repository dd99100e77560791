/**
 * The resident part of one namespace (eq. (5): M_t = (V_t, {E^g_t}, I^vec, I^lex); issue 13):
 * the node directory (node-directory.ts), the bookkeeping maps (book.ts), I^lex and I^vec
 * (vector-slot.ts), changed node by node and written whole as a checkpoint
 * (checkpoint-format.ts). Holds no node bodies or edges: the caller passes the node a change is
 * about (body-cache.ts loads it).
 *
 * I^lex is the store's own index when the store keeps one (`StorageAdapter.lexicalIndex`: the SQL
 * store's FTS5): its `add`/`remove` do nothing, and commits maintain it.
 *
 * @module
 */
import type { MemoryNode } from '../../types.js';
import type { LexicalIndex, VectorIndex } from '../indexes/indexes.js';
import type { Checkpoint } from '../store/storage.js';
import { detectLanguage } from '../text/text.js';
import { NamespaceBook } from './book.js';
import { encodeCheckpoint } from './checkpoint-format.js';
import { NodeDirectory, VEC_ROW_PART, contentHash } from './node-directory.js';
import { gridRowsOf } from '../indexes/vector-rows.js';
import type { IndexFactories } from './options.js';
import { VectorSlot } from './vector-slot.js';

/** The directory, bookkeeping and indexes of one namespace, kept consistent node by node. */
export class ResidentCore {
  readonly dir: NodeDirectory;
  readonly book: NamespaceBook;
  readonly lexical: LexicalIndex;
  readonly vectors: VectorSlot;

  /**
   * An empty core over these indexes (`vector` is the live I^vec; `factories` give its upgrade).
   */
  constructor(readonly dimension: number, lexical: LexicalIndex, vector: VectorIndex, factories: Pick<IndexFactories, 'upgrade' | 'vector'>) {
    this.dir = new NodeDirectory(dimension);
    this.book = new NamespaceBook(this.dir);
    this.lexical = lexical;
    this.vectors = new VectorSlot(vector, this.dir, factories);
  }

  /** Adds a node the directory does not hold (a deleted one is filed but not indexed). */
  add(n: MemoryNode): void {
    const lang = n.status !== 'deleted' ? detectLanguage(n.text) : undefined;
    this.dir.add(n, contentHash(n), lang);
    if (n.status !== 'deleted') {
      this.lexical.add({ id: n.id, text: n.text, ...(n.provenance.speaker ? { speaker: n.provenance.speaker } : {}) });
      this.vectors.index.add(n.id, this.dir.vector(n.id) as Float32Array);
    }
    this.book.add(n, lang);
  }

  /** Removes node `n` (its body as held) from the directory, the indexes and the bookkeeping. */
  remove(n: MemoryNode): void {
    if (!this.dir.has(n.id)) return;
    if (this.lexical.has(n.id)) this.lexical.remove(n.id);
    const vector = this.vectors.index;
    if (vector.has(n.id)) vector.remove(n.id);
    const lang = this.dir.language(n.id);
    this.dir.remove(n.id);
    this.book.remove(n, lang);
  }

  /**
   * A new version `n` of a held node `old` with the same content hash and deletion state: the
   * directory takes its status, seq and vector; I^vec its vector when that changed.
   */
  update(old: MemoryNode, n: MemoryNode): void {
    const vecChanged = old.embedding.vector.length !== n.embedding.vector.length || old.embedding.vector.some((x, i) => x !== n.embedding.vector[i]);
    this.dir.update(n);
    if (vecChanged && n.status !== 'deleted') this.vectors.index.add(n.id, this.dir.vector(n.id) as Float32Array);
  }

  /**
   * A replay (at open) of a held node whose content hash is unchanged, without its old body:
   * status, seq and vector; a change of deletion state adds it to or takes it from the indexes.
   */
  replaySameContent(n: MemoryNode): void {
    const wasDeleted = this.dir.status(n.id) === 'deleted';
    this.dir.update(n);
    const vector = this.vectors.index;
    if (wasDeleted !== (n.status === 'deleted')) {
      if (n.status === 'deleted') {
        this.lexical.remove(n.id);
        vector.remove(n.id);
      } else {
        this.lexical.add({ id: n.id, text: n.text, ...(n.provenance.speaker ? { speaker: n.provenance.speaker } : {}) });
      }
    }
    if (n.status !== 'deleted') vector.add(n.id, this.dir.vector(n.id) as Float32Array);
  }

  /** Adds every live vector of the directory to I^vec (when the checkpoint's index was not restored). */
  indexDirectoryVectors(): void {
    const index = this.vectors.index;
    if (index.addGridRow !== undefined) this.dir.forEachLiveRow((id, q, at, scale) => (index.addGridRow as NonNullable<typeof index.addGridRow>).call(index, id, q, at, scale));
    else for (const [id, v] of this.dir.liveVectors()) index.add(id, v);
  }

  /**
   * The core as a checkpoint valid as of commit `change`. A deferred approximate index is
   * restored first (so the checkpoint keeps it), and deleted documents are vacuumed from I^lex,
   * so a checkpoint never holds terms of an erased memory. `withLexical` false (a store-kept
   * I^lex) leaves out the `lexical.json` part. Each vector is stored once: in the index's bytes
   * (`vectors`), the directory numbering its rows, when the index keeps int8 rows (flat, ann)
   * that equal the directory's; else (hnswlib) in `dir.vec` too.
   */
  async checkpoint(change: number, encoder: string | undefined, withLexical: boolean): Promise<Checkpoint> {
    if (this.vectors.deferred) await this.vectors.maybeUpgrade();
    await this.lexical.vacuum?.();
    const lexical = withLexical ? this.lexical.toJSON() : undefined;
    const vector = this.vectors.index;
    const vectors = vector.serialize !== undefined ? await vector.serialize() : undefined;
    // Each vector once (@3): the directory points into the index's int8 rows when they hold all of its rows.
    const rows = vectors !== undefined && vector.gridRowOf !== undefined ? gridRowsOf(vectors) : undefined;
    const directory = this.dir.toParts(rows !== undefined ? { rows, rowOf: (id) => (vector.gridRowOf as (id: string) => number).call(vector, id) } : undefined);
    const byRow = directory.parts[VEC_ROW_PART] !== undefined;
    const book = this.book.toParts();
    return encodeCheckpoint({
      change,
      dimension: this.dimension,
      ...(encoder !== undefined ? { encoder } : {}),
      directory,
      ...(byRow ? { vecRows: 'vectors' } : {}),
      book: book.json,
      ...(book.dedup !== undefined ? { bookDedup: book.dedup } : {}),
      ...(lexical !== undefined ? { lexical } : {}),
      ...(vectors !== undefined ? { vectors } : {}),
    });
  }
}
