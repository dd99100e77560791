/**
 * The tense of a sentence and present-tense arrangements (English, simple documented rules):
 * what decides whether a year-less date or a bare weekday in it is past or coming (time.ts).
 *
 * @module
 */

/**
 * The tense of a sentence, by simple documented rules (English):
 * - `future` when it has `will`, `'ll`, `shall`, `going to`, `gonna`, `plan(ning) to` / `a` /
 *   `on`, `hope to`, `want to`, `would like to`, `intend to`, `next`, `soon`, `upcoming`,
 *   `coming up`, `looking forward`, `can't wait`, or a person's present progressive (`I am`,
 *   `we're`, `she is`... + a verb in `-ing`, not an adjective like `amazing`: "we're flying to
 *   Lisbon on 14 August" is an arrangement);
 * - otherwise `past` when it has a past auxiliary or common irregular past verb (`was`, `were`,
 *   `did`, `had`, `went`, `got`, `met`, `saw`, `came`, `made`, `took`, `bought`, `left`,
 *   `started`...), `ago`, `last`, `before`, a pronoun followed by a word in `-ed`
 *   (`we moved`, `she finished`), or a determiner's noun subject followed by one ("the course
 *   started", "my sister moved"; not after a form of *be*: "the talk is scheduled");
 * - otherwise `none` (present tense, or no verb at all).
 * Future wins when both kinds appear ("I was told we will go").
 */
export function tenseOf(sentence: string): 'past' | 'future' | 'none' {
  const s = ` ${sentence.toLowerCase().replace(/[’]/g, "'")} `;
  if (
    /\b(will|shall|gonna|upcoming|next|soon)\b|'ll\b|\bgoing to\b|\bplan(?:ning|s|ned)? (?:to|a|an|on|our|my)\b|\b(?:hop(?:e|es|ing)|want(?:s)?|would like|intend(?:s)?) to\b|\bcoming up\b|\blooking forward\b|\bcan'?t wait\b/.test(s) ||
    // The present progressive of an arrangement: "we're flying to Lisbon on 14 August".
    /\b(?:i am|i'm|we are|we're|they are|they're|you are|you're|he is|he's|she is|she's)\s+(?:(?:also|still|really|finally|just)\s+)?(?!going\b|(?:interest|amaz|excit|bor|annoy|stunn|relax|charm|will|miss|lov|confus|tir|worr|surpris|disappoint|embarrass|inspir|frustrat|terrify|thr?ill)ing\b)\w+ing\b/.test(s)
  ) {
    return 'future';
  }
  if (
    /\b(was|were|did|had|went|got|met|saw|came|made|took|bought|sold|left|told|said|gave|ran|won|lost|found|began|flew|drove|ate|spent|held|heard|felt|kept|threw|wrote|ago|last|born|married)\b/.test(s) ||
    /\b(i|we|you|he|she|they|it)\s+(?:\w+ly\s+)?\w+ed\b/.test(s) ||
    // A noun subject with a regular past verb: "the course started", "the sale ended", "my sister moved";
    // not a passive or an adjective after be ("the talk is scheduled", "the kids are excited").
    /\b(?:the|a|an|my|our|his|her|their|your|its|this|that)\s+(?:(?!(?:is|are|am|be|been|being|was|were|'s|'re|so|very|really|too)\b)[\w']+\s+){0,2}(?!(?:excit|interest|tir|bor|worri|scar|detail|limit|advanc|relat|us|bas|suppos|need|feed|speed|seed|bleed|breed|proceed|exceed|succeed|hundr|gre|ste|twe|re|sl)ed\b)\w{2,}ed\b/.test(s)
  ) {
    return 'past';
  }
  return 'none';
}

/**
 * True when a sentence without tense ({@link tenseOf} `none`) states an arrangement in the present
 * tense, which speaks of a coming date (English, simple documented rules):
 * - a form of *be* followed by a preposition of time, optionally after `scheduled`, `planned`,
 *   `booked`, `set`, `due`, `fixed`: "the meeting is on Friday", "her party is in October", "the
 *   talk is scheduled for Monday";
 * - *have* / *has* with an object: "I have an exam on Friday", "we have a team dinner on Friday";
 * - a verb of schedules in the present simple (`start(s)`, `begin(s)`, `open(s)`, `close(s)`,
 *   `end(s)`, `finish(es)`, `arrive(s)`, `leave(s)`, `depart(s)`, `land(s)`, `return(s)`, `take(s)
 *   place`, `kick(s) off`, `launch(es)`, `come(s) out`), not as a noun after an article or a
 *   possessive ("the start of May" is no arrangement): "she arrives on Thursday".
 * A sentence with no verb ("dinner on Friday?") is no arrangement.
 */
export function isArrangement(sentence: string): boolean {
  const s = ` ${sentence.toLowerCase().replace(/[’]/g, "'")} `;
  return (
    /(?:\b(?:is|are)|'s|'re)\s+(?:(?:scheduled|planned|booked|set|due|fixed)\s+)?(?:on|in|at|for|from|this|next)\b/.test(s) ||
    /(?:\b(?:have|has)|'ve)\s+(?:got\s+)?(?:a|an|the|my|our|his|her|their|your|this|that|some|another|one|two|three|\d+)\b/.test(s) ||
    /(?<!\b(?:the|a|an|my|our|his|her|their|your|its)\s)\b(?:starts?|begins?|opens?|closes?|ends?|finish(?:es)?|arrives?|leaves|leave|departs?|lands?|returns?|takes? place|kicks? off|launch(?:es)?|comes? out)\b/.test(s)
  );
}

/** Most characters {@link sentenceAt} reads on each side of an index (a sentence longer is cut there). */
const SENTENCE_SCAN = 1000;

/**
 * The sentence of `text` around character `index` (split on . ! ? and line breaks), at most
 * {@link SENTENCE_SCAN} characters on each side (so a text without punctuation costs O(1) per
 * expression, not O(text)).
 */
export function sentenceAt(text: string, index: number): string {
  let a = index;
  while (a > 0 && index - a < SENTENCE_SCAN && !/[.!?\n]/.test(text[a - 1] as string)) a--;
  let b = index;
  while (b < text.length && b - index < SENTENCE_SCAN && !/[.!?\n]/.test(text[b] as string)) b++;
  return text.slice(a, b);
}
