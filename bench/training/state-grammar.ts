/**
 * The broad grammar of state changes (issue 24): labelled (older, newer) pairs over nine kinds of
 * state — home, workplace, occupation, diet, relationship, possession, schedule, preference, pet —
 * in first person ("I", "we", the speaker) and third person ("Tom", "my sister"), with updates
 * that name the new value, ends that name the old one, and ends that name none ("I quit my job").
 * Non-updates are the distractors a memory meets: additions, repeats, an unrelated statement on
 * the same topic (a visit is not a move), the same kind of change about another subject, a state
 * told as history, and a statement of another kind.
 *
 * HONEST SPLIT. Every template list and every value list is cut in two: a pair of the `train`
 * split uses only train templates and train values, a `heldout` pair only held-out templates
 * (whole template families: the phrasing never occurs in training) and held-out values (the
 * words never occur in training). Subjects' names are split too. Generated with a seeded PRNG
 * (mulberry32, {@link GRAMMAR_SEED}); deterministic.
 *
 * Every name, company and value is ordinary English; nothing comes from LoCoMo.
 *
 * @module
 */
import type { StateSide } from '../../src/system-one/state-update.js';
import { prng } from '../../test/helpers/prng.js';

/** The seed of the grammar. */
export const GRAMMAR_SEED = 2424;

/** Why a pair is labelled as it is: `update`, `end`, `end-unnamed` are updates (1), the rest not (0). */
export type GrammarFamily = 'update' | 'end' | 'end-unnamed' | 'addition' | 'repeat' | 'same-topic' | 'other-subject' | 'history' | 'other-kind' | 'cross-event' | 'other-end';

/** The families that are updates. */
export const UPDATE_FAMILIES: readonly GrammarFamily[] = ['update', 'end', 'end-unnamed'];

/** One labelled pair. */
export interface GrammarPair {
  kind: string;
  family: GrammarFamily;
  split: 'train' | 'heldout';
  /** First or third person. */
  person: 1 | 3;
  /** Whom the older line is about, as a question names them (`Maya`, `Tom`, `Maya's sister`). */
  subject: string;
  older: StateSide;
  newer: StateSide;
  label: 0 | 1;
}

/** A list cut into its train part and its held-out part. */
export interface Split<T> {
  train: T[];
  heldout: T[];
}

/**
 * Templates. Slots: {S} subject ("I", "we", "Tom", "my sister"), {s} the verb's third-person
 * `s`, {es} likewise for verbs in -es, {be} am/are/is, {have} have/has, {do} do/does, {P}
 * possessive (my/our/his/her), {Ps} the possessive naming the subject (my/our/Tom's; a leading
 * {P} becomes {Ps}), {he} subject pronoun, {O} object form (me/us/Tom), {V} the new value, {W}
 * the older value.
 */
export interface KindGrammar {
  values: Split<string>;
  /** Whether "we" can be the subject. */
  we?: boolean;
  /** The things {A} of the kind (activities of a schedule), split like values. */
  things?: Split<string>;
  older: Split<string>;
  update: Split<string>;
  end: Split<string>;
  endUnnamed: Split<string>;
  addition: Split<string>;
  repeat: Split<string>;
  sameTopic: Split<string>;
  history: Split<string>;
}

export const sp = <T>(train: T[], heldout: T[]): Split<T> => ({ train, heldout });

/** The grammar, by kind. */
export const GRAMMAR: Readonly<Record<string, KindGrammar>> = {
  home: {
    we: true,
    values: sp(['Porto', 'Lisbon', 'Berlin', 'Madrid', 'Boston', 'Denver', 'Dublin', 'Toronto', 'Seattle', 'Prague', 'Oslo', 'Lyon'], ['Vienna', 'Munich', 'Chicago', 'Sydney', 'Warsaw', 'Nairobi', 'Glasgow', 'Austin']),
    older: sp(['{S} live{s} in {V}.', '{S} {have} a flat in {V}.', '{P} home is in {V}.', '{S} rent{s} an apartment in {V}.', '{S} {be} based in {V}.', '{S} {have} lived in {V} since 2019.', '{S} {be} from {V} and still live{s} there.', '{Ps} apartment is in central {V}.', '{S} own{s} a house in {V}.', '{S} {be} living in {V} at the moment.'], ['{S} {have} been living in {V} for a few years now.', 'Home for {O} is {V}, right by the river.', '{S} settled down in {V} after college.']),
    update: sp(['{S} moved to {V}.', '{S} just relocated to {V}.', '{S} live{s} in {V} now.', '{P} new place is in {V}.', '{S} moved to {V} last month for good.', '{S} {be} living in {V} these days.', '{S} relocated to {V} for a new job.', '{S} just moved into a flat in {V}.', '{S} {have} moved, home is {V} now.', 'Since May {S} {have} been living in {V}.', '{S} left for {V} and live{s} there now.', '{S} changed cities, {he} {be} in {V} now.', '{Ps} new address is in {V}.'], ['{S} packed up everything and headed to {V}, that is home now.', 'Big news: {S} bought a house in {V} and moved in last week.', '{S} finally made the move to {V}.']),
    end: sp(['{S} moved out of {W}.', '{S} left {W} for good.', '{S} no longer live{s} in {W}.', '{S} moved away from {W}.', '{S} {do} not live in {W} anymore.', '{S} sold the house in {W}.', '{S} finally left {W}.', '{S} {be} out of {W} for good.'], ['{S} said goodbye to {W}, the rent got too high.', '{W} is behind {O} now, the lease ran out.']),
    endUnnamed: sp(['{S} moved out last week.', '{S} gave up the flat.', '{S} had to leave the apartment.', '{S} moved out of the flat.', '{S} sold {P} house and moved away.', '{S} left the city last month.', '{S} {do} not live there anymore.', '{S} {be} between homes right now.'], ['{S} handed back the keys and moved away.', 'The lease ended so {S} packed up and left.']),
    addition: sp(['{S} also {have} a small studio in {V} for work trips.', '{S} bought a holiday cottage in {V} as well.', '{S} also rent{s} a room in {V} during the week.', '{S} {have} a second home in {V} too.', '{S} inherited a cottage in {V} as well.'], ['On top of that {S} keep{s} a second place in {V}.']),
    repeat: sp(['{S} still live{s} in {W}.', '{S} {be} still in {W}, same flat.', '{S} {be} still living in {W}.', '{S} {have} no plans to leave {W}.', '{S} still love{s} living in {W}.'], ['Nothing changed, {S} {be} in {W} as always.']),
    sameTopic: sp(['{S} visited {V} last weekend for a concert.', '{S} love{s} the food in {W}.', 'The weather in {W} was awful today.', '{S} flew to {V} for a conference.', '{S} took a day trip to {V}.', '{S} {be} thinking about visiting {V} someday.', '{Ps} friend lives in {V}.', '{S} painted the kitchen of the flat in {W}.'], ['{S} spent a lovely week in {V} on holiday.', 'The trams in {W} are always late.']),
    history: sp(['{S} used to live in {V}.', 'Years ago {S} lived in {V}.', 'As a child {S} lived in {V}.', '{S} grew up in {V}.'], ['Back when {he} was a student {S} lived in {V}.']),
  },
  workplace: {
    values: sp(['Acme', 'Globex', 'Initech', 'Google', 'the hospital', 'the bank', 'a bakery', 'the library', 'Amazon', 'a law firm', 'the city council', 'Siemens'], ['a pharmacy', 'Microsoft', 'the university', 'a hotel', 'Deloitte', 'a startup', 'the post office', 'Ikea']),
    older: sp(['{S} work{s} at {V}.', '{S} {have} a job at {V}.', '{S} {be} employed by {V}.', '{S} work{s} as a designer at {V}.', '{S} work{s} for {V}.', '{S} {be} a manager at {V}.', '{S} {have} worked at {V} since 2020.', '{S} {be} on the sales team at {V}.', '{S} work{s} full-time at {V}.', '{S} got a job at {V} two years ago.'], ['{S} {have} been with {V} for three years.', '{P} employer is {V}.', '{S} spend{s} {P} days at {V}, on the night shift.']),
    update: sp(['{S} started a new job at {V}.', '{S} joined {V} last month.', '{S} work{s} at {V} now.', '{S} got hired by {V}.', '{S} switched jobs, {he} {be} at {V} now.', '{S} {be} working at {V} now.', '{S} moved to {V} for a better salary.', '{S} landed a job at {V}.', '{S} signed a contract with {V}.', '{S} left {P} old job and joined {V}.', '{S} {be} employed by {V} now.', '{S} changed employers, {he} work{s} for {V} now.', '{S} transferred to {V} this month.'], ['{S} accepted an offer from {V} and started on Monday.', '{Ps} first week at {V} is done, the new job is great.', '{S} took a position at {V}.']),
    end: sp(['{S} quit {W}.', '{S} left {W} in March.', '{S} no longer work{s} at {W}.', '{S} quit {W}, the commute was too long.', '{S} resigned from {W}.', '{S} got fired from {W}.', '{S} stopped working at {W}.', '{S} {do} not work at {W} anymore.', '{S} walked away from {W}.'], ['{S} handed in {P} notice at {W}.', '{W} let {O} go last week.']),
    endUnnamed: sp(['{S} quit {P} job.', '{S} got laid off last week.', '{S} resigned yesterday.', '{S} lost {P} job.', '{S} {be} out of work now.', '{S} left {P} job last month.', '{S} {do} not have a job anymore.', '{S} stopped working last week.'], ['Today was {Ps} last day at work, {he} walked out.', '{S} {be} unemployed since Friday.']),
    addition: sp(['{S} also do{es} some consulting for {V}.', '{S} took a second job at {V} on weekends.', '{S} also freelance{s} for {V}.', '{S} picked up a weekend job at {V} as well.', '{S} {be} volunteering at {V} too.'], ['On the side {S} help{s} out at {V} too.']),
    repeat: sp(['{S} still work{s} at {W}.', '{S} {be} still at {W}, same team.', '{S} {be} still working at {W}.', '{S} {have} no plans to leave {W}.', '{S} got a raise at {W}.'], ['{Ps} fifth year at {W}, nothing new.']),
    sameTopic: sp(['{W} had a summer party.', '{S} had a long meeting at work today.', '{S} bought shares of {V}.', '{W} opened a new office downtown.', '{S} complained about {P} boss.', '{S} had lunch near {V}.', '{S} read that {V} is hiring.', '{S} worked late again.'], ['{S} had an interview with {V}, just a chat.', 'The canteen at {W} is terrible.']),
    history: sp(['{S} used to work at {V}.', 'Years ago {S} worked for {V}.', '{S} did an internship at {V} long ago.', 'In {P} twenties {S} worked at {V}.'], ['{P} first job, long ago, was at {V}.']),
  },
  occupation: {
    values: sp(['teacher', 'nurse', 'lawyer', 'accountant', 'chef', 'software engineer', 'architect', 'electrician', 'journalist', 'plumber', 'waiter'], ['pharmacist', 'photographer', 'dentist', 'carpenter', 'librarian', 'firefighter', 'mechanic', 'translator']),
    older: sp(['{S} {be} a {V}.', '{S} work{s} as a {V}.', '{S} {have} been a {V} for ten years.', '{P} job is {V}.', '{S} {be} a {V} by profession.', '{S} trained as a {V}.', '{S} {have} worked as a {V} all {P} life.'], ['{S} earn{s} a living as a {V}.', 'By trade {S} {be} a {V}.']),
    update: sp(['{S} {be} a {V} now.', '{S} retrained as a {V}.', '{S} changed careers and became a {V}.', '{S} work{s} as a {V} these days.', '{S} became a {V}.', '{S} {be} working as a {V} now.', '{S} started a new career as a {V}.', '{S} got certified as a {V}.', '{S} now earn{s} {P} money as a {V}.', '{S} {be} no longer in {P} old line of work, {he} {be} a {V} now.'], ['After the course {S} finally qualified as a {V}.', '{S} switched careers, {he} {be} a full-time {V} now.']),
    end: sp(['{S} stopped working as a {W}.', '{S} {be} no longer a {W}.', '{S} gave up being a {W}.', '{S} quit being a {W}.', '{S} {do} not work as a {W} anymore.', '{S} retired as a {W}.'], ['{S} hung up {P} {W} uniform for good.']),
    endUnnamed: sp(['{S} retired last month.', '{S} quit {P} career.', '{S} stopped working altogether.', '{S} retired.', '{S} gave up {P} profession.', '{S} {do} not work anymore.'], ['{S} left the profession for good.']),
    addition: sp(['{S} also work{s} as a {V} on weekends.', '{S} {be} a part-time {V} too.', '{S} also train{s} to be a {V} at night.', '{S} work{s} part-time as a {V} as well.'], ['Besides that {S} pick{s} up shifts as a {V}.']),
    repeat: sp(['{S} {be} still a {W}.', '{S} still work{s} as a {W}.', '{S} {be} still working as a {W}.', '{S} love{s} being a {W}.'], ['{S} remain{s} a {W}, nothing changed.']),
    sameTopic: sp(['{S} met a {V} at the party.', '{P} cousin is a {V}.', 'Being a {W} is exhausting some days.', '{S} asked a {V} for advice.', '{Ps} neighbour works as a {V}.'], ['The {V} on the news was funny.']),
    history: sp(['{S} used to be a {V}.', 'Years ago {S} worked as a {V}.', '{S} trained as a {V} decades ago.', 'When {he} {was} young {S} wanted to be a {V}.'], ['Before all this {S} had a stint as a {V}.']),
  },
  diet: {
    values: sp(['vegetarian', 'vegan', 'on a keto diet', 'gluten-free', 'on a low-carb diet', 'dairy-free'], ['pescatarian', 'on a paleo diet', 'sugar-free', 'on an intermittent fasting plan']),
    older: sp(['{S} {be} {V}.', '{S} {have} been {V} for years.', '{S} eat{s} {V}, strictly.', '{S} {have} been {V} since high school.', '{S} {be} strictly {V}.', '{S} only eat{s} {V} food.'], ['{S} stick{s} to being {V}.', 'For years now {S} {have} stayed {V}.']),
    update: sp(['{S} went {V} last month.', '{S} {be} {V} now.', '{S} decided to go {V}.', '{S} switched and {be} {V} these days.', '{S} became {V}.', '{S} {have} gone {V}.', '{S} started being {V}.', '{S} {be} {V} since last month.', '{S} changed {P} diet, {he} {be} {V} now.'], ['Since January {S} {have} been trying to be {V}.', '{S} made the switch to being {V}.']),
    end: sp(['{S} {be} no longer {W}.', '{S} gave up being {W}.', '{S} stopped being {W}.', '{S} quit being {W}.', '{S} {be} not {W} anymore.', '{S} broke {P} {W} streak.'], ['{S} {be} done with being {W}.']),
    endUnnamed: sp(['{S} started eating meat again.', '{S} quit {P} diet.', '{S} eat{s} everything again now.', '{S} gave up the diet.', '{S} went back to eating everything.', '{S} stopped dieting.'], ['{S} dropped the diet and had a burger.']),
    addition: sp(['{S} also avoid{s} coffee.', '{S} {be} {W} and cut sugar as well.', '{S} also cut out caffeine.', '{S} {be} {W} and avoid{s} fried food too.'], ['On top of that {S} skip{s} alcohol too.']),
    repeat: sp(['{S} {be} still {W}.', '{S} still eat{s} {W}.', '{S} {have} stayed {W}.', '{S} {be} {W}, as always.'], ['{S} remain{s} {W}, as always.']),
    sameTopic: sp(['{S} cooked a big dinner for friends.', '{S} found a great {W} recipe.', 'The restaurant had a {V} menu.', '{S} baked bread today.', '{S} tried a new restaurant.', '{S} bought a cookbook about {V} meals.'], ['{S} read an article about {V} food.']),
    history: sp(['{S} used to be {V}.', 'Years ago {S} {was} {V}.', '{S} tried being {V} once, years ago.', 'As a student {S} {was} {V}.'], ['Back in college {S} {was} {V} for a while.']),
  },
  relationship: {
    values: sp(['Tom', 'Ana', 'Leo', 'Sara', 'Mark', 'Julia', 'Ben', 'Nina', 'Omar', 'Eva'], ['Lucas', 'Hana', 'Felix', 'Rosa', 'Ivan', 'Clara']),
    older: sp(['{S} {be} dating {V}.', '{S} {be} married to {V}.', '{P} partner is {V}.', '{S} and {V} are together.', '{S} {be} engaged to {V}.', '{S} {have} a boyfriend, {V}.', '{S} live{s} with {P} partner {V}.', '{V} is {Ps} fiance.', '{S} {have} been with {V} for years.'], ['{S} {have} been seeing {V} since spring.', '{V} and {S} moved in together last year.']),
    update: sp(['{S} {be} seeing {V} now.', '{S} got engaged to {V}.', '{P} new partner is {V}.', '{S} started dating {V}.', '{S} married {V} last month.', '{S} {be} dating {V} now.', '{S} {be} with {V} now.', '{S} {have} a new partner, {V}.', '{S} and {V} are a couple now.', '{S} {be} in a relationship with {V} now.', '{S} moved in with {V}.', '{S} just got married to {V}.'], ['{S} fell for {V} and they are a couple now.', 'These days {S} go{es} out with {V}.']),
    end: sp(['{S} broke up with {W}.', '{S} and {W} split up.', '{S} {be} no longer with {W}.', '{S} divorced {W}.', '{S} {be} not with {W} anymore.', '{S} and {W} separated.', '{S} left {W}.', '{W} broke up with {O}.'], ['Things between {O} and {W} are over.', '{W} moved out, it is over between them.']),
    endUnnamed: sp(['{S} {be} single again.', '{S} went through a breakup.', '{S} got divorced last year.', '{S} {be} single now.', '{S} broke up with {P} partner.', '{S} ended {P} relationship.', '{S} {be} not seeing anyone anymore.'], ['The relationship is finished, {S} {be} on {P} own now.']),
    addition: sp(['{S} also met {V} at the party, a nice friend.', '{S} and {W} had dinner with {V} too.', '{S} made a new friend, {V}.', '{S} and {W} invited {V} over too.'], ['{V} joined {O} and {W} for the trip as well.']),
    repeat: sp(['{S} {be} still with {W}.', '{S} and {W} are still together.', '{S} {be} still dating {W}.', '{S} and {W} are happy together.'], ['{S} and {W} celebrated another anniversary.']),
    sameTopic: sp(['{S} went to a wedding last weekend.', '{V} is {Ps} colleague.', '{S} and {W} had a small argument.', '{S} bought flowers for {W}.', '{S} went to {V}\'s birthday party.'], ['{S} had lunch with {P} friend {V}.']),
    history: sp(['{S} used to date {V}.', 'Years ago {S} went out with {V}.', '{S} dated {V} in college.', '{S} {was} married to {V} long ago.'], ['{P} first love, in school, was {V}.']),
  },
  possession: {
    we: true,
    values: sp(['red Toyota', 'old Honda', 'blue Volvo', 'Ford pickup', 'black Audi', 'vintage Fiat', 'white Tesla'], ['silver Mazda', 'grey Subaru', 'green Jeep', 'little Renault', 'used Nissan']),
    older: sp(['{S} own{s} a {V}.', '{S} drive{s} a {V}.', '{S} {have} a {V}.', '{P} car is a {V}.', '{S} {have} owned a {V} for years.', '{S} drive{s} {P} {V} to work.', '{S} bought a {V} two years ago.'], ['{S} get{s} around in a {V}.', 'Parked outside is {Ps} {V}.']),
    update: sp(['{S} bought a {V}.', '{S} drive{s} a {V} now.', '{S} got a new car, a {V}.', '{S} traded in the car for a {V}.', '{S} {be} driving a {V} now.', '{S} replaced the car with a {V}.', '{S} swapped {P} car for a {V}.', '{S} {have} a new {V}.', '{S} upgraded to a {V}.'], ['{S} picked up a {V} from the dealer yesterday.', 'The old car is gone, {S} {have} a {V} instead.']),
    end: sp(['{S} sold the {W}.', 'The {W} got stolen.', '{S} no longer {have} the {W}.', '{S} sold {P} {W}.', '{S} gave away the {W}.', '{S} crashed the {W}, it is gone.', '{S} {do} not own the {W} anymore.'], ['{S} scrapped the {W} after the crash.']),
    endUnnamed: sp(['{S} sold the car last week.', '{S} got rid of the car.', '{S} {do} not have a car anymore.', '{S} sold {P} car.', '{S} {do} not drive anymore.', '{S} gave up {P} car.', '{Ps} car was stolen.'], ['{S} take{s} the bus since the car went to the scrapyard.', 'The car is gone, {S} sold it to a neighbour.']),
    addition: sp(['{S} also bought a {V} for the kids.', '{S} got a second car, a {V}.', '{S} also own{s} a {V}.', '{S} bought a {V} for weekends too.'], ['Next to the {W}, {S} now keep{s} a {V} too.']),
    repeat: sp(['{S} still drive{s} the {W}.', '{S} still {have} the {W}.', '{S} {be} still driving the {W}.', '{S} cleaned the {W} again.'], ['{Ps} {W} is still running fine.']),
    sameTopic: sp(['{S} washed the car today.', '{S} rented a {V} for the weekend.', 'The {W} needs new tyres.', '{S} got a parking ticket.', '{S} test-drove a {V}.', '{S} filled up the {W} with petrol.'], ['{S} saw a {V} at the car show.']),
    history: sp(['{S} used to drive a {V}.', 'Years ago {S} owned a {V}.', '{S} drove a {V} as a student.', '{Ps} parents had a {V} when {he} {was} small.'], ['{P} first car, long ago, was a {V}.']),
  },
  pet: {
    we: true,
    values: sp(['a dog', 'a cat', 'two rabbits', 'a parrot', 'a hamster', 'a goldfish'], ['a puppy', 'a kitten', 'a tortoise', 'two guinea pigs']),
    older: sp(['{S} {have} {V}.', '{S} own{s} {V}.', '{S} look{s} after {V} at home.', '{S} {have} had {V} for years.', '{S} take{s} care of {V}.', '{S} live{s} with {V}.'], ['{S} share{s} the flat with {V}.', 'At home {S} keep{s} {V}.']),
    update: sp(['{S} adopted {V}.', '{S} got {V} last week.', '{S} {have} {V} now instead.', '{S} just adopted {V}.', '{S} {have} {V} now.', '{S} welcomed {V} into the family.', '{S} bought {V}.', '{S} {be} a proud owner of {V} now.'], ['{S} brought home {V} from the shelter.', 'The newest member of {Ps} family is {V}.']),
    end: sp(['{S} gave away {W}.', '{S} no longer {have} {W}.', '{S} lost {W} last month, it died.', '{W} passed away.', '{S} gave {W} to a friend.', '{S} {do} not have {W} anymore.'], ['{S} had to rehome {W}.']),
    endUnnamed: sp(['{P} pet died last week.', '{S} gave the pet away.', '{S} {do} not have any pets anymore.', '{S} gave up {P} pet.', '{Ps} pet passed away.', '{S} no longer {have} a pet.'], ['The animal went to a new home, {S} could not keep it.']),
    addition: sp(['{S} also got {V}.', '{S} adopted {V} too.', '{S} {have} {V} as well now.', '{S} got {V} to keep {W} company.'], ['Along with the others {S} now {have} {V} as well.']),
    repeat: sp(['{S} still {have} {W}.', '{S} {be} still looking after {W}.', '{S} still take{s} care of {W}.', '{S} {be} still living with {W}.'], ['{W} is still with {O}, doing fine.']),
    sameTopic: sp(['{S} went to the vet today.', '{S} saw {V} in the park.', '{S} bought pet food.', '{S} walked past a pet shop.', '{S} fed the ducks in the park.'], ['{S} watched a video of {V} online.']),
    history: sp(['{S} used to have {V}.', 'As a kid {S} had {V}.', '{S} had {V} growing up.', 'Years ago {S} owned {V}.'], ['Long ago {S} kept {V}.']),
  },
  schedule: {
    we: true,
    things: sp(['yoga class', 'piano lessons', 'gym session', 'pottery class', 'choir rehearsal'], ['spin class', 'book club', 'chess club', 'dance lesson']),
    values: sp(['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'weekends'], ['Fridays', 'Saturdays', 'Sunday mornings', 'weekday evenings']),
    older: sp(['{P} {A} is on {V}.', '{S} {have} {P} {A} on {V}.', '{S} go{es} to {A} every week on {V}.', '{P} {A} takes place on {V}.', '{S} always {have} {A} on {V}.', '{Ps} {A} is every {V}.', '{S} attend{s} {A} on {V}.'], ['Every week {Ps} {A} happens on {V}.', '{V} are reserved for {Ps} {A}.']),
    update: sp(['{P} {A} moved to {V}.', '{S} {have} {P} {A} on {V} now.', '{P} {A} is on {V} from now on.', '{Ps} {A} was rescheduled to {V}.', '{Ps} {A} is now on {V}.', '{Ps} {A} changed to {V}.', '{S} switched {P} {A} to {V}.', '{S} {have} {A} on {V} these days.', 'The teacher moved {Ps} {A} to {V}.'], ['They shifted {Ps} {A} to {V}.', 'Starting next week, {Ps} {A} happens on {V} instead.']),
    end: sp(['{S} stopped going to {A} on {W}.', '{S} no longer {have} {A} on {W}.', '{S} {do} not have {A} on {W} anymore.', '{S} cancelled {P} {A} on {W}.'], ['{W} are free for {O} now, the {A} is gone.']),
    endUnnamed: sp(['{S} dropped {A}.', '{S} quit {A} for good.', '{S} stopped going to {A}.', '{S} cancelled {P} {A} for good.', '{S} {do} not go to {A} anymore.', '{S} gave up {A}.'], ['The {A} folded, {S} {have} none anymore.']),
    addition: sp(['{S} also {have} a second {A} on {V}.', '{S} added another {A} on {V}.', '{S} also go{es} to {A} on {V}.', '{S} {have} an extra {A} on {V}.'], ['On top of that {S} now {have} an extra {A} on {V} too.']),
    repeat: sp(['{P} {A} is still on {W}.', '{S} still go{es} to {A} on {W}.', '{S} {have} {A} on {W}, as usual.', '{Ps} {A} is on {W} as before.'], ['Same as always, {Ps} {A} is on {W}.']),
    sameTopic: sp(['{S} loved the {A} today.', '{S} missed {A} on {W} because of rain.', 'The {A} was packed on {W}.', '{S} enjoyed the {A}.', '{S} {was} late for {A}.'], ['{S} bought new shoes for the {A}.']),
    history: sp(['{S} used to have {A} on {V}.', 'Years ago {Ps} {A} was on {V}.', '{S} had {A} on {V} as a kid.', 'Long ago {Ps} {A} was on {V}.'], ['Back in school {S} had {A} on {V}.']),
  },
  preference: {
    values: sp(['sushi', 'jazz', 'tea', 'pizza', 'rock music', 'red wine', 'horror films', 'hiking', 'chess'], ['ramen', 'classical music', 'coffee', 'tacos', 'sci-fi novels', 'gardening']),
    older: sp(['{P} favourite thing is {V}.', '{S} love{s} {V}.', '{S} really enjoy{s} {V}.', '{S} {be} a big fan of {V}.', '{S} adore{s} {V}.', '{S} {be} crazy about {V}.', '{V} is {Ps} favourite.'], ['Nothing makes {O} happier than {V}.', 'If you ask {O}, {V} is the best.']),
    update: sp(['{P} favourite thing is {V} now.', '{S} {be} into {V} these days.', '{S} prefer{s} {V} now.', '{S} got hooked on {V} recently.', '{S} {have} switched to {V}.', '{S} love{s} {V} now.', '{Ps} new favourite is {V}.', '{S} {be} obsessed with {V} these days.', '{S} {have} become a fan of {V}.', '{S} like{s} {V} more than anything now.'], ['Lately {S} cannot get enough of {V}.', '{S} discovered {V} and it is {P} new obsession.']),
    end: sp(['{S} {be} tired of {W}.', '{S} {do} not like {W} anymore.', '{S} went off {W}.', '{S} {do} not enjoy {W} anymore.', '{S} {be} bored of {W}.', '{S} gave up on {W}.'], ['{W} lost its charm for {O}.']),
    endUnnamed: sp(['{S} lost interest in it completely.', '{S} {be} over that phase now.', '{S} {do} not care for it anymore.', '{S} {be} not into it anymore.', '{S} lost interest.'], ['{Ps} old passion faded.']),
    addition: sp(['{S} also love{s} {V}.', '{S} enjoy{s} {V} too.', '{S} like{s} {V} as well.', '{S} {have} also started to enjoy {V}.'], ['Besides {W}, {S} like{s} {V} as well.']),
    repeat: sp(['{S} still love{s} {W}.', '{S} {be} still a big fan of {W}.', '{S} {be} still crazy about {W}.', '{S} enjoy{s} {W}, as always.'], ['{W} remains {Ps} favourite.']),
    sameTopic: sp(['{S} read a review about {V}.', '{S} had {W} with friends yesterday.', 'There was a festival of {V} in town.', '{S} talked about {V} with friends.', '{S} watched a show about {V}.'], ['{S} argued about {V} with a friend.']),
    history: sp(['{S} used to love {V}.', 'As a kid {S} {was} into {V}.', '{S} loved {V} in school.', '{S} {was} into {V} years ago.'], ['Long ago {S} {was} crazy about {V}.']),
  },
};

/** Subjects: first person (the speaker) and third person (names and relatives), split. */
export const THIRD = sp<[string, 'his' | 'her', 'he' | 'she']>(
  [['Tom', 'his', 'he'], ['Maria', 'her', 'she'], ['Daniel', 'his', 'he'], ['Priya', 'her', 'she'], ['my sister', 'her', 'she'], ['my brother', 'his', 'he'], ['Chen', 'his', 'he']],
  [['Grace', 'her', 'she'], ['Samuel', 'his', 'he'], ['my mother', 'her', 'she'], ['my cousin Ali', 'his', 'he'], ['Yuki', 'her', 'she']],
);
/** Words around a sentence, as a chat line has them (split like the templates). */
export const PREFIX = sp(['Guess what! ', 'Hey! ', 'Quick update. ', 'Big news! ', 'Oh wow. ', 'So yeah. ', 'Honestly? ', 'Hey, how are you? '], ['Anyway. ', 'Hi there! ', 'Fun fact: ']);
export const SUFFIX = sp([' It was a big decision.', ' Crazy times!', ' How are you doing?', ' I will tell you more later.', ' Feels good.', ' Not sure how I feel about it.', ' Anyway, how was your weekend?'], [' What a week.', ' Talk soon!', ' Life is funny.']);
export const SPEAKERS = sp(['Maya', 'Jon', 'Caroline', 'Andrew'], ['Gina', 'Nate', 'Evan']);

/** A subject's forms. */
export interface Subject {
  S: string;
  s: string;
  es: string;
  be: string;
  have: string;
  do: string;
  P: string;
  he: string;
  /** Object form (me, us, Tom) and the possessive that names the subject (my, our, Tom's). */
  O: string;
  Ps: string;
  was: string;
  /** Who it is (same id, same subject). */
  id: string;
}

export const firstPerson = (we: boolean, speaker: string): Subject => (we ? { S: 'we', s: '', es: '', be: 'are', have: 'have', do: 'do', P: 'our', he: 'we', O: 'us', Ps: 'our', was: 'were', id: speaker } : { S: 'I', s: '', es: '', be: 'am', have: 'have', do: 'do', P: 'my', he: 'I', O: 'me', Ps: 'my', was: 'was', id: speaker });
export const thirdPerson = ([name, poss, he]: [string, string, string]): Subject => ({ S: name, s: 's', es: 'es', be: 'is', have: 'has', do: 'does', P: poss, he, O: name, Ps: `${name}'s`, was: 'was', id: name });

/** How a question names a subject: the speaker for "I"/"we", `Maya's sister` for "my sister". */
export function whom(subj: Subject, speaker: string): string {
  if (subj.S === 'I' || subj.S === 'we') return speaker;
  return subj.S.startsWith('my ') ? `${speaker}'s ${subj.S.slice(3)}` : subj.S;
}

/** Fills a template; the sentence starts with a capital. */
export function fill(template: string, subj: Subject, v: string, w: string, a = ''): string {
  const t = template.replace(/^\{P\}/, '{Ps}').replace(/\{(S|s|es|be|have|do|Ps|P|he|O|was|A|V|W)\}/g, (_, k: string) => (k === 'V' ? v : k === 'W' ? w : k === 'A' ? a : (subj[k as keyof Subject] as string))).replace(/\b([Aa]) (?=[aeiou])/g, '$1n ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** Options of {@link generateGrammarPairs}. */
export interface GrammarOptions {
  /** Which split (its templates, values and names). */
  split: 'train' | 'heldout';
  /** Update pairs per kind (the non-updates are about as many, spread over the distractor families). */
  perKind: number;
  seed?: number;
  /**
   * Within the `train` split, which template families and values (default `all`): `fit` leaves
   * out every fourth entry of each list (or the last of a short list), `validation` keeps only
   * those — a slice of TRAINING families a trainer chooses its model on, so the `heldout` split
   * is never used to choose anything. Ignored for `heldout`.
   */
  families?: 'all' | 'fit' | 'validation';
  /**
   * A broader train grammar (./state-grammar-broad.ts `broadTrainParts()`): its kinds, lists,
   * names, speakers and chat words replace {@link GRAMMAR}'s for the `train` split. Ignored for
   * `heldout`, whose pairs stay exactly those of {@link GRAMMAR}.
   */
  broad?: BroadParts | undefined;
}

/** The parts of a broader train grammar ({@link GrammarOptions.broad}). */
export interface BroadParts {
  grammar: Readonly<Record<string, KindGrammar>>;
  third: ReadonlyArray<[string, 'his' | 'her', 'he' | 'she']>;
  speakers: readonly string[];
  prefix: readonly string[];
  suffix: readonly string[];
  /**
   * Kinds that also get the non-update family `other-end` (h-su): the end of ANOTHER value of the
   * same kind and subject — "Tom and I broke up" after "I'm married to Alex", "I quit Globex" after
   * "I work at Acme" — an end template naming a value the older does not hold.
   */
  otherEndKinds?: readonly string[];
}

/** The values {@link GrammarOptions.families} keeps: the last third (at least 2) for `validation`, the rest for `fit`. */
export function valueCut<T>(xs: readonly T[], families: 'all' | 'fit' | 'validation'): T[] {
  if (families === 'all') return [...xs];
  const k = Math.max(2, Math.ceil(xs.length / 3));
  return families === 'validation' ? xs.slice(xs.length - k) : xs.slice(0, xs.length - k);
}

/** The entries of a train list that {@link GrammarOptions.families} keeps. */
export function familyCut<T>(xs: readonly T[], families: 'all' | 'fit' | 'validation'): T[] {
  if (families === 'all' || xs.length < 2) return [...xs];
  const isVal = (i: number) => (xs.length >= 4 ? i % 4 === 3 : i === xs.length - 1);
  return xs.filter((_, i) => isVal(i) === (families === 'validation'));
}

/**
 * Generates labelled pairs of one split: per kind, `perKind` updates (update, end, end-unnamed in
 * about 3:1:1) and as many non-updates (addition, repeat, same-topic, other-subject, history,
 * other-kind, in equal shares). Sides are `{text: "<Speaker>: <sentence>", speaker, timeMs}`
 * with the newer one day later.
 */
export function generateGrammarPairs(opts: GrammarOptions): GrammarPair[] {
  const rnd = prng((opts.seed ?? GRAMMAR_SEED) + (opts.split === 'train' ? 0 : 7919));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const split = opts.split;
  const fams = split === 'train' ? (opts.families ?? 'all') : 'all';
  const L = <T>(s: Split<T>): T[] => familyCut(s[split], fams);
  const out: GrammarPair[] = [];
  const broad = split === 'train' ? opts.broad : undefined;
  const G = broad?.grammar ?? GRAMMAR;
  const THIRDS = broad ? [...THIRD.train, ...broad.third] : THIRD[split];
  const SPEAK = broad ? [...SPEAKERS.train, ...broad.speakers] : SPEAKERS[split];
  const PRE = broad ? [...PREFIX.train, ...broad.prefix] : PREFIX[split];
  const SUF = broad ? [...SUFFIX.train, ...broad.suffix] : SUFFIX[split];
  const kinds = Object.keys(G);
  const t0 = Date.UTC(2024, 0, 1);
  for (const kind of kinds) {
    const g = G[kind] as KindGrammar;
    const values = valueCut(g.values[split], fams);
    const two = (): [string, string] => {
      const a = pick(values);
      let b = pick(values);
      while (b === a) b = pick(values);
      return [a, b];
    };
    const subject = (): { subj: Subject; speaker: string; person: 1 | 3 } => {
      const speaker = pick(SPEAK);
      if (rnd() < 0.55) return { subj: firstPerson(g.we === true && rnd() < 0.25, speaker), speaker, person: 1 };
      return { subj: thirdPerson(pick(THIRDS)), speaker, person: 3 };
    };
    const dress = (t: string, p: number): string => `${rnd() < p ? pick(PRE) : ''}${t}${rnd() < p ? pick(SUF) : ''}`;
    const push = (family: GrammarFamily, olderPlain: string, newerPlain: string, speakerOld: string, speakerNew: string, person: 1 | 3, i: number, subject: string): void => {
      const older = dress(olderPlain, 0.25);
      const newer = dress(newerPlain, 0.35);
      out.push({ kind, family, split, person, subject, label: UPDATE_FAMILIES.includes(family) ? 1 : 0, older: { text: `${speakerOld}: ${older}`, speaker: speakerOld, timeMs: t0 + i * 864e5 }, newer: { text: `${speakerNew}: ${newer}`, speaker: speakerNew, timeMs: t0 + (i + 1) * 864e5 } });
    };
    for (let i = 0; i < opts.perKind; i++) {
      const { subj, speaker, person } = subject();
      const [old, nu] = two();
      const a = g.things ? pick(L(g.things)) : '';
      const olderText = fill(pick(L(g.older)), subj, old, old, a);
      const r = rnd();
      const fam: GrammarFamily = r < 0.6 ? 'update' : r < 0.8 ? 'end' : 'end-unnamed';
      const tpl = fam === 'update' ? g.update : fam === 'end' ? g.end : g.endUnnamed;
      push(fam, olderText, fill(pick(L(tpl)), subj, nu, old, a), speaker, speaker, person, i, whom(subj, speaker));
    }
    const negFamilies: GrammarFamily[] = ['addition', 'repeat', 'same-topic', 'other-subject', 'history', 'other-kind'];
    const namedEnds = L(g.end).filter((t) => t.includes('{W}'));
    if (broad?.otherEndKinds?.includes(kind) === true && namedEnds.length > 0) negFamilies.push('other-end');
    for (let i = 0; i < opts.perKind; i++) {
      const fam = negFamilies[i % negFamilies.length] as GrammarFamily;
      const { subj, speaker, person } = subject();
      const [old, nu] = two();
      const a = g.things ? pick(L(g.things)) : '';
      const olderText = fill(pick(L(g.older)), subj, old, old, a);
      let newer: string;
      let speakerNew = speaker;
      if (fam === 'addition') newer = fill(pick(L(g.addition)), subj, nu, old, a);
      else if (fam === 'repeat') newer = fill(pick(L(g.repeat)), subj, old, old, a);
      else if (fam === 'same-topic') newer = fill(pick(L(g.sameTopic)), subj, nu, old, a);
      else if (fam === 'history') newer = fill(pick(L(g.history)), subj, nu, old, a);
      // The end of another value (another partner, another job): it names `nu`, never the older's value.
      else if (fam === 'other-end') newer = fill(pick(namedEnds), subj, nu, nu, a);
      else if (fam === 'other-kind') {
        let k2 = pick(kinds);
        while (k2 === kind) k2 = pick(kinds);
        const g2 = G[k2] as KindGrammar;
        const v2 = pick(valueCut(g2.values[split], fams));
        newer = fill(pick(rnd() < 0.5 ? L(g2.update) : L(g2.older)), subj, v2, v2, g2.things ? pick(L(g2.things)) : '');
      } else {
        // The same change about another subject: another third person, or the other speaker's "I".
        const tpl = pick([...L(g.update), ...L(g.end), ...L(g.endUnnamed)]);
        if (person === 1 && rnd() < 0.5) {
          let other = pick(SPEAK);
          while (other === speaker) other = pick(SPEAK);
          speakerNew = other;
          newer = fill(tpl, firstPerson(false, other), nu, old, a);
        } else {
          let o = pick(THIRDS);
          while (o[0] === subj.S) o = pick(THIRDS);
          newer = fill(tpl, thirdPerson(o), nu, old, a);
        }
      }
      push(fam, olderText, newer, speaker, speakerNew, person, i, whom(subj, speaker));
    }
  }
  return out;
}
