/**
 * The lexicon of the state-update MLP head's slot features (./state-update-mlp.ts, group 2):
 * the seed words whose word-space vectors `change_lex`, `end_lex`, `addition_lex`, `repeat_lex`,
 * `history_lex`, `experience_lex` and the `kind_*` features compare a side's words with, and the
 * cue patterns of `addition_marker`, the first person and negation. Read only; changing a word
 * changes the head's inputs, so the weights are refitted with it (bench/training/state-mlp-train.ts).
 *
 * @module
 */

/** Seeds of `change_lex`: words that say a state became another. */
export const CHANGE_SEEDS = ['moved', 'relocated', 'switched', 'changed', 'joined', 'became', 'started', 'hired', 'adopted', 'bought', 'replaced', 'married', 'engaged', 'rescheduled', 'now', 'instead', 'new'];
/** Seeds of `end_lex`: words that say a state ended. */
export const END_SEEDS = ['quit', 'resigned', 'sold', 'stopped', 'left', 'ended', 'retired', 'dropped', 'divorced', 'broke', 'gave', 'anymore', 'longer', 'lost', 'died', 'scrapped'];
/** Seeds of the other acts a newer statement can be (an addition, a repeat, history, an experience); these of `addition_lex`. */
export const ADDITION_SEEDS = ['also', 'too', 'another', 'second', 'extra', 'additionally', 'besides'];
/** Seeds of `repeat_lex`. */
export const REPEAT_SEEDS = ['still', 'again', 'remains', 'always', 'usual', 'unchanged', 'same'];
/** Seeds of `history_lex`. */
export const HISTORY_SEEDS = ['used', 'ago', 'once', 'childhood', 'grew', 'decades', 'kid', 'youth'];
/** Seeds of `experience_lex`. */
export const EXPERIENCE_SEEDS = ['visited', 'watched', 'saw', 'read', 'tried', 'enjoyed', 'talked', 'met'];
/** Seeds of the kinds of state (`kind_*` features): where one lives, works, ... */
export const KIND_SEEDS: readonly string[][] = [
  ['live', 'home', 'flat', 'apartment', 'house', 'city', 'rent', 'neighbourhood'],
  ['work', 'job', 'employer', 'company', 'office', 'hired', 'colleagues', 'salary'],
  ['profession', 'career', 'trade', 'teacher', 'nurse', 'engineer', 'lawyer', 'occupation'],
  ['diet', 'vegan', 'vegetarian', 'eat', 'meat', 'eating', 'food', 'sugar'],
  ['dating', 'partner', 'married', 'girlfriend', 'boyfriend', 'couple', 'relationship', 'wife', 'husband'],
  ['car', 'drive', 'vehicle', 'truck', 'driving', 'owned', 'bike'],
  ['dog', 'cat', 'pet', 'puppy', 'animal', 'kitten', 'rabbit'],
  ['class', 'lesson', 'monday', 'weekly', 'schedule', 'session', 'rehearsal', 'weekends'],
  ['favourite', 'favorite', 'love', 'enjoy', 'fan', 'prefer', 'taste', 'hobby'],
];
/** An addition word; `too` only where it closes a clause ("a cat too."), not "too long". */
export const ADDITION = /\b(?:also|as well|another|second|in addition|additionally|besides)\b|\btoo\b(?=\s*(?:[.,!?;]|$))/i;
/** A first-person word (`newer_first`, `older_first`). */
export const FIRST = /^(?:i|me|my|mine|we|us|our|ours|myself)$/;
/** A negation (`negation`). */
export const NEGATION = /\b(?:not|never|no|none|nobody|nothing|cannot)\b|n't\b/i;
