/**
 * A broader TRAINING grammar of state changes (issue 24, h-changes): more ways of saying each of
 * the nine kinds of ./state-grammar.ts in plain English, more values (phones, laptops and bikes
 * beside cars; brand-only changes such as "Galaxy S24" to "Pixel 8"), more names, and chat lines
 * around them. Train split only: {@link broadGrammar} appends these lists to the `train` side of
 * {@link GRAMMAR} and leaves the held-out side as it is, so the held-out template families,
 * values and names stay unseen (a test checks that none of these templates or values is a
 * held-out one, and that no held-out value occurs in a broad train pair).
 *
 * Written from general knowledge of how people say that a state began, changed or ended — verbs
 * of moving, joining, leaving, starting, stopping, swapping, adopting, losing; present markers
 * ("these days", "at this point", "for now"); ends without the value ("that's over", "not any
 * more") — and hard non-updates in the same style (plans, wishes, other people, visits, history).
 * Slots as in {@link KindGrammar}.
 *
 * @module
 */
import { GRAMMAR, sp, type BroadParts, type KindGrammar, type Split } from './state-grammar.js';

type ListKey = Exclude<keyof KindGrammar, 'we'>;

/** Extra train entries per kind and list. */
export const BROAD_TRAIN: Readonly<Record<string, Partial<Record<ListKey, string[]>>>> = {
  home: {
    values: ['Leeds', 'Bristol', 'Kraków', 'Valencia', 'Rotterdam', 'Tallinn', 'Montreal', 'Portland', 'Cork', 'Bologna', 'Ghent', 'Bergen'],
    older: ['{S} {be} renting a place in {V}.', '{P} flat is in the north of {V}.', '{S} {have} a little house on the edge of {V}.', '{S} {have} made a home in {V}.'],
    update: ['{S} {be} a {V} resident now.', '{S} just signed a lease in {V}.', '{S} ended up moving to {V}.', 'Home is {V} for {O} these days.', '{S} {have} set up in {V} now.', '{S} now call{s} {V} home.', 'After the move {S} {be} in {V}.', '{S} finished moving into a place in {V}.', '{S} {be} settled in {V} now.', 'The movers dropped the last boxes at {Ps} new flat in {V}.', '{S} swapped {W} for {V}.', '{S} traded {W} for {V} this spring.', '{S} moved from {W} to {V}.', 'As of this month {S} live{s} in {V}.', '{S} {have} a new flat in {V}, the move was last week.', '{S} relocated from {W}, {he} {be} in {V} now.', '{S} bought a place in {V} and live{s} there now.', '{S} {be} renting in {V} since the spring.', '{S} left {W}. {P} new home is in {V}.'],
    end: ['{S} {have} moved on from {W}.', '{S} {be} done with {W}, {he} left.', '{S} waved goodbye to {W} last week.', '{S} gave notice on the flat in {W}.', '{W} is not home for {O} anymore.', '{S} {do} not stay in {W} any more.', '{S} left {W} behind last month.', '{S} {have} not lived in {W} since May.', '{S} got out of {W} for good.'],
    endUnnamed: ['{S} gave up {P} lease.', '{S} {have} no fixed address right now.', '{S} left {P} old place for good.', '{S} {be} couch surfing since {he} moved out.', '{S} sold up and left.', 'That flat is not {Ps} home anymore.', '{S} moved out on Sunday, the flat is empty now.', '{S} {do} not have a place of {P} own anymore.', '{S} {have} no home of {P} own right now.'],
    addition: ['{S} {be} staying with a friend in {V} for the weekend.', '{S} bought a plot of land near {V} as an investment.'],
    repeat: ['{S} renewed the lease in {W} for another year.', '{S} {be} staying put in {W}.', '{S} {have} lived in {W} for ages and still do{es}.', '{S} {be} still at the same address in {W}.', '{S} {have} not moved, still {W}.'],
    sameTopic: ['{S} {be} thinking about moving to {V} one day.', '{S} might move to {V} next year, nothing decided.', '{S} looked at flats in {V}, just browsing.', '{Ps} parents moved to {V}.', '{S} would love to live in {V} someday.', '{S} {have} a job interview in {V} next week.', '{S} {be} looking for a bigger flat in {W}.', '{S} helped a friend move to {V}.', '{S} {have} a long weekend in {V} coming up.', '{S} would move to {V} if the job came through.', 'If {S} ever leave{s} {W}, it will be for {V}.', '{S} {be} hoping to live in {V} one day.'],
    history: ['{S} spent {P} childhood in {V}.', '{S} lived in {V} for a year after school.', 'Before {W}, {S} lived in {V}.', 'In the old days {S} lived in {V}.', 'When {he} was younger {S} lived in {V} for a while.'],
  },
  workplace: {
    values: ['Pfizer', 'Oracle', 'the airport', 'a call centre', 'Spotify', 'a primary school', 'Shell', 'a supermarket', 'the museum', 'Nestlé', 'a garage', 'Unilever'],
    older: ['{S} {be} at {V} these days, in marketing.', '{S} {have} been working for {V} since last year.', '{P} office is at {V}.'],
    update: ['{S} started at {V} on Monday.', '{S} {be} with {V} now.', '{S} work{s} for {V} these days.', '{S} got the job at {V}.', '{S} {be} on the payroll of {V} now.', '{S} {have} a new employer: {V}.', '{S} moved over to {V}.', 'The new job at {V} starts tomorrow for {O}.', '{S} jumped ship to {V}.', '{S} went from {W} to {V}.', '{S} swapped {W} for {V}.', '{S} {be} at {V} now, {he} left {W}.', '{S} now work{s} at {V}.', '{S} took a job with {V}.', '{S} {be} starting at {V} next week, the offer came through.', '{S} signed with {V} and left {W}.', '{S} work{s} at {V} since March.', '{S} said yes to {V}, first day was Monday.', '{S} left {W}. {S} {be} at {V} now.'],
    end: ['{S} left {W} on Friday.', '{S} {be} done at {W}.', '{S} walked out of {W} for good.', '{S} finished {P} last shift at {W}.', '{W} laid {O} off.', '{S} {be} not at {W} anymore.', '{S} {be} leaving {W}, today was the last day.', '{S} quit {P} job at {W} last week.', '{S} {have} not worked at {W} since the summer.'],
    endUnnamed: ['{S} {be} between jobs right now.', '{S} handed back {P} badge and left.', '{S} {be} looking for work since the layoffs.', '{S} {have} no job at the moment.', '{S} got let go on Tuesday.', '{S} {be} jobless now.', '{S} quit, {he} could not stand the boss.', '{S} {be} taking a break from work, {he} left.', '{S} {do} not go to the office anymore, {he} quit.'],
    addition: ['{S} {be} doing a side gig at {V} as well.', '{S} {have} a weekend shift at {V} in addition.'],
    repeat: ['{S} {be} still on the same team at {W}.', '{S} got promoted at {W}.', '{S} renewed {P} contract at {W}.', '{S} {be} celebrating ten years at {W}.', '{S} {have} not changed jobs, still {W}.'],
    sameTopic: ['{S} {be} thinking about applying to {V}.', '{S} might join {V} if the offer is good.', '{S} had lunch with someone from {V}.', '{Ps} friend got a job at {V}.', '{S} sent a CV to {V}, no answer yet.', '{S} toured the offices of {V}.', '{S} visited {V} for a meeting.', '{W} announced record profits.', '{S} {be} training a new colleague at {W}.', 'If {V} offers more, {S} might switch.', '{S} would love to work at {V} one day.', '{S} {be} hoping to get a job at {V}.'],
    history: ['{S} spent a summer working at {V} as a student.', 'Before {W}, {S} was at {V}.', '{S} had a part-time job at {V} in school.', 'In the old days {S} worked at {V}.', 'When {he} was younger {S} had a job at {V}.'],
  },
  occupation: {
    values: ['paramedic', 'welder', 'graphic designer', 'baker', 'social worker', 'pilot', 'surveyor', 'barista', 'data analyst', 'tailor', 'vet', 'bus driver'],
    older: ['{S} {have} a job as a {V}.', '{S} make{s} a living as a {V}.', '{S} {be} a {V}, full-time.'],
    update: ['{S} {be} working as a {V} at this point.', '{S} took a job as a {V}.', '{S} {be} a {V} these days.', '{S} went from {W} to {V}.', '{S} stopped being a {W} and became a {V}.', '{S} switched from {W} to {V}.', '{S} {have} a new job as a {V}.', '{S} finished training and work{s} as a {V} now.', '{S} started working as a {V} last month.', '{S} {be} now a {V}.', '{S} left {W} work behind and {be} a {V} now.', '{S} turned {P} hobby into a job, {he} {be} a {V} now.', '{S} got {P} licence and work{s} as a {V}.', '{S} {be} a {V} since January.', '{S} passed the exam and {be} a {V} now.', '{S} finally work{s} as a {V}, after years as a {W}.', '{S} left {W} work to become a {V}.', '{S} took a new role as a {V}.'],
    end: ['{S} {be} not a {W} anymore.', '{S} left {W} work for good.', '{S} stepped away from being a {W}.', '{S} gave up {W} work.', '{S} walked away from {W} work.', '{S} quit {W} work last year.', '{S} {have} not worked as a {W} for months.', '{S} {be} done being a {W}.'],
    endUnnamed: ['{S} changed careers.', '{S} {be} retired now.', '{S} {have} stopped working for good.', '{S} left {P} old career behind.', '{S} {be} done with that job.', '{S} called it a career.', '{S} stopped working last spring.', '{S} took early retirement.', '{S} {do} not do that job anymore.'],
    addition: ['{S} {be} also taking a course to become a {V}.', '{S} {have} a side job as a {V}.'],
    repeat: ['{S} {have} been a {W} for twenty years and counting.', '{S} {be} still doing {W} work.', '{S} got a promotion as a {W}.', '{S} {be} a {W}, like always.', '{S} {have} been a {W} forever.'],
    sameTopic: ['{S} {be} thinking about becoming a {V}.', '{S} might train as a {V} one day.', '{Ps} son wants to be a {V}.', '{S} hired a {V} for the house.', '{S} watched a documentary about a {V}.', '{S} met a {V} on holiday.', '{S} read about how hard it is to be a {V}.', 'If {S} could start over, {he} would be a {V}.', '{S} {be} hoping to become a {V} someday.'],
    history: ['{S} worked as a {V} before {he} had kids.', 'For a while {S} was a {V}.', 'Before becoming a {W}, {S} was a {V}.', 'When {he} was younger {S} worked as a {V}.'],
  },
  diet: {
    values: ['raw vegan', 'on a Mediterranean diet', 'lactose-free', 'on a high-protein diet', 'nut-free', 'on a low-fat diet', 'egg-free', 'on the Atkins diet'],
    older: ['{S} follow{s} a strict diet, {V}.', '{S} eat{s} only {V} meals.', '{S} keep{s} to being {V}.'],
    update: ['{S} {be} trying to be {V} these days.', '{S} went {V} this year.', '{S} turned {V}.', '{S} switched to being {V}.', '{S} {be} eating {V} now.', 'The doctor put {O} on a diet, {S} {be} {V} now.', '{S} {have} been {V} for a month now.', '{S} started eating {V}.', 'These days {S} {be} {V}.', '{S} changed from {W} to {V}.', '{S} dropped {W} and {be} {V} now.', '{S} {have} been {V} since the new year.', '{S} went {V}, it is easier than {he} thought.', '{S} {be} {V} these days, no exceptions.', '{S} made the change to {V} in spring.'],
    end: ['{S} {be} off the {W} thing now.', '{S} stopped eating {W}.', '{S} {be} not {W} any more.', '{S} ended {P} {W} phase.', '{S} left {W} behind.', '{S} {have} not been {W} since the summer.', '{S} gave {W} up after a month.'],
    endUnnamed: ['{S} eat{s} meat again.', '{S} {be} off the diet now.', '{S} went back to normal food.', '{S} {have} stopped the diet.', '{S} eat{s} whatever {he} like{s} again.', '{S} ended the diet after a month.', '{S} eat{s} everything these days.', '{S} {be} back on normal food.', '{S} {do} not follow any diet now.'],
    addition: ['{S} also gave up soda.', '{S} {be} {W} and also drink{s} less soda.'],
    repeat: ['{S} {have} been {W} for ten years and still {be}.', '{S} {be} {W} like always.', '{S} kept being {W} through the holidays.', '{S} {have} been {W} for ages, no change.', '{S} {be} {W} still, it works for {O}.'],
    sameTopic: ['{S} {be} thinking about going {V}.', '{S} might try being {V} next month.', '{Ps} roommate is {V}.', '{S} cooked a {V} meal for a friend.', '{S} read a book about being {V}.', '{S} {have} a friend who went {V}.', 'The cafe near {Ps} office has {V} options.', '{S} would go {V} if it were easier.', '{S} {be} hoping to go {V} next year.'],
    history: ['{S} was {V} for a year in college.', 'Once {S} tried being {V}.', 'Before {he} got sick {S} was {V}.', 'In the old days {S} was {V}.'],
  },
  relationship: {
    values: ['Paul', 'Lena', 'Hugo', 'Maria José', 'Theo', 'Amira', 'Jonas', 'Elif', 'Kai', 'Ingrid', 'Raj', 'Zoe'],
    older: ['{S} {be} in a relationship with {V}.', '{S} {have} a girlfriend, {V}.', '{S} {be} with {V}.'],
    update: ['{S} {be} going out with {V} now.', '{S} and {V} got together.', '{S} {have} been dating {V} for a month.', '{S} proposed to {V} and {V} said yes.', '{S} {have} a girlfriend now, {V}.', '{S} {be} in love with {V}, they are together.', '{S} and {V} made it official.', '{S} met {V} and they are dating now.', '{S} {be} engaged now, to {V}.', '{S} {be} with {V} these days.', '{S} left {W} for {V}.', '{S} {be} dating {V} since {he} split from {W}.', '{S} {have} been seeing {V} for a few weeks.', '{S} {be} married to {V} now.', '{S} and {V} are living together now.', '{S} {be} with {V}, it is serious.', '{S} and {W} broke up, and now {S} {be} with {V}.', '{S} {be} seeing someone new, {V}.', '{S} {have} a new boyfriend, {V}.', '{S} got together with {V} after the split from {W}.'],
    end: ['{S} and {W} are done.', '{S} and {W} called it quits.', '{S} ended things with {W}.', '{S} and {W} are not together anymore.', '{W} and {S} went separate ways.', '{S} split from {W}.', '{S} and {W} are over.', '{S} {have} not been with {W} since spring.', '{S} and {W} got divorced.'],
    endUnnamed: ['{S} {be} single these days.', '{S} ended the relationship.', '{S} {have} no partner now.', '{S} and {P} partner split.', '{S} got dumped last week.', '{S} {be} on {P} own again.', '{S} {be} single after the breakup.', '{S} and {P} partner are done.', '{S} {have} been single since spring.'],
    addition: ['{S} and {W} adopted a dog with {V}\'s help.', '{S} introduced {W} to {V}, a colleague.'],
    repeat: ['{S} and {W} are going strong.', '{S} and {W} just had their fifth anniversary.', '{S} {be} still happy with {W}.', '{S} and {W} are still a couple.', '{S} and {W} went on holiday together again.'],
    sameTopic: ['{S} {have} a crush on {V}, nothing happened.', '{S} might ask {V} out someday.', '{Ps} friend is dating {V}.', '{S} went to {V}\'s wedding.', '{S} met {V} for lunch, just friends.', '{S} helped {V} move house.', '{S} and {W} watched a film.', '{S} wonder{s} what it would be like to date {V}.', "{S} and {W} went to {V}'s engagement party.", '{V} and {Ps} ex are dating now.'],
    history: ['{S} was with {V} before {W}.', '{S} and {V} were a couple in school.', 'Back then {S} dated {V}.', 'When {he} was younger {S} dated {V}.'],
  },
  possession: {
    values: ['black Kia', 'Volkswagen Golf', 'yellow Mini', 'Skoda estate', 'camper van', 'Peugeot hatchback', 'dark blue BMW', 'Hyundai'],
    older: ['{S} {have} an old {V}.', '{P} {V} is a few years old.', '{S} commute{s} in a {V}.'],
    update: ['{S} got a {V}.', '{S} switched to a {V}.', '{S} went from the {W} to a {V}.', '{S} replaced {P} {W} with a {V}.', '{S} traded {P} {W} for a {V}.', '{S} upgraded from the {W} to a {V}.', '{S} {have} a {V} now, the {W} is gone.', '{P} new car is a {V}.', '{S} finally got the {V}.', '{S} gave up the {W} for a {V}.', '{S} {be} behind the wheel of a {V} these days.', '{S} {have} been driving a {V} since March.', '{S} sold the {W} and bought a {V}.', '{S} {be} the owner of a {V} now.', '{S} drive{s} a {V} these days.'],
    end: ['{S} sold the {W} online.', '{S} {do} not have the {W} anymore.', 'The {W} broke down for good and {S} let it go.', '{S} gave the {W} to {P} cousin.', '{Ps} {W} is gone.', '{Ps} {W} was written off after an accident.', '{S} {have} not had the {W} since spring.', '{S} {be} selling the {W}, a buyer took it.'],
    endUnnamed: ['{S} sold it last week.', '{S} got rid of it.', '{S} {do} not own one anymore.', 'It broke down and {S} did not replace it.', '{S} gave it away.', 'Someone stole {P} car last week.', '{S} {be} car-free now.', '{S} {have} not had a car since spring.', '{S} sold {P} car and take{s} the train now.'],
    addition: ['{S} also got a {V} for work.', '{S} {have} a {V} as a second car too.'],
    repeat: ['{S} {be} still driving the {W} every day.', 'The {W} still runs great.', '{S} fixed the {W} and kept it.', '{S} {be} keeping the {W} for now.', '{S} took the {W} for a service.'],
    sameTopic: ['{S} {be} thinking about getting a {V}.', '{S} might buy a {V} when prices drop.', '{Ps} brother has a {V}.', '{S} read a review of the {V}.', '{S} want{s} a {V} one day.', '{S} borrowed a {V} from a friend.', '{S} saw an ad for a {V}.', '{S} would buy a {V} if {he} had the money.', '{S} {be} hoping to get a {V} next year.'],
    history: ['{S} had a {V} years ago.', 'Before the {W}, {S} had a {V}.', '{S} owned a {V} in college.', 'In the old days {S} drove a {V}.'],
  },
  gadget: {
    values: ['iPhone 13', 'Galaxy S22', 'Pixel 6', 'MacBook Air', 'ThinkPad', 'Fairphone', 'Surface laptop', 'OnePlus 9', 'Dell XPS', 'Moto G', 'iPad Pro', 'Chromebook'],
    older: ['{S} use{s} a {V}.', '{S} {have} a {V}.', '{P} phone is a {V}.', '{S} {be} on a {V}.', '{S} work{s} on a {V}.', '{S} bought a {V} last year.'],
    update: ['{S} got a {V}.', '{S} {be} on a {V} now.', '{S} switched to a {V}.', '{S} use{s} a {V} these days.', '{S} went from the {W} to a {V}.', '{S} replaced {P} {W} with a {V}.', '{S} upgraded to a {V}.', '{S} {have} a {V} now.', '{P} new phone is a {V}.', '{S} finally bought the {V}.', '{S} said goodbye to the {W}, {he} use{s} a {V} now.', '{S} moved everything over to a {V}.', '{S} {be} using a {V} now.', '{S} traded in the {W} for a {V}.', '{S} {have} been using a {V} since last month.', '{S} sold the {W} and got a {V}.', '{S} {be} typing this on {P} new {V}.', '{S} swapped the {W} for a {V}.'],
    end: ['{S} sold the {W}.', '{S} {do} not have the {W} anymore.', '{S} lost the {W} on the train.', 'The {W} broke and {S} threw it out.', '{S} gave the {W} to {P} cousin.', '{Ps} {W} died for good.', '{S} {have} not used the {W} since it broke.', '{S} sold {P} {W} to a friend.'],
    endUnnamed: ['{S} sold it last week.', '{S} dropped it and it is dead.', '{S} {do} not have it anymore.', 'It broke and {S} did not replace it.', '{S} gave it away.', 'Someone stole it from {P} bag.', '{S} {be} without a phone right now.', '{S} {have} not had a laptop since it broke.'],
    addition: ['{S} also got a {V} for work.', '{S} {have} a {V} as a backup too.', '{S} bought a {V} for {P} kid.'],
    repeat: ['{S} {be} still using the {W}.', 'The {W} still works great.', '{S} got the {W} repaired and kept it.', '{S} {have} had the {W} for three years now.', '{S} {be} keeping the {W}.', '{S} bought a case for the {W}.'],
    sameTopic: ['{S} {be} thinking about getting a {V}.', '{S} might buy a {V} when it is on sale.', '{Ps} brother has a {V}.', '{S} read a review of the {V}.', '{S} tried a {V} in the shop.', '{S} want{s} a {V} for {P} birthday.', '{S} borrowed a {V} from a friend.', '{S} saw an ad for the {V}.', '{S} would buy a {V} if it were cheaper.'],
    history: ['{S} had a {V} years ago.', 'Before the {W}, {S} had a {V}.', '{S} used a {V} in college.'],
  },
  pet: {
    values: ['a ferret', 'a beagle', 'a budgie', 'three chickens', 'a corgi', 'a gecko', 'a canary', 'a black labrador', 'two mice', 'a tabby cat', 'a snake', 'a pony'],
    older: ['{S} {have} {V} at home.', '{S} {be} the owner of {V}.', 'There is {V} living with {O}.'],
    update: ['{S} {have} {V} now.', '{S} took in {V}.', '{S} rescued {V} last week.', '{S} came home with {V}.', '{S} {be} looking after {V} now.', '{S} went and got {V}.', 'There is {V} at {Ps} place now.', '{S} {have} {V} now instead of {W}.', '{S} picked up {V} from a breeder.', '{S} welcomed {V} home.', '{S} just got {V}.', '{S} {have} {V} since last week.', '{S} adopted {V} from a rescue.', '{S} {be} the owner of {V} now.', '{S} {have} {V} now, {W} went to {P} parents.', '{S} {have} a new companion, {V}.', '{S} finally got {V}, {he} always wanted one.', 'Meet {Ps} new pet: {V}.', '{S} signed the adoption papers for {V}.', '{S} {have} been caring for {V} since the spring.', '{S} got {V} after {W} passed away.'],
    end: ['{P} pet, {W}, died last week.', '{S} had to put {W} down.', '{S} lost {W}.', '{S} gave {W} to a neighbour.', '{Ps} pet ran away and never came back.', '{S} {have} no more {W}.', '{S} {have} not had {W} since spring.', '{W} went to live with {Ps} parents.', '{S} {have} to part with {W}, the landlord said no pets.'],
    endUnnamed: ['{S} {have} no pets now.', '{P} pet died.', '{S} {be} pet-free now.', '{S} gave {P} pet to a friend.', '{Ps} pet is gone.', '{S} had to give the pet away.', '{S} {have} no animals at home anymore.', '{S} gave away {P} pet last month.'],
    addition: ['{S} got {V} as well.', '{S} {have} {W} and now {V} too.'],
    repeat: ['{W} is doing great.', '{S} still look{s} after {W}.', '{W} turned five this week.', '{S} took {W} to the vet for a check-up.', '{S} {be} still walking {W} every day.'],
    sameTopic: ['{S} {be} thinking about getting {V}.', '{S} might adopt {V} someday.', '{Ps} neighbour has {V}.', '{S} pet-sat {V} for a friend.', '{S} saw {V} at the shelter.', "{S} fed a friend's {V}.", '{S} read about how to train {V}.', '{S} would get {V} if the landlord allowed it.', '{S} {be} hoping to adopt {V} next year.'],
    history: ['{S} had {V} as a kid.', 'When {he} was little {S} had {V}.', 'Before {W}, {S} had {V}.', 'When {he} was younger {S} kept {V}.'],
  },
  schedule: {
    things: ['swim practice', 'Spanish lessons', 'climbing session', 'guitar lesson', 'therapy appointment', 'football practice'],
    values: ['Monday evenings', 'Tuesday mornings', 'Wednesday nights', 'Thursday afternoons', 'Saturday mornings', 'weekday mornings'],
    older: ['{S} {have} {A} every {V}.', '{P} {A} is usually on {V}.', '{S} do{es} {A} on {V}.'],
    update: ['{P} {A} is on {V} now.', '{S} moved {P} {A} to {V}.', '{P} {A} got moved to {V}.', '{P} {A} switched to {V}.', 'From now on {Ps} {A} is on {V}.', '{P} {A} is {V} these days.', '{Ps} {A} moved from {W} to {V}.', '{S} do{es} {A} on {V} instead of {W} now.', '{P} {A} was changed to {V}.', '{S} {have} {A} on {V} from now on.', '{S} changed {P} {A} to {V}.', '{S} {have} {A} on {V} since this month.', '{P} {A} is on {V} starting next week.', '{Ps} new day for {A} is {V}.', '{S} go{es} to {A} on {V} now, not {W}.'],
    end: ['{S} {have} no {A} on {W} anymore.', '{S} stopped {A} on {W}.', '{S} dropped the {W} {A}.', '{Ps} {W} {A} was cancelled for good.', '{S} {have} not gone to {A} on {W} for weeks.', '{S} gave up the {W} {A}.'],
    endUnnamed: ['{S} stopped {A} altogether.', '{S} cancelled {A}.', '{S} {do} not do {A} anymore.', '{S} {have} no {A} these days.', '{Ps} {A} ended for good.', '{S} quit {A} last month.', '{S} {have} not done {A} since spring.', '{S} stopped going to {A} last month.'],
    addition: ['{S} added a {A} on {V} as well.', '{S} {have} {A} on {W} and also on {V} now.'],
    repeat: ['{P} {A} is on {W} like always.', '{S} went to {A} on {W} again.', '{S} never miss{es} {A} on {W}.', '{S} {have} {A} on {W} as planned.', '{S} enjoyed {A} on {W} again.'],
    sameTopic: ['{S} might move {P} {A} to {V}, not sure yet.', 'Only this week {Ps} {A} is on {V}.', '{Ps} friend has {A} on {V}.', '{S} skipped {A} this week.', '{S} {be} thinking about doing {A} on {V}.', '{S} {have} an extra {A} this {V}, only once.', '{S} missed {A} because of a cold.', 'If the teacher agrees, {Ps} {A} could move to {V}.'],
    history: ['Last year {Ps} {A} was on {V}.', 'As a kid {S} had {A} on {V}.', 'Before the move {Ps} {A} was on {V}.'],
  },
  preference: {
    values: ['K-pop', 'Thai food', 'board games', 'opera', 'crime podcasts', 'cycling', 'green tea', 'anime', 'pottery', 'country music', 'dumplings', 'surfing'],
    older: ['{S} {be} really into {V}.', '{V} is what {S} like{s} most.', '{S} can not get enough of {V}.', '{S} {be} a {V} person.'],
    update: ['{S} {be} all about {V} now.', '{S} {have} gotten really into {V}.', 'These days {S} prefer{s} {V}.', '{S} {have} fallen in love with {V}.', '{S} went from {W} to {V}.', '{S} like{s} {V} better than {W} now.', '{S} switched from {W} to {V}.', '{S} {be} into {V} now, not {W}.', '{V} is {Ps} favourite now.', '{S} picked up {V} and love{s} it.', '{S} found {V} and {be} hooked.', '{S} moved on from {W} to {V}.', '{S} {be} more into {V} than anything these days.', '{S} {have} been loving {V} lately.', '{S} prefer{s} {V} over {W} now.', '{S} {have} a new favourite: {V}.', '{S} got into {V} this year.', '{S} {have} really taken to {V}.', '{S} {be} a huge fan of {V} these days.', '{V} has become {Ps} thing lately.', '{S} {have} swapped {W} for {V}.', '{S} {have} developed a taste for {V}.', 'Right now {S} only want{s} {V}, not {W}.', '{S} {be} much more into {V} than {W} lately.'],
    end: ['{S} {be} over {W}.', '{S} {do} not care about {W} anymore.', '{S} {have} fallen out of love with {W}.', '{S} {be} sick of {W} now.', '{S} stopped liking {W}.', '{W} does nothing for {O} anymore.', '{S} {have} not liked {W} for a while now.', '{S} {be} done with {W}.', '{S} {have} gone cold on {W}.', '{S} {be} no longer a fan of {W}.', '{S} grew tired of {W} this year.'],
    endUnnamed: ['{S} grew out of it.', '{S} {have} moved on from that.', 'That phase is over for {O}.', '{S} {do} not enjoy it anymore.', '{S} {be} bored of it now.', 'It does not interest {O} anymore.', '{S} {do} not like it anymore.', '{S} {have} lost all interest in it.', '{S} {be} not a fan anymore.'],
    addition: ['{S} {have} started liking {V} too.', '{S} {be} into {V} as well as {W}.'],
    repeat: ['{S} {be} still a big {W} person.', '{S} {be} as into {W} as ever.', '{W} is still the best for {O}.', '{S} {have} loved {W} for years and still do{es}.', '{S} had {W} again last night, still the best.'],
    sameTopic: ['{S} might try {V} sometime.', '{Ps} friend loves {V}.', '{S} {be} curious about {V}.', '{S} did not like {V} much when {he} tried it.', '{S} saw an ad for {V}.', '{S} gave {V} a try once, it was fine.', '{S} went to a {V} event with a friend.', '{S} might get into {V} if someone showed {O}.', '{S} would try {V} if a friend came along.'],
    history: ['{S} was into {V} as a teenager.', 'In school {S} loved {V}.', 'Before {W}, {S} liked {V}.', 'When {he} was younger {S} loved {V}.'],
  },
};

/** Extra train subjects (third person), speakers and chat words around a line. */
export const BROAD_THIRD: Array<[string, 'his' | 'her', 'he' | 'she']> = [['Lucia', 'her', 'she'], ['Marco', 'his', 'he'], ['Aisha', 'her', 'she'], ['Pedro', 'his', 'he'], ['Hannah', 'her', 'she'], ['Kenji', 'his', 'he'], ['my dad', 'his', 'he'], ['my aunt', 'her', 'she'], ['my friend Sam', 'his', 'he'], ['my roommate', 'her', 'she'], ['my boss', 'his', 'he'], ['Fatima', 'her', 'she']];
export const BROAD_SPEAKERS = ['Rosie', 'Dev', 'Ines', 'Ollie', 'Mei', 'Tariq'];
export const BROAD_PREFIX = ['Update: ', 'Oh, and ', 'By the way, ', 'So, ', 'Small news: ', 'Not sure if I told you, but ', 'Haha ', 'Ok so '];
export const BROAD_SUFFIX = [' Still getting used to it.', ' Long story.', ' Anyway, how is your family?', ' Wish me luck!', ' We should catch up soon.', ' Had to share.', ' Lots going on.', ' More soon.'];

/**
 * Kinds whose train pairs include the `other-end` non-updates (h-su): the end of another partner,
 * employer, home, car, gadget, pet, occupation or taste than the one the older holds. Diet and
 * schedule are left out: "I'm no longer vegan" after "I'm vegetarian", or a class dropped on
 * another day, may well change the older state.
 */
export const OTHER_END_KINDS: readonly string[] = ['relationship', 'workplace', 'home', 'possession', 'gadget', 'pet', 'occupation', 'preference'];

const extend = <T>(s: Split<T>, extra: readonly T[] | undefined): Split<T> => sp([...s.train, ...(extra ?? [])], s.heldout);

/** {@link GRAMMAR} with {@link BROAD_TRAIN} appended to every train list (held-out lists unchanged). */
export function broadGrammar(): Record<string, KindGrammar> {
  const out: Record<string, KindGrammar> = {};
  for (const [kind, g] of Object.entries(GRAMMAR)) {
    const extra = BROAD_TRAIN[kind] ?? {};
    const k: KindGrammar = { ...g };
    for (const key of Object.keys(g) as Array<keyof KindGrammar>) {
      if (key === 'we') continue;
      const list = g[key] as Split<string> | undefined;
      if (list !== undefined) (k as unknown as Record<string, Split<string>>)[key] = extend(list, extra[key]);
    }
    out[kind] = k;
  }
  // Kinds only the broad grammar has (train only; their held-out lists are empty).
  for (const [kind, extra] of Object.entries(BROAD_TRAIN)) {
    if (kind in GRAMMAR) continue;
    const L = (key: ListKey) => sp([...(extra[key] ?? [])], [] as string[]);
    out[kind] = { values: L('values'), older: L('older'), update: L('update'), end: L('end'), endUnnamed: L('endUnnamed'), addition: L('addition'), repeat: L('repeat'), sameTopic: L('sameTopic'), history: L('history'), we: true };
  }
  return out;
}

/** The broad train grammar as `generateGrammarPairs`'s `broad` option takes it. */
export function broadTrainParts(): BroadParts {
  return { grammar: broadGrammar(), third: BROAD_THIRD, speakers: BROAD_SPEAKERS, prefix: BROAD_PREFIX, suffix: BROAD_SUFFIX, otherEndKinds: OTHER_END_KINDS };
}
