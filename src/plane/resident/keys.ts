/**
 * Keys the resident bookkeeping files nodes under (issue 7 item 4, issue 15, issue 22): the
 * exact-repeat key of a node and the canonical form of a speaker's name. Pure functions; the
 * checkpoint's `book.json` holds values derived from them, so they must not change without a new
 * checkpoint format (`checkpoint-format.ts`).
 *
 * @module
 */
import { normalizeText } from '../text/text.js';

/**
 * Key of exact-repeat detection: same text, same time, same source (issue 7 item 4). The text is
 * compared in its normalised form (`normalizeText`: NFC, trimmed, white space collapsed; issue
 * 15), so the same sentence in NFC and NFD, or with a trailing space, is one node. An absent time
 * or source differs from every present one, the empty string included.
 * @returns a JSON array string `[observedAt | null, source | null, normalized text]`.
 */
export function dedupKey(text: string, observedAt: string | undefined, source: string | undefined): string {
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text)]);
}

/** Key of a speaker name in the namespace's speaker map: NFC, lower case. */
export function speakerKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
