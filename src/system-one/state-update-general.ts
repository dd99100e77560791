/**
 * General features of the state-update head (issue 24, `jev-mem/state-update-features@4`):
 * knowledge about state changes that does not depend on how a template words them, read from the
 * two sides of a pair. The template-bound signals (slot patterns, sentence-vector coordinates)
 * are what the earlier heads learned; these are meant to carry over to wording never seen.
 *
 * 1. Speech acts of the newer text, from a hand-written English lexicon with inflections
 *    ({@link CHANGE_LEXICON}): a state begins (moved, relocated, joined, became, switched, adopted,
 *    got engaged, took a job, made the move, went vegan…), a state ends (quit, left, sold, stopped,
 *    no longer, broke up, gave up, retired, passed away, said goodbye, is behind me…), a marker of
 *    the present (now, these days, lately, from now on, instead…), a repeat (still, as always,
 *    nothing changed, remains…), history (used to, years ago, as a kid, grew up, back then…), an
 *    addition (also, as well, another, on top of that…), a one-off episode (visited, saw, watched,
 *    bought new…), a hypothetical (thinking about, might, want to…). Each is off when negated just
 *    before ("did not move").
 * 2. Subject agreement: who each side is about — the speaker ("I", "we", "my class"), a relative
 *    ("my sister"), or a named person ("Tom", "Tom's car") — first mention wins; a name that is the
 *    other side's value ("Glasgow is behind me now") is not a subject. Same subject, the same
 *    first person of two different speakers, a relative against the speaker.
 * 3. Slot alignment with the values masked: the cosine (in the head's word space) of the two
 *    sides' content words once values, speakers and the cue words above are removed, and the
 *    share of content-word stems they have in common ("job" and "job", "car" and "car").
 * 4. Value change: the best cosine between a word only the newer has and a word only the older
 *    has (Porto/Vienna, teacher/nurse: a new value of the same type), whether the older value is
 *    named again, and whether the newer negates a state while naming the older's value.
 *
 * @module
 */
import { STOP_WORDS } from '../plane/text/text.js';
import type { SideReading, StateSide } from './state-update-types.js';

/** Names of the general features, in row order. */
export const STATE_GENERAL_FEATURES = Object.freeze(['g_begin', 'g_end', 'g_now', 'g_repeat', 'g_history', 'g_addition', 'g_episode', 'g_hypothetical', 'g_begin_or_end', 'g_act_update', 'g_subj_same', 'g_subj_conflict', 'g_self_other_speaker', 'g_kin_vs_self', 'g_older_subject_named', 'g_masked_cos', 'g_shared_stems', 'g_value_pair_cos', 'g_old_value_named', 'g_old_value_negated', 'g_new_value', 'g_older_begin', 'g_older_history', 'g_older_hypothetical', 'g_value_subject'] as const);

const w = (s: string) => `\\b(?:${s})\\b`;

/**
 * The hand-written lexicon of state changes (English, inflections spelled out). Matched on the
 * lower-cased body of a side.
 */
export const CHANGE_LEXICON = Object.freeze({
  begin: new RegExp(w([
    'mov(?:e|es|ed|ing) (?:to|into|in with|in|over to|back to)', 'relocat(?:e|es|ed|ing)', 'settl(?:e|es|ed|ing) in', 
    'switch(?:es|ed|ing)?', 'chang(?:e|es|ed|ing)', 'swap(?:s|ped|ping)?', 'trad(?:e|es|ed|ing) (?:in|up)', 'traded', 'replac(?:e|es|ed|ing)', 'upgrad(?:e|es|ed|ing)', 'convert(?:s|ed|ing)?',
    'join(?:s|ed|ing)?', 'start(?:s|ed|ing)', 'began', 'begin(?:s|ning)?', 'became', 'becom(?:e|es|ing)', 'turn(?:s|ed|ing)? into', 'hired', 'got hired', 'took (?:a|an|the) job', 'land(?:s|ed|ing)? (?:a|an|the) (?:job|role|position)', 'sign(?:s|ed|ing)? (?:a|the|with)', 'transferr(?:ed|ing)', 'promoted', 'retrain(?:s|ed|ing)?', 'certified',
    'adopt(?:s|ed|ing)?', 'bought', 'buy(?:s|ing)?', 'purchas(?:e|es|ed|ing)', 'got (?:a|an|my|our|the|two|some) ', 'welcom(?:e|es|ed|ing)', 'picked up', 'took up', 'tak(?:e|es|ing) up',
    'got (?:engaged|married|together|hitched)', 'marr(?:y|ies|ied|ying)', 'engaged', 'dating', 'seeing', 'going out with', 'go(?:es)? out with',
    'went (?:vegan|vegetarian|keto|paleo|gluten|dairy|sugar|pescatarian|low|back)', 'gone (?:vegan|vegetarian|keto|paleo)', 'go (?:vegan|vegetarian|keto|paleo)',
    'reschedul(?:e|es|ed|ing)', 'pushed (?:back|to)', 'moved (?:up|forward)',
    'hooked on', 'into', 'obsessed with', 'new favou?rite', 'prefer(?:s|red)?', 'fan of',
  ].join('|')), 'i'),
  end: new RegExp(w([
    'quit(?:s|ting)?', 'left', 'leav(?:e|es|ing)', 'sold', 'sell(?:s|ing)?', 'stop(?:s|ped|ping)', 'no longer', 'any ?more', 'no more', 'not .{0,30}(?:any ?more|any longer)',
    'broke up', 'break(?:s|ing)? up', 'split(?:s|ting)?(?: up)?', 'separat(?:e|ed|ing)', 'divorc(?:e|es|ed|ing)', 'single (?:again|now)', 'ended', 'end(?:s|ing)? (?:it|things|the)', 'is over', 'are over',
    'gave (?:up|away)', 'giv(?:e|es|ing) (?:up|away)', 'given (?:up|away)', 'got rid of', 'get(?:s|ting)? rid of', 'dropp?(?:ed|ing)?', 'drops',
    'retir(?:e|es|ed|ing)', 'resign(?:s|ed|ing)?', 'fired', 'laid off', 'let (?:me|him|her|us|them) go', 'lost (?:my|his|her|our|their|the) (?:job|\\w+)', 'out of work', 'walk(?:s|ed)? (?:out|away)', 'last day',
    'died', 'passed away', 'pass(?:es)? away', 'stolen', 'stole', 'crashed', 'scrapp(?:ed|ing)', 'totall?ed', 'closed', 'cancel(?:l?ed|l?ing|s)?', 'called off',
    'moved (?:out|away)', 'mov(?:e|es|ing) (?:out|away)', 'out of', 
    'tired of', 'bored (?:of|with)', 'sick of', 'done with', 'over (?:it|that|him|her)', 'went off', "can't stand", 'cannot stand', 'lost interest', 'los(?:e|es|ing) interest', 'moved on',
  ].join('|')), 'i'),
  now: new RegExp(w(['now', 'these days', 'nowadays', 'currently', 'from now on', 'instead', 'since (?:january|february|march|april|may|june|july|august|september|october|november|december|last|then|the)', 'recently', 'just', 'finally', 'anymore', 'any more', 'no longer', 'from (?:today|this|next)', 'as of'].join('|')), 'i'),
  repeat: new RegExp(w(['still', 'as always', 'as usual', 'as before', 'as ever', 'unchanged', 'remain(?:s|ed|ing)?', 'no plans to (?:leave|change|move|quit|stop)', 'keeps? going', 'going strong'].join('|')), 'i'),
  history: new RegExp(w(['used to', '(?:years|decades|ages|long) ago', 'decades back', 'back (?:then|in)', 'as a (?:kid|child|boy|girl|teen|teenager|student)', 'when (?:i|he|she|we|they) (?:was|were) (?:a |young|little|small|in)', 'grew up', 'growing up', 'in (?:my|his|her|our|their) (?:twenties|thirties|teens|youth|childhood)', 'in (?:school|college|high school|university)', 'childhood', '(?:my|his|her|our|their) first (?:job|car|love|pet|home|flat)', 'once upon', 'in the past'].join('|')), 'i'),
  addition: new RegExp(`${w(['also', 'as well', 'another', 'second', 'extra', 'besides', 'in addition', 'additionally', 'added', 'adds', 'plus'].join('|'))}|\\btoo\\b(?=\\s*(?:[.,!?;]|$))`, 'i'),
  episode: new RegExp(w(['visit(?:s|ed|ing)?', 'saw', 'watch(?:es|ed|ing)?', 'read (?:a|an|the|that|about)', 'tried', 'met', 'meet(?:s|ing)?', 'had (?:lunch|dinner|breakfast|a chat|a meeting|an interview|a long|a small|a big)', 'went to (?:a|an|the)', 'attend(?:s|ed|ing)? (?:a|an|the)', 'bought (?:new|some|pet|flowers|tickets|a ticket|shares)', 'rented', 'test-drove', 'washed', 'cleaned', 'cooked', 'baked', 'talked', 'complained', 'enjoyed', 'loved the', 'missed', 'fed', 'walked past', 'flew to', 'trip to', 'today', 'tonight', 'this morning', 'last night'].join('|')), 'i'),
  hypothetical: new RegExp(w(['thinking (?:about|of)', 'might', 'maybe', 'perhaps', 'planning (?:to|on)', 'plan to', 'want(?:s)? to', 'would (?:like|love)', 'hop(?:e|es|ing) to', 'consider(?:s|ed|ing)?', 'someday', 'one day', 'if (?:i|we|he|she|they)', 'wish', 'dream(?:s|ing)? (?:of|about)', 'wanted to be'].join('|')), 'i'),
});

/**
 * The global, case-blind form of each lexicon pattern, made once (issue 25: a side reading made
 * one per pattern, ~10 per reading, ~12 readings per bulk write at 20k; V8 hashed each long
 * source again to find its compiled code). `matchAll` and `replace` never move its `lastIndex`
 * (`matchAll` reads a copy, `replace` starts from 0 and leaves 0), so sharing it is safe.
 */
const GLOBAL = new WeakMap<RegExp, RegExp>();
function globalOf(re: RegExp): RegExp {
  let g = GLOBAL.get(re);
  if (g === undefined) GLOBAL.set(re, (g = new RegExp(re.source, 'gi')));
  return g;
}

/** A match of `re` in `text` not negated in the 20 characters before it ("did not move"). */
function asserted(re: RegExp, text: string): boolean {
  for (const m of text.matchAll(globalOf(re))) {
    const before = text.slice(Math.max(0, m.index - 20), m.index);
    if (!/\b(?:not|never|n't|won't|don't|didn't|doesn't)\s+(?:\w+\s+)?$/i.test(before)) return true;
  }
  return false;
}

const KIN_WORDS = 'sister|brother|mother|father|mom|mum|dad|son|daughter|friend|cousin|neighbou?r|colleague|boss|aunt|uncle|parents|grandma|grandpa|grandmother|grandfather|wife|husband|partner|girlfriend|boyfriend|roommate|flatmate|niece|nephew|kids?|children';
const KIN = new RegExp(`\\b(?:my|our)\\s+(${KIN_WORDS})(?:'s)?\\b`, 'i');
const SELF = /\b(?:i|me|my|mine|we|us|our|ours|myself|i'm|i've|i'd|i'll|we're|we've)\b/i;
/** Words that open a sentence without being a name ("Anyway.", "Fun fact:", "Big news!"). */
const OPENERS = new Set(['anyway', 'hi', 'hey', 'hello', 'there', 'fun', 'fact', 'big', 'news', 'quick', 'update', 'guess', 'what', 'oh', 'wow', 'so', 'yeah', 'honestly', 'well', 'ok', 'okay', 'lately', 'since', 'starting', 'today', 'yesterday', 'nothing', 'home', 'every', 'after', 'before', 'back', 'years', 'long', 'parked', 'next', 'along', 'besides', 'on', 'things', 'same', 'by', 'for', 'if', 'as', 'when', 'in', 'the', 'this', 'that', 'these', 'those', 'life', 'talk', 'crazy', 'feels', 'not', 'it', 'they', 'he', 'she', 'you', 'someone', 'good', 'great', 'thanks', 'congrats', 'sure', 'sorry']);
const MONTHS_DAYS = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|^(?:january|february|march|april|may|june|july|august|september|october|november|december)$/;

/**
 * Whom a side is about (group 2 of the module doc): `self:<speaker>`, `kin:<relative>` or
 * `name:<name>` — whichever is mentioned first; `exclude` holds names that are not subjects
 * (the other side's values, the speakers). `self:<speaker>` when nothing is found.
 */
export function subjectOf(body: string, speaker: string, exclude: ReadonlySet<string>): string {
  return subjectFrom(subjectScan(body), speaker, exclude);
}

/**
 * What {@link subjectOf} reads of a text whatever the pair (h-writeperf2: it was read again for
 * every pair a side is in): the relative (`kin:…`) and its place, the place of the first
 * first-person word that is not the relative's `my`, and the names that open a clause, in text
 * order, before `exclude` is applied.
 */
interface SubjectScan {
  kin: [number, string] | undefined;
  self: number | undefined;
  names: Array<[number, string]>;
}

function subjectScan(body: string): SubjectScan {
  const text = body.replace(/[’]/g, "'");
  const kin = KIN.exec(text);
  const out: SubjectScan = { kin: kin === null ? undefined : [kin.index, `kin:${(kin[1] as string).toLowerCase().replace(/^mum$/, 'mom')}`], self: undefined, names: [] };
  for (const m of text.matchAll(globalOf(SELF))) {
    if (kin !== null && m.index === kin.index) continue;
    out.self = m.index;
    break;
  }
  for (const m of text.matchAll(/\b(\p{Lu}[\p{L}-]+)(?:'s)?(?=\s+(\S+))/gu)) {
    const name = (m[1] as string).toLowerCase();
    if (name === 'i' || OPENERS.has(name) || STOP_WORDS.has(name) || MONTHS_DAYS.test(name)) continue;
    const next = (m[2] as string).toLowerCase();
    const possessive = /'s$/.test(m[0]);
    // A name opens a clause when a verb-like word follows it: anything lower-case but a
    // preposition or determiner ("Yuki said", "Tom and", not "Home for", "Parked outside").
    const word = next.replace(/[,.!?;:]$/, '');
    if (possessive || (/^\p{Ll}[\p{Ll}'-]*$/u.test(word) && !/^(?:for|of|in|on|at|to|the|a|an|with|from|by|outside|inside)$/.test(word))) out.names.push([m.index, name]);
  }
  return out;
}

/** {@link subjectOf} from a text's {@link SubjectScan}: the first clause-opening name not in `exclude`, the relative or the speaker, whichever comes first. */
function subjectFrom(scan: SubjectScan, speaker: string, exclude: Pick<ReadonlySet<string>, 'has'>): string {
  // The earliest of the kin, self and first unexcluded name mentions; on a tie the first in that
  // order (what a stable sort of the three by position gives), without building the list.
  let at = Infinity;
  let subject: string | undefined;
  if (scan.kin !== undefined) [at, subject] = scan.kin;
  if (scan.self !== undefined && scan.self < at) [at, subject] = [scan.self, `self:${speaker}`];
  const name = scan.names.find(([, n]) => !exclude.has(n));
  if (name !== undefined && name[0] < at) subject = `name:${name[1]}`;
  return subject ?? `self:${speaker}`;
}

/** {@link SubjectScan} of a side's body, read once per reading. */
const SUBJECT_SCANS = new WeakMap<SideReading, SubjectScan>();

function scanOf(r: SideReading): SubjectScan {
  let scan = SUBJECT_SCANS.get(r);
  if (scan === undefined) SUBJECT_SCANS.set(r, (scan = subjectScan(r.body)));
  return scan;
}

/** The text's clause is about the other side's value: "Acme opened an office", "Miso passed away". */
function valueSubject(r: SideReading, values: Pick<ReadonlySet<string>, 'has'>): boolean {
  for (const name of clauseSubjectsOf(r)) if (values.has(name)) return true;
  return false;
}

/**
 * The capitalised words of a reading's body followed by a lower-case word that is no function
 * word, lower-cased (what {@link valueSubject} tests), read once per reading (kept with it, so
 * they go when the reading goes, as an erasure requires).
 */
const CLAUSE_SUBJECTS = new WeakMap<SideReading, readonly string[]>();

function clauseSubjectsOf(r: SideReading): readonly string[] {
  let out = CLAUSE_SUBJECTS.get(r);
  if (out !== undefined) return out;
  const found: string[] = [];
  for (const m of r.body.matchAll(/\b(\p{Lu}[\p{L}-]+)(?:'s)?\s+(\p{Ll}[\p{Ll}'-]*)/gu)) {
    if (!/^(?:for|of|in|on|at|to|the|a|an|with|from|by|and|or)$/.test(m[2] as string)) found.push((m[1] as string).toLowerCase());
  }
  out = found;
  CLAUSE_SUBJECTS.set(r, out);
  return out;
}

/** Word-space helpers the general features need (handed in by the MLP module, which owns the table). */
export interface GeneralSpace {
  /** Unit SIF vector of some words (zeros when none is in the table). */
  vector(words: Iterable<string>): Float64Array;
  /** Cosine of two words of the table; undefined when either is missing. */
  cos(a: string, b: string): number | undefined;
}

function dot(a: Float64Array, b: Float64Array): number {
  let x = 0;
  for (let k = 0; k < a.length; k++) x += (a[k] as number) * (b[k] as number);
  return x;
}

const CUES = [CHANGE_LEXICON.begin, CHANGE_LEXICON.end, CHANGE_LEXICON.now, CHANGE_LEXICON.repeat, CHANGE_LEXICON.history, CHANGE_LEXICON.addition, CHANGE_LEXICON.hypothetical];

/**
 * What the general features read of one side alone (its body), read once per reading
 * (h-writeperf: a side is in ~30 pairs, and these regular expressions were a third of the
 * features' cost): the lexicon's acts, a negation, and the content words with cue phrases masked.
 */
interface SideCues {
  begin: boolean;
  end: boolean;
  now: boolean;
  repeat: boolean;
  history: boolean;
  addition: boolean;
  episode: boolean;
  hypothetical: boolean;
  negation: boolean;
  /** Content words with cue phrases masked, before the pair's values and speakers are ({@link maskedWords}). */
  content: string[];
}
const SIDE_CUES = new WeakMap<SideReading, SideCues>();

function cuesOf(r: SideReading): SideCues {
  const hit = SIDE_CUES.get(r);
  if (hit !== undefined) return hit;
  const L = CHANGE_LEXICON;
  const b = r.body;
  let text = b.toLowerCase();
  for (const re of CUES) text = text.replace(globalOf(re), ' ');
  const out: SideCues = {
    begin: asserted(L.begin, b),
    end: asserted(L.end, b),
    now: L.now.test(b),
    repeat: L.repeat.test(b),
    history: L.history.test(b),
    addition: L.addition.test(b),
    episode: L.episode.test(b),
    hypothetical: L.hypothetical.test(b),
    negation: /\b(?:not|never|no longer|no more|n't)\b/i.test(b),
    content: (text.match(/[\p{L}'-]+/gu) ?? []).map((x) => x.replace(/'s$/, '')).filter((x) => x.length > 2 && !STOP_WORDS.has(x) && !OPENERS.has(x)),
  };
  SIDE_CUES.set(r, out);
  return out;
}

/** Content words of a side with values, speakers and cue phrases masked. */
function maskedWords(r: SideReading, drop: Pick<ReadonlySet<string>, 'has'>): string[] {
  return cuesOf(r).content.filter((x) => !drop.has(x));
}

const stem = (x: string) => x.slice(0, 5);

/**
 * The general feature row of one pair, in {@link STATE_GENERAL_FEATURES} order (all in [0,1]).
 * Deterministic and pure. `partial` leaves `g_masked_cos` and `g_value_pair_cos` at 0 (the MLP
 * head's ceiling bounds them instead: `mlpCeiling` of ./state-update-mlp-ceiling.ts).
 */
export function generalFeatures(space: GeneralSpace, n: SideReading, o: SideReading, newer: StateSide, older: StateSide, partial = false): number[] {
  const b01 = (x: boolean): number => (x ? 1 : 0);
  const { begin, end, now, repeat, history, addition, episode, hypothetical } = cuesOf(n);
  const oc = cuesOf(o);
  const ns = (newer.speaker ?? 'i').toLowerCase();
  const os = (older.speaker ?? 'i').toLowerCase();
  // The sets of the row are read only by membership, so they are tests, not copies (issue 25:
  // this function runs for ~25 pairs per write, and its sets were most of its garbage):
  // the speakers {ns, os}; the sides' values without the speakers (oValues, nValues).
  const speakers = { has: (v: string): boolean => v === ns || v === os };
  const oValues = { has: (v: string): boolean => o.values.has(v) && !speakers.has(v) };
  const nValues = { has: (v: string): boolean => n.values.has(v) && !speakers.has(v) };
  // speakers ∪ (nValues ∖ oValues), then speakers ∪ {v ∈ oValues : name:v ≠ oSubj}.
  const oSubj = subjectFrom(scanOf(o), os, { has: (v) => speakers.has(v) || (nValues.has(v) && !oValues.has(v)) });
  const nSubj = subjectFrom(scanOf(n), ns, { has: (v) => speakers.has(v) || (oValues.has(v) && `name:${v}` !== oSubj) });
  const same = nSubj === oSubj;
  const oName = oSubj.startsWith('name:') ? oSubj.slice(5) : oSubj.startsWith('kin:') ? oSubj.slice(4) : '';
  const olderNamed = oName !== '' && n.tokens.includes(oName);
  // Values and the words naming the subjects are masked; what is left is the slot.
  // speakers ∪ oValues ∪ nValues = speakers ∪ o.values ∪ n.values.
  const drop = { has: (v: string): boolean => speakers.has(v) || o.values.has(v) || n.values.has(v) };
  const nm = maskedWords(n, drop);
  const om = maskedWords(o, drop);
  const masked = nm.length && om.length && !partial ? dot(space.vector(nm), space.vector(om)) : 0;
  const ns5 = new Set(nm.map(stem));
  const os5 = new Set(om.map(stem));
  let inter = 0;
  for (const s of ns5) if (os5.has(s)) inter++;
  const shared = ns5.size && os5.size ? inter / Math.min(ns5.size, os5.size) : 0;
  // A new value of the older value's type: the best cosine between an own word of each side.
  let pair = 0;
  if (!partial) {
    const nOwn = new Set(n.tokens.filter((x) => !STOP_WORDS.has(x) && !speakers.has(x) && x.length > 2 && !o.tokens.includes(x)));
    const oOwn = new Set(o.tokens.filter((x) => !STOP_WORDS.has(x) && !speakers.has(x) && x.length > 2 && !n.tokens.includes(x)));
    for (const a of nOwn) for (const b of oOwn) pair = Math.max(pair, space.cos(a, b) ?? 0);
  }
  let oldNamed = false; // some v of oValues named in the newer (its tokens or values)
  for (const v of o.values) if (!speakers.has(v) && (n.tokens.includes(v) || n.values.has(v))) oldNamed = true;
  let newValue = false; // some v of nValues not in oValues
  for (const v of n.values) if (!speakers.has(v) && !o.values.has(v)) newValue = true;
  const negated = cuesOf(n).negation && oldNamed;
  return [
    b01(begin),
    b01(end),
    b01(now),
    b01(repeat),
    b01(history),
    b01(addition),
    b01(episode),
    b01(hypothetical),
    b01((begin || end) && !repeat && !history && !addition && !hypothetical),
    b01((begin || end || now) && !repeat && !history && !addition && !hypothetical && same),
    b01(same),
    b01(!same),
    b01(nSubj.startsWith('self:') && oSubj.startsWith('self:') && ns !== os),
    b01((nSubj.startsWith('kin:') && oSubj.startsWith('self:')) || (nSubj.startsWith('self:') && oSubj.startsWith('kin:'))),
    b01(olderNamed),
    Math.max(0, masked),
    shared,
    Math.max(0, pair),
    b01(oldNamed),
    b01(negated),
    b01(newValue),
    b01(oc.begin && oc.now),
    b01(oc.history),
    b01(oc.hypothetical),
    b01(valueSubject(n, oValues)),
  ];
}
