/**
 * The chat grammar of state changes (issue 24, h-update2): labelled (older, newer) pairs over
 * thirteen kinds of state (bench/training/state-talk-kinds.ts: home, workplace, occupation, diet,
 * relationship, possession, pet, schedule, preference, health, study, hobby, contact details),
 * first person ("I", "we", a role-only `user`) and third ("Priya", "my sister"), short lines and
 * the same lines inside longer chatty messages. Updates: a change naming the new value, an end
 * naming the old one, an end naming none (idioms and indirect ends). Non-updates: an addition, a
 * repeat, history told after the change, a hypothetical or plan, an unrelated episode on the same
 * topic, the same change about someone else (another person, or another speaker's "I"), a
 * statement of another kind, and small talk ("Glad you liked it." after "Glad I could help!").
 *
 * It adds to bench/training/state-grammar.ts; it has no held-out split of its own. Its `fit`
 * families train the head and its `validation` families (every fourth template of each list, the
 * last third of each value list, other names and fillers, another seed) choose the model and its
 * operating point; the held-out split of state-grammar.ts stays the only held-out figure. A pair
 * whose text names a value of that split (a template or filler word may be one) is dropped and
 * drawn again, so no held-out value is ever fitted or validated on (checked by count only: the
 * held-out values were not read while writing these templates).
 * Deterministic (seeded PRNG).
 *
 * @module
 */
import { prng } from '../../test/helpers/prng.js';
import { familyCut, fill, GRAMMAR, UPDATE_FAMILIES, valueCut, type GrammarFamily } from './state-grammar.js';
import { TALK, type TalkKind } from './state-talk-kinds.js';
import type { StateSide } from '../../src/system-one/state-update.js';

/** The seed of the chat grammar. */
export const TALK_SEED = 2425;

/** A family of the chat grammar: the grammar's own, plus `hypothetical` and `small-talk`. */
export type TalkFamily = GrammarFamily | 'hypothetical' | 'small-talk';

/** One labelled pair. */
export interface TalkPair {
  kind: string;
  family: TalkFamily;
  person: 1 | 3;
  older: StateSide;
  newer: StateSide;
  label: 0 | 1;
}

type Cut = 'fit' | 'validation';
const both = <T>(fit: T[], validation: T[]) => ({ fit, validation });

/** Third persons: [subject, possessive, pronoun]. */
const THIRD = both<[string, string, string]>(
  [['Priya', 'her', 'she'], ['Marcus', 'his', 'he'], ['Ines', 'her', 'she'], ['Kenji', 'his', 'he'], ['my sister', 'her', 'she'], ['my dad', 'his', 'he'], ['my roommate', 'her', 'she'], ['Olu', 'his', 'he']],
  [['Dara', 'her', 'she'], ['Felix', 'his', 'he'], ['my brother', 'his', 'he'], ['my best friend', 'her', 'she']],
);
/** Speakers: named people and the role-only `user` of an assistant chat. */
const SPEAKERS = both(['Leila', 'Ben', 'Sofia', 'user'], ['Arjun', 'Hana', 'user']);
/** What a chatty message says around the state line. */
const PRE = both(
  ['So, catching up on my news.', 'Thanks for the recipe yesterday, it turned out great.', 'Long week at my end.', 'Sorry I went quiet for a while.', 'Okay, different topic.', 'Morning! Coffee in hand.', 'Things have been hectic lately.', 'I finally have a minute to write.', 'You asked how things are going.', 'Small life update for you.', 'Hope your week is going well.', 'Ugh, what a day.'],
  ['Right, where was I.', 'Just got back from the gym.', 'Been meaning to tell you something.', 'Random thought while I wait for the bus.'],
);
const POST = both(
  ['Can you help me plan my week around that?', 'Any tips for settling in?', 'Anyway, what should I cook tonight?', 'I will tell you more when we talk.', 'Still processing it, honestly.', 'Could you update my notes?', 'It feels strange but good.', 'Let me know if you need anything from me.', 'My mum is thrilled about it.', 'It has been a lot to take in.', 'Can you remind me to call the bank tomorrow?', 'Not much else to report.'],
  ['That is all my news for today.', 'Can you suggest a playlist for the evening?', 'Wish me luck.', 'More soon.'],
);
/** Small talk: pleasantries of either side of an assistant chat, which state nothing. */
const SMALL = both(
  ['So glad I could be of help!', 'Glad you enjoyed it. Shout if you want more ideas.', 'Thanks so much, that was really useful.', 'Happy to help, have a great day!', 'No worries at all.', 'That sounds lovely, enjoy it!', 'Good luck with everything.', 'Haha, fair enough.', 'Thanks again for listening.', 'You are welcome, any time.', 'Sounds like a plan.', 'Take care and talk soon.'],
  ['Glad that worked out for you.', 'Cheers, that helps a lot.', 'Perfect, thank you!', 'Enjoy your evening.'],
);
/** Hypothetical and plan frames around a kind's infinitive phrase {X}. */
const FRAMES = both(
  ['{S} might {X} next year.', '{S} {be} thinking about whether to {X}.', '{S} want{s} to {X} someday.', 'If the price is right, {S} will {X}.', '{S} {be} planning to {X} in the summer.', '{S} would love to {X} one day.', '{P} friend keeps telling {O} to {X}.', 'Maybe {S} should {X}, who knows.', '{S} {have} been wondering whether to {X}.', '{S} {do}n\'t think {S} will ever {X}.', 'One day {S} hope{s} to {X}.', '{S} almost decided to {X}, but not yet.'],
  ['{S} {be} considering a plan to {X}.', 'It would be fun to {X}, {S} said.', 'There is a small chance {S} will {X}.', '{S} dream{s} of the day {S} can {X}.'],
);

interface Subject {
  S: string;
  s: string;
  es: string;
  be: string;
  have: string;
  do: string;
  P: string;
  he: string;
  O: string;
  Ps: string;
  was: string;
  id: string;
}
const first = (we: boolean, speaker: string): Subject => (we ? { S: 'we', s: '', es: '', be: 'are', have: 'have', do: 'do', P: 'our', he: 'we', O: 'us', Ps: 'our', was: 'were', id: speaker } : { S: 'I', s: '', es: '', be: 'am', have: 'have', do: 'do', P: 'my', he: 'I', O: 'me', Ps: 'my', was: 'was', id: speaker });
const third = ([name, poss, he]: [string, string, string]): Subject => ({ S: name, s: 's', es: 'es', be: 'is', have: 'has', do: 'does', P: poss, he, O: name.startsWith('my ') ? `${poss === 'his' ? 'him' : 'her'}` : name, Ps: `${name}'s`, was: 'was', id: name });

/** The held-out split's values (of every kind), lower-cased: never used here. */
function heldoutValues(): Set<string> {
  const out = new Set<string>();
  for (const g of Object.values(GRAMMAR)) for (const v of g.values.heldout) out.add(v.toLowerCase());
  return out;
}

/** Whether a text names a value of the held-out split (as a word, case as written there). */
function namesHeldoutValue(): (text: string) => boolean {
  const esc = Object.values(GRAMMAR).flatMap((g) => g.values.heldout.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  const re = new RegExp(`\\b(?:${esc.join('|')})\\b`);
  return (text) => re.test(text);
}

/** Options of {@link generateTalkPairs}. */
export interface TalkOptions {
  families: Cut;
  /** Update pairs per kind (as many non-updates, spread over the non-update families). */
  perKind: number;
  seed?: number;
}

/**
 * Generates the pairs of one cut: per kind `perKind` updates (update, end, end-unnamed about
 * 2:1:1) and `perKind` non-updates. Sides are `{text: "<speaker>: <text>", speaker, timeMs}`,
 * the newer one day later; about 40 % of the newer and 20 % of the older texts sit inside a
 * chatty message (a filler before, after, or both).
 */
export function generateTalkPairs(opts: TalkOptions): TalkPair[] {
  const cut = opts.families;
  const rnd = prng((opts.seed ?? TALK_SEED) + (cut === 'fit' ? 0 : 101));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const L = (xs: readonly string[]): string[] => familyCut(xs, cut);
  const held = heldoutValues();
  const out: TalkPair[] = [];
  const kinds = Object.keys(TALK);
  const t0 = Date.UTC(2025, 2, 1);
  const dress = (t: string, p: number): string => {
    if (rnd() >= p) return t;
    const r = rnd();
    const pre = r < 0.7 ? `${pick(PRE[cut])} ` : '';
    const post = r >= 0.35 ? ` ${pick(POST[cut])}` : '';
    return `${pre}${t}${post}`;
  };
  const side = (speaker: string, text: string, day: number): StateSide => ({ text: `${speaker}: ${text}`, speaker, timeMs: t0 + day * 864e5 });
  let day = 0;
  const heldoutNamed = namesHeldoutValue();
  /** Adds a pair unless it names a held-out value (a template or filler word may be one); whether it did. */
  const push = (kind: string, family: TalkFamily, person: 1 | 3, so: string, older: string, sn: string, newer: string): boolean => {
    day += 2;
    const pair: TalkPair = { kind, family, person, label: (UPDATE_FAMILIES as readonly string[]).includes(family) ? 1 : 0, older: side(so, dress(older, 0.2), day), newer: side(sn, dress(newer, 0.4), day + 1) };
    if (heldoutNamed(`${pair.older.text} ${pair.newer.text}`)) return false;
    out.push(pair);
    return true;
  };
  for (const kind of kinds) {
    const g = TALK[kind] as TalkKind;
    const values = valueCut(g.values, cut).filter((v) => !held.has(v.toLowerCase()));
    const two = (): [string, string] => {
      const a = pick(values);
      let b = pick(values);
      while (b === a) b = pick(values);
      return [a, b];
    };
    const subject = (): { subj: Subject; speaker: string; person: 1 | 3 } => {
      const speaker = pick(SPEAKERS[cut]);
      if (rnd() < 0.6) return { subj: first(g.we === true && rnd() < 0.2, speaker), speaker, person: 1 };
      return { subj: third(pick(THIRD[cut])), speaker, person: 3 };
    };
    const thing = (k: TalkKind) => (k.things ? pick(L(k.things)) : '');
    for (let i = 0, made = 0; made < opts.perKind && i < 50 * opts.perKind; i++) {
      const { subj, speaker, person } = subject();
      const [old, nu] = two();
      const a = thing(g);
      const r = rnd();
      const fam: GrammarFamily = r < 0.5 ? 'update' : r < 0.75 ? 'end' : 'end-unnamed';
      const tpl = fam === 'update' ? g.update : fam === 'end' ? g.end : g.endUnnamed;
      if (push(kind, fam, person, speaker, fill(pick(L(g.older)), subj, old, old, a), speaker, fill(pick(L(tpl)), subj, nu, old, a))) made++;
    }
    const negs: TalkFamily[] = ['addition', 'repeat', 'history', 'hypothetical', 'same-topic', 'other-subject', 'other-kind', 'small-talk'];
    for (let i = 0, made = 0; made < opts.perKind && i < 50 * opts.perKind; i++) {
      const fam = negs[made % negs.length] as TalkFamily;
      const { subj, speaker, person } = subject();
      const [old, nu] = two();
      const a = thing(g);
      let older = fill(pick(L(g.older)), subj, old, old, a);
      let newer: string;
      let sn = speaker;
      if (fam === 'addition') newer = fill(pick(L(g.addition)), subj, nu, old, a);
      else if (fam === 'repeat') newer = fill(pick(L(g.repeat)), subj, old, old, a);
      else if (fam === 'history') {
        // History told after the change: the older line is the present state (often the update itself).
        if (rnd() < 0.5) older = fill(pick(L(g.update)), subj, old, nu, a);
        newer = fill(pick(L(g.history)), subj, nu, old, a);
      } else if (fam === 'hypothetical') newer = fill(pick(FRAMES[cut]).replace('{X}', pick(L(g.plan))), subj, nu, old, a);
      else if (fam === 'same-topic') newer = fill(pick(L(g.sameTopic)), subj, nu, old, a);
      else if (fam === 'other-kind') {
        let k2 = pick(kinds);
        while (k2 === kind) k2 = pick(kinds);
        const g2 = TALK[k2] as TalkKind;
        const v2 = valueCut(g2.values, cut).filter((v) => !held.has(v.toLowerCase()));
        const x = pick(v2);
        newer = fill(pick(rnd() < 0.6 ? L(g2.update) : L(g2.end)), subj, x, pick(v2), thing(g2));
      } else if (fam === 'small-talk') {
        // Pleasantries after a state, or after other pleasantries (either side of an assistant chat).
        if (rnd() < 0.5) older = pick(SMALL[cut]);
        newer = pick(SMALL[cut]);
      } else {
        // The same change about someone else: another third person, or another speaker's "I".
        // Only templates that name their subject ("That chapter is closed now" names nobody).
        // (A cut with none — the schedule's validation cut — takes them from the whole kind.)
        const subjectNamed = (ts: string[]) => ts.filter((t) => /\{S\}|^\{P\}/.test(t));
        const named = subjectNamed([...L(g.update), ...L(g.end), ...L(g.endUnnamed)]);
        const tpl = pick(named.length > 0 ? named : subjectNamed([...g.update, ...g.end, ...g.endUnnamed]));
        if (person === 1 && rnd() < 0.5) {
          let other = pick(SPEAKERS[cut]);
          while (other === speaker) other = pick(SPEAKERS[cut]);
          sn = other;
          newer = fill(tpl, first(false, other), nu, old, a);
        } else {
          let o = pick(THIRD[cut]);
          while (o[0] === subj.S) o = pick(THIRD[cut]);
          newer = fill(tpl, third(o), nu, old, a);
        }
      }
      if (push(kind, fam, person, speaker, older, sn, newer)) made++;
    }
  }
  return out;
}
