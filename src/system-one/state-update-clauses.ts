/**
 * Clauses of a message for the state-update head (issue 24, h-update3): a change told inside a
 * longer, chatty message ("Big change: I left Brightwave. I accepted an offer at Northloop, a
 * fintech startup. I start on the 20th.") is scored clause by clause against the other side, so
 * that it reads like the short line the head was fitted on ("I left Brightwave.").
 *
 * Sentences come from `Intl.Segmenter` (sentence granularity, locale-independent rules; a split
 * at `.`, `!`, `?` followed by space where it is missing), then each sentence is cut at clause
 * cues: a semicolon, a colon or a dash between words ("Big change: I left …"), and a comma
 * before a coordinating or causal conjunction that opens a new clause (", but", ", so",
 * ", and then", ", because", ", since"). A comma alone does not cut ("If the price is right, we
 * will sell it" stays one clause: a condition must stay with what it conditions). Pieces shorter
 * than {@link MIN_CLAUSE_WORDS} words join the piece before them (or after, for the first).
 *
 * @module
 */

/** Fewest words a clause has; shorter pieces ("Wow.", "Big change:") join a neighbour. */
export const MIN_CLAUSE_WORDS = 3;
/** Most clauses read from one message: the first ones (the head scores each against the other side). */
export const MAX_CLAUSES = 4;

const SENTENCES: Intl.Segmenter | undefined = typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('und', { granularity: 'sentence' }) : undefined;

/** Clause cues inside a sentence: where a new clause starts (the cue's punctuation stays with the piece before). */
const CUE = /(?<=[;:])\s+|\s+[—–]\s+|\s+-\s+|(?<=,)\s+(?=(?:but|so|and then|because|since|though|although|yet)\s)/giu;

/** The speaker label of a line ("Leila: …"), kept on every clause (the same pattern the head's `body` strips). */
const LABEL = /^\s*[\p{L}\p{M}' .-]{1,40}:\s+/u;

const wordCount = (s: string): number => s.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** The sentences of `body` (no label): `Intl.Segmenter` where present, else a split after `.`, `!`, `?`. */
function sentencesOf(body: string): string[] {
  const parts = SENTENCES === undefined ? body.split(/(?<=[.!?])\s+/u) : Array.from(SENTENCES.segment(body), (s) => s.segment);
  return parts.map((s) => s.trim()).filter((s) => s !== '');
}

/** Joins pieces shorter than {@link MIN_CLAUSE_WORDS} words to the piece before (the first to the one after). */
function joinShort(pieces: readonly string[]): string[] {
  const out: string[] = [];
  let pending = '';
  for (const p of pieces) {
    const piece = pending === '' ? p : `${pending} ${p}`;
    if (wordCount(piece) < MIN_CLAUSE_WORDS) {
      if (out.length > 0) out[out.length - 1] = `${out[out.length - 1] as string} ${piece}`;
      else pending = piece;
      continue;
    }
    pending = '';
    out.push(piece);
  }
  if (pending !== '') {
    if (out.length > 0) out[out.length - 1] = `${out[out.length - 1] as string} ${pending}`;
    else out.push(pending);
  }
  return out;
}

/**
 * The clauses of `text` (module doc), each with the text's speaker label in front ("Leila: I left
 * Brightwave."), the first {@link MAX_CLAUSES} of them; `[]` when the text is one clause (the
 * whole text is then its only reading). Pure and deterministic.
 *
 * @param text - One message, optionally "Speaker: …".
 * @param max - Most clauses returned. @default MAX_CLAUSES
 */
export function stateClauses(text: string, max = MAX_CLAUSES): string[] {
  const label = LABEL.exec(text)?.[0] ?? '';
  const body = text.slice(label.length);
  const pieces = sentencesOf(body).flatMap((s) => s.split(CUE).map((c) => c.trim()).filter((c) => c !== ''));
  const clauses = joinShort(pieces);
  if (clauses.length < 2) return [];
  return clauses.slice(0, max).map((c) => `${label}${c}`);
}

/** Most clauses of the older side read (a long older message: its first ones). */
export const MAX_OLDER_CLAUSES = 3;

/**
 * The (newer, older) readings a pair is scored on, the whole pair first: the whole newer text and
 * each of its clauses ({@link stateClauses}), against the whole older text and, where the older is
 * long (two clauses or more), each of its first {@link MAX_OLDER_CLAUSES} clauses. At most
 * (1 + {@link MAX_CLAUSES}) × (1 + {@link MAX_OLDER_CLAUSES}) = 20 pairs; one for two one-clause
 * texts. Speakers and times are the sides' own.
 */
export function clausePairs<S extends { text: string }>(newer: S, older: S): Array<[S, S]> {
  const ns = [newer, ...stateClauses(newer.text).map((text) => ({ ...newer, text }))];
  const os = [older, ...stateClauses(older.text, MAX_OLDER_CLAUSES).map((text) => ({ ...older, text }))];
  return ns.flatMap((n) => os.map((o): [S, S] => [n, o]));
}

/**
 * The best answer over a pair's clause pairs ({@link clausePairs}): `score` of each, the highest
 * probability kept (the first on a tie, so the whole pair wins ties). This is how a head fitted
 * clause by clause reads a pair: a change told in one clause of a chatty message decides as that
 * clause alone would, and a non-update passes only if none of its clause pairs does.
 */
export function bestClausePair<S extends { text: string }, D extends { probability: number }>(newer: S, older: S, score: (newer: S, older: S) => D): D {
  let best: D | undefined;
  for (const [n, o] of clausePairs(newer, older)) {
    const d = score(n, o);
    if (best === undefined || d.probability > best.probability) best = d;
  }
  return best as D;
}
