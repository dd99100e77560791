/**
 * Texts edited in an export file (import): an export carries, beside its nodes, the hash of
 * each node's text (`textHashes`, node id → `textKey(text)` of util/hash.ts). A node whose text
 * no longer matches its hash was edited after the export, so its embedding and the features
 * derived from the text (keywords, entities, time references) describe the old text; import
 * derives them again from the new text, for those nodes only, without `reembed` (the cost is
 * one embedding per edited node). Its memory types (System One's) and its edges are kept.
 * An export without `textHashes` (written before this field) cannot tell, and is imported as is.
 *
 * @module
 */
import type { Encoder } from '../encoder/encoder.js';
import { invalidInput } from '../errors.js';
import type { MemoryNode } from '../types.js';
import { textKey } from '../util/hash.js';
import { extractTimeRefs } from '../util/time.js';
import { canonicalEntity, extractEntities } from '../write/entities.js';
import { keywordsOf } from '../write/plan.js';
import { reembed } from './migrate.js';

/**
 * The text hash of each node, by id, as an export writes it under `textHashes`.
 * @returns node id → `textKey(node.text)` (base-36, ~106 bits; the text cannot be read back).
 */
export function textHashesOf(nodes: readonly MemoryNode[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of nodes) out[n.id] = textKey(n.text);
  return out;
}

/**
 * The nodes of an export whose text differs from the hash the export recorded for it: edited
 * after the export. A node with no recorded hash (added to the file by hand) counts as edited.
 * @param hashes - The export's `textHashes`; undefined (an older export) gives none.
 * @throws JevMemError `INVALID_INPUT` naming `export.textHashes` (not an object of strings).
 */
export function editedNodes(nodes: readonly MemoryNode[], hashes: unknown): MemoryNode[] {
  if (hashes === undefined) return [];
  if (hashes === null || typeof hashes !== 'object' || Array.isArray(hashes)) throw invalidInput('export.textHashes', 'expected an object of node id → text hash, as an export writes it');
  const byId = hashes as Record<string, unknown>;
  for (const [id, h] of Object.entries(byId)) if (typeof h !== 'string') throw invalidInput(`export.textHashes.${id}`, `expected a string, got ${typeof h}`);
  return nodes.filter((n) => !Object.prototype.hasOwnProperty.call(byId, n.id) || byId[n.id] !== textKey(n.text));
}

/**
 * The features a write derives from a node's text, derived again from its current text: the
 * embedding (by `encoder`), keywords, entities and time references.
 * @param edited - The nodes to refresh.
 * @param all - Every node of the file: their speakers and entities are the names an entity
 *   mention is matched against, as the namespace's are at a write.
 * @returns the refreshed nodes, in the order of `edited`.
 * @throws the encoder's errors, `ABORTED` through `signal`.
 */
export async function rederive(edited: readonly MemoryNode[], all: readonly MemoryNode[], encoder: Encoder, signal?: AbortSignal): Promise<MemoryNode[]> {
  const known = new Set<string>();
  for (const n of all) {
    for (const e of n.entities) known.add(e);
    if (n.provenance.speaker !== undefined) known.add(canonicalEntity(n.provenance.speaker));
  }
  const embedded = await reembed(edited, encoder, signal);
  return embedded.map((n) => {
    const observedMs = n.observedAt !== undefined ? Date.parse(n.observedAt) : undefined;
    return {
      ...n,
      entities: extractEntities(n.text, known),
      keywords: keywordsOf(n.text),
      timeRefs: extractTimeRefs(n.text, observedMs, n.utcOffsetMinutes ?? 0, n.timeZone),
    };
  });
}
