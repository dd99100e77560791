/**
 * The templates of the chat grammar of state changes (bench/training/state-talk.ts, issue 24,
 * h-update2), by kind: thirteen kinds, each with how people state the state, change it (naming
 * the new value), end it (naming the old value or none, idioms and indirect ends included), and
 * the hard non-updates of the kind (an addition, a repeat, history told after the change, a
 * hypothetical or plan, an unrelated episode on the same topic).
 *
 * Written from general knowledge of how people talk, without reading the held-out split of
 * bench/training/state-grammar.ts; no template or value is copied from it. Every list is cut
 * into fit and validation families by the generator (`familyCut` / `valueCut`): every fourth
 * template and the last third of the values are validation families, never fitted.
 *
 * Slots as in state-grammar.ts: {S} subject, {s}/{es} third-person endings, {be} {have} {do}
 * {was}, {P} possessive (a leading {P} names the subject), {O} object form, {V} the new value,
 * {W} the older value, {A} the kind's thing (schedule).
 *
 * @module
 */

/** One kind of state. */
export interface TalkKind {
  values: string[];
  we?: boolean;
  things?: string[];
  older: string[];
  update: string[];
  end: string[];
  endUnnamed: string[];
  addition: string[];
  repeat: string[];
  history: string[];
  /** Infinitive phrases of a change ("move to {V}") that the hypothetical frames wrap. */
  plan: string[];
  sameTopic: string[];
}

/** The kinds. */
export const TALK: Readonly<Record<string, TalkKind>> = {
  home: {
    we: true,
    values: ['Leeds', 'Denver', 'Lyon', 'Osaka', 'Perth', 'Nairobi', 'Seattle', 'Krakow', 'Valencia', 'Montreal', 'Hamburg', 'Bologna', 'Tucson', 'Halifax', 'Bergen', 'Adelaide', 'Ghent', 'Cork'],
    older: ['{S} live{s} in {W}.', '{S} {have} been living in {W} for a few years.', 'Home for {O} is {W} these days.', '{S} rent{s} a small flat in {W}.', '{P} place is in {W}, right by the river.', '{S} {be} based in {W}.', "{S} {be} settled in {W} and love{s} it.", '{S} share{s} an apartment in {W} with two friends.'],
    update: ['{S} moved to {V} last month.', '{S} just finished moving into a place in {V}.', '{S} {be} living in {V} now.', 'After years in {W}, {S} finally relocated to {V}.', '{S} packed up everything and moved to {V}.', '{P} new address is in {V}.', '{S} signed a lease in {V} and moved in on Saturday.', '{S} traded {W} for {V} in the spring.', 'The boxes are unpacked, {S} officially live{s} in {V} now.', '{S} {be} a {V} resident as of this week.', '{S} ended up buying a house in {V}.', '{S} said goodbye to {W} and {have} a new home in {V}.', "{S} {have} been in {V} since the move in May.", 'Home is {V} now.'],
    end: ['{S} moved out of {W} last week.', '{S} {do}n\'t live in {W} anymore.', '{P} time in {W} is done, the flat has been handed back.', '{S} gave up the apartment in {W}.', '{S} left {W} for good.', "{S} {be} no longer in {W}, the landlord sold the building.", '{S} finally got out of {W}.', 'That chapter in {W} is closed now.'],
    endUnnamed: ['{S} moved out of {P} flat on Friday.', '{S} had to give the keys back to the landlord, {S} {be} couch-surfing for now.', "{S} {be} between homes at the moment, staying with friends.", '{P} lease was up so {S} moved out.', '{S} sold the house and {be} living out of a suitcase.', '{S} got evicted and had to move out.'],
    addition: ['{S} also bought a small cabin near {V} for weekends.', '{S} {have} a second place in {V} for work trips.', 'On top of the flat in {W}, {S} rent{s} a studio in {V} too.', '{S} split{s} time between {W} and a cottage in {V}.'],
    repeat: ['{S} {be} still in {W}, nothing new there.', '{S} live{s} in {W}, same as always.', "{S} {have}n't moved, still in {W}.", 'Yep, {W} is still home.'],
    history: ['{S} used to live in {V} years ago.', 'Back in college {S} lived in {V}.', '{S} grew up in {V} before moving around.', '{S} spent a summer in {V} once, long before {W}.'],
    plan: ['move to {V}', 'look for a place in {V}', 'relocate to {V}', 'buy a flat in {V}'],
    sameTopic: ['{S} visited {V} for a long weekend.', '{S} flew to {V} for a friend\'s wedding.', '{S} {have} a conference in {V} next week.', '{S} saw a documentary about {V} last night.'],
  },
  workplace: {
    values: ['Brightwave', 'Northwind', 'Kestrel Labs', 'Bluefin', 'Oakridge Bank', 'Pinecrest', 'Harbor Health', 'Ironleaf', 'Quillon', 'Redmark', 'Copperline', 'Tidewater', 'Greenway', 'Nimbus', 'Solace Media', 'Larkspur'],
    older: ['{S} work{s} at {W}.', '{S} {have} a job at {W} in the finance team.', '{S} {be} on the design team at {W}.', '{S} {have} been at {W} for three years.', '{P} employer is {W}.', '{S} commute{s} to the {W} office every day.', '{S} {be} employed by {W}.', '{S} do{es} marketing for {W}.'],
    update: ['{S} started a new job at {V} on Monday.', '{S} accepted an offer from {V}.', '{S} {be} working for {V} now.', '{S} switched from {W} to {V}.', '{S} jumped ship to {V} last month.', '{V} hired {O}, first day was yesterday.', '{S} took a position at {V}.', '{S} {have} been at {V} since the spring.', '{S} left {W} and joined {V}.', 'New job! {S} {be} at {V} now.', '{S} got poached by {V}.', '{S} start{s} at {V} next week, the contract is signed.', '{S} moved over to {V} after the reorganisation.'],
    end: ['{S} quit {W}.', '{S} resigned from {W} last week.', '{S} {do}n\'t work at {W} anymore.', '{W} laid {O} off on Friday.', "{S} {be} done at {W}, today was the last shift.", '{S} walked out of {W} for good.', '{S} got let go from {W}.', '{S} cleared out {P} desk at {W}.'],
    endUnnamed: ['{S} quit {P} job.', '{S} {be} unemployed at the moment.', '{S} got made redundant last week.', '{S} {be} between jobs right now.', "{S} gave notice and {be} taking a break from work.", '{S} got fired on Tuesday.', '{S} {be} job hunting again since the layoffs.'],
    addition: ['{S} also freelance{s} for {V} on weekends.', '{S} picked up a side gig at {V} as well.', 'Besides {W}, {S} consult{s} for {V}.', '{S} do{es} a few evening shifts at {V} too.'],
    repeat: ['{S} {be} still at {W}.', '{S} work{s} at {W}, nothing has changed.', '{S} {have} no plans to leave {W}.', 'Still the same job at {W}.'],
    history: ['{S} used to work at {V} before {W}.', '{P} first job was at {V}.', 'Years ago {S} interned at {V}.', '{S} spent two years at {V} straight out of school.'],
    plan: ['apply to {V}', 'take a job at {V}', 'interview with {V}', 'switch to {V}'],
    sameTopic: ['{S} had a meeting with people from {V} today.', '{S} read an article about {V}.', "{S} met someone from {V} at the conference.", '{V} sent {O} a newsletter.'],
  },
  occupation: {
    values: ['a nurse', 'a plumber', 'an accountant', 'a barista', 'a paramedic', 'a software developer', 'a chef', 'a librarian', 'a pilot', 'an electrician', 'a pharmacist', 'a dentist', 'a firefighter', 'a journalist', 'a translator', 'a carpenter', 'a physiotherapist', 'a real estate agent'],
    older: ['{S} work{s} as {W}.', '{S} {be} {W}.', '{S} {have} been {W} for ten years.', '{P} job is being {W}.', "{S} {be} {W} by trade.", '{S} make{s} a living as {W}.', 'By day {S} {be} {W}.', '{S} trained as {W} and still work{s} as one.'],
    update: ['{S} {be} {V} now.', '{S} retrained as {V}.', '{S} became {V} this year.', '{S} switched careers and work{s} as {V} now.', '{S} finally qualified as {V}.', '{S} left the old career behind and {be} {V} these days.', 'After the course {S} started working as {V}.', '{S} {be} working as {V} full time now.', 'Career change! {S} {be} {V}.', '{S} got certified and now work{s} as {V}.', '{S} traded being {W} for a job as {V}.', '{S} {have} been working as {V} since January.'],
    end: ['{S} {be} not {W} anymore.', '{S} stopped working as {W}.', '{S} retired as {W} last month.', '{S} hung up {P} hat as {W}.', '{S} gave up being {W}, it was burning {O} out.', '{S} {do}n\'t work as {W} these days.', 'Being {W} is behind {O}.', '{S} walked away from life as {W}.'],
    endUnnamed: ['{S} retired last month.', '{S} {be} taking a career break.', '{S} stopped working altogether.', '{S} {be} out of work and figuring out what to do next.', '{S} left the profession.', '{S} {be} a stay-at-home parent now.'],
    addition: ['{S} also work{s} part time as {V}.', 'On weekends {S} moonlight{s} as {V}.', '{S} {be} {W} and {V} as well.', '{S} do{es} some shifts as {V} on the side.'],
    repeat: ['{S} {be} still {W}.', '{S} still work{s} as {W}, no change.', '{S} love{s} being {W} as much as ever.', '{S} {have} been {W} for a long time and plan{s} to stay.'],
    history: ['{S} used to work as {V}.', '{S} {was} {V} when {S} {was} younger.', 'Back in the day {S} worked as {V}.', '{P} first career was as {V}.'],
    plan: ['become {V}', 'retrain as {V}', 'work as {V}', 'switch careers to be {V}'],
    sameTopic: ['{S} met {V} at the party.', '{S} watched a show about {V}.', '{S} called {V} about the leak.', '{P} cousin wants to become {V}.'],
  },
  diet: {
    we: true,
    values: ['vegan', 'vegetarian', 'keto', 'pescatarian', 'gluten-free', 'paleo', 'low-carb', 'dairy-free', 'plant-based', 'carnivore', 'sugar-free', 'halal'],
    older: ['{S} {be} {W}.', '{S} eat{s} {W}.', '{S} {have} been {W} for two years.', '{S} follow{s} a {W} diet.', '{S} keep{s} strictly {W}.', '{S} only eat{s} {W} food.', '{S} went {W} a while back and stuck with it.', 'Everything {S} cook{s} is {W}.'],
    update: ['{S} {be} {V} now.', '{S} switched to a {V} diet.', '{S} went {V} last month.', '{S} {have} been eating {V} since the new year.', '{S} dropped {W} and {be} trying {V} instead.', '{S} {be} fully {V} these days.', '{P} doctor put {O} on a {V} diet, so that is what {S} eat{s} now.', '{S} changed how {S} eat{s}: {V} from now on.', 'No more {W} for {O}, {S} {be} {V} now.', '{S} made the jump to {V}.', '{S} {have} been {V} for about a month now.'],
    end: ['{S} {be} not {W} anymore.', '{S} stopped being {W}.', '{S} fell off the {W} wagon for good.', '{S} gave up on {W}, it was too hard.', '{S} quit {W} after the holidays.', '{S} {do}n\'t eat {W} these days.', '{S} broke {P} {W} streak and {do}n\'t plan to go back.', 'The {W} experiment is over.'],
    endUnnamed: ['{S} eat{s} everything again.', '{S} went back to eating meat.', '{S} dropped the diet.', '{S} {be} not on any diet anymore.', '{S} stopped dieting.', 'Burgers are back on the menu for {O}.'],
    addition: ['{S} also avoid{s} anything {V}.', '{S} {be} {W} and trying to be {V} too.', '{S} add{s} a {V} day each week as well.', 'On top of being {W}, {S} cut out caffeine.'],
    repeat: ['{S} {be} still {W}.', '{S} {have} stayed {W} all year.', '{S} eat{s} {W}, as always.', 'Still {W}, still loving it.'],
    history: ['{S} tried {V} years ago.', '{S} {was} {V} in college.', '{S} used to be {V}.', 'As a teenager {S} went {V} for a while.'],
    plan: ['go {V}', 'try a {V} diet', 'switch to {V}', 'eat {V} for a month'],
    sameTopic: ['{S} cooked a {V} lasagna for friends.', '{S} found a great {V} bakery.', '{S} read a book about {V} cooking.', 'The cafe near {O} added {V} options.'],
  },
  relationship: {
    values: ['Rahul', 'Chloe', 'Mateo', 'Aisha', 'Owen', 'Freya', 'Diego', 'Nora', 'Kai', 'Elif', 'Jonah', 'Mira', 'Tariq', 'Selma', 'Bruno'],
    older: ['{S} {be} dating {W}.', '{S} {have} been with {W} for two years.', '{W} and {O} are together.', '{P} partner is {W}.', '{S} {be} seeing someone called {W}.', '{S} {be} engaged to {W}.', '{S} live{s} with {P} boyfriend {W}.', '{S} {be} married to {W}.'],
    update: ['{S} {be} dating {V} now.', '{S} started seeing {V}.', '{S} got together with {V} last month.', '{V} and {O} are a couple now.', '{S} got engaged to {V}!', '{S} married {V} in June.', '{S} moved in with {V}.', '{S} fell for {V} and it is serious.', '{P} new partner is {V}.', '{S} {be} with {V} these days.', '{V} asked {O} out and {S} said yes.', '{V} and {O} tied the knot over the weekend.'],
    end: ['{S} broke up with {W}.', '{W} and {O} split up.', '{W} and {O} went separate ways.', '{S} {be} not with {W} anymore.', '{W} and {O} called it quits.', '{S} ended things with {W}.', '{W} and {O} are divorced now.', '{W} moved out and it is over between them.'],
    endUnnamed: ['{S} {be} single again.', '{S} got divorced.', '{S} broke up with {P} partner.', 'The relationship ended last week.', '{S} {be} back on the dating apps.', '{S} {be} newly single.'],
    addition: ['{S} also met {V}, {P} partner\'s sister.', '{S} {be} friends with {V} as well.', '{W} and {O} adopted a cat together too.', '{S} introduced {W} to {P} friend {V}.'],
    repeat: ['{S} {be} still with {W}.', '{W} and {O} are doing great, still going strong.', '{W} and {O} just celebrated another anniversary.', 'Things with {W} are as good as ever.'],
    history: ['{S} dated {V} in high school.', '{S} used to go out with {V}.', '{V} was {P} first love.', 'Years ago {S} was engaged to {V}.'],
    plan: ['ask {V} out', 'break up with {W}', 'marry {V}', 'move in with {V}'],
    sameTopic: ['{S} had coffee with {V} today.', '{S} met {V} at a party.', '{V} sent {O} a birthday card.', '{S} went to {V}\'s wedding.'],
  },
  possession: {
    we: true,
    values: ['Honda Civic', 'Ford Focus', 'Tesla', 'Subaru', 'Volvo', 'Jeep', 'minivan', 'pickup truck', 'motorbike', 'Fiat', 'Kia', 'Prius', 'Mini Cooper', 'camper van'],
    older: ['{S} drive{s} a {W}.', '{S} own{s} a {W}.', '{P} car is a {W}.', '{S} {have} an old {W}.', '{S} get{s} around in a {W}.', '{S} {have} had {P} {W} for years.', 'The {W} in the drive is {P}.', '{S} commute{s} in {P} {W}.'],
    update: ['{S} bought a {V}.', '{S} traded in the {W} for a {V}.', '{S} drive{s} a {V} now.', '{S} picked up a {V} last weekend.', '{S} got a {V} to replace the {W}.', '{P} new car is a {V}.', '{S} upgraded to a {V}.', '{S} finally got {P} own {V}.', 'Say hello to {P} new {V}!', '{S} swapped the {W} for a {V}.', '{S} {have} been driving a {V} since the {W} went.'],
    end: ['{S} sold the {W}.', 'The {W} got written off in the crash.', '{S} got rid of the {W}.', 'Someone stole {P} {W}.', 'The {W} finally died on {O}.', '{S} gave the {W} to {P} nephew.', '{S} {do}n\'t have the {W} anymore.', 'The {W} went to the scrapyard.'],
    endUnnamed: ['{S} sold {P} car.', '{S} {be} car-free now and take{s} the bus.', '{S} {do}n\'t own a car anymore.', '{P} car broke down for good.', '{S} gave up driving.', '{S} got rid of the car.'],
    addition: ['{S} also bought a {V} for weekends.', '{S} {have} a {V} as well.', '{S} added a {V} to the garage.', '{S} got a second car, a {V}.'],
    repeat: ['{S} still drive{s} the {W}.', 'The {W} is still going strong.', '{S} {have} the same {W} as before.', '{S} {be} keeping the {W} for a few more years.'],
    history: ['{P} first car was a {V}.', '{S} drove a {V} in college.', '{S} used to own a {V}.', 'Years ago {S} had a {V}.'],
    plan: ['buy a {V}', 'sell the {W}', 'trade the {W} for a {V}', 'lease a {V}'],
    sameTopic: ['{S} rented a {V} for the trip.', '{S} test-drove a {V} for fun.', '{S} washed the {W}.', '{P} friend let {O} borrow a {V}.'],
  },
  pet: {
    we: true,
    values: ['dog', 'cat', 'rabbit', 'parrot', 'hamster', 'tortoise', 'ferret', 'guinea pig', 'gecko', 'cockatiel', 'corgi', 'beagle', 'husky', 'goldfish'],
    older: ['{S} {have} a {W}.', '{S} {have} a {W} called Biscuit.', '{P} {W} sleeps on {P} bed.', '{S} live{s} with a {W}.', '{P} pet is a {W}.', "{S} {have} had {P} {W} for six years.", '{S} walk{s} {P} {W} every morning.', '{S} take{s} care of a {W}.'],
    update: ['{S} adopted a {V}.', '{S} got a {V}.', '{S} {have} a {V} now.', '{S} rescued a {V} from the shelter last week.', 'Meet {P} new {V}!', 'The family grew: {S} welcomed a {V}.', '{S} took in a stray {V}.', '{S} picked up a {V} puppy from a breeder.', 'After the {W}, {S} got a {V}.', '{S} {be} the proud owner of a {V} now.'],
    end: ['{P} {W} passed away.', '{S} had to put {P} {W} down.', '{S} rehomed the {W}.', '{P} {W} died last week.', '{S} lost {P} {W} to old age.', 'The {W} went to live with {P} parents.', '{S} {do}n\'t have the {W} anymore.', '{S} gave {P} {W} away.'],
    endUnnamed: ['{P} pet died.', '{S} {do}n\'t have any pets now.', '{S} had to say goodbye to {P} old friend at the vet.', 'The house is quiet without a pet now.', '{S} rehomed {P} pet after moving.', '{P} pet passed away in the night.'],
    addition: ['{S} also got a {V}.', '{S} added a {V} to the family.', 'Now {S} {have} a {V} as well as the {W}.', '{S} {have} two pets now, the {W} and a {V}.'],
    repeat: ['{P} {W} is still doing well.', '{S} still {have} the {W}.', 'The {W} is as lazy as ever.', '{S} took the {W} to the vet, all fine.'],
    history: ['{S} had a {V} as a kid.', '{S} grew up with a {V}.', '{P} family had a {V} when {S} {was} young.', 'Years ago {S} looked after a {V}.'],
    plan: ['get a {V}', 'adopt a {V}', 'rehome the {W}', 'buy a {V}'],
    sameTopic: ['{S} fed a neighbour\'s {V}.', '{S} saw a {V} at the park.', '{S} watched a video of a {V}.', '{P} friend\'s {V} is so cute.'],
  },
  schedule: {
    values: ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays', 'weekday mornings', 'Tuesday evenings', 'Sunday afternoons', 'Thursday nights', 'Friday mornings'],
    things: ['yoga class', 'piano lesson', 'book club', 'team meeting', 'swim practice', 'therapy session', 'Spanish class', 'choir rehearsal', 'pottery class', 'football training'],
    older: ['{P} {A} is on {W}.', '{S} {have} {A} on {W}.', '{S} go{es} to {A} on {W}.', '{P} {A} happens every week on {W}.', '{S} {have} {P} {A} on {W}.', '{A} for {O} is on {W}.', '{S} never miss{es} {A} on {W}.', '{S} block{s} {W} for {A}.'],
    update: ['{P} {A} moved to {V}.', '{A} is on {V} now.', '{S} switched {P} {A} to {V}.', 'They rescheduled {P} {A} to {V}.', 'From now on {P} {A} is on {V}.', '{P} {A} got pushed to {V}.', '{S} {have} {A} on {V} now instead.', '{A} has changed days: {V} from next week.', '{S} go{es} to {A} on {V} these days.', '{S} moved {A} to {V} to fit work.'],
    end: ['{S} stopped going to {A} on {W}.', '{P} {A} on {W} got cancelled.', '{S} quit {A}.', 'No more {A} on {W} for {O}.', '{S} dropped {A}.', '{A} on {W} is finished for good.', '{S} {do}n\'t do {A} anymore.', 'The {A} wrapped up for good last week.'],
    endUnnamed: ['{S} quit {A}.', '{P} {A} got cancelled permanently.', '{S} gave up {A}.', '{A} is over for {O}.', '{S} {be} done with {A}.', 'The {A} group disbanded.'],
    addition: ['{S} added a second {A} on {V}.', '{S} also {have} {A} on {V}.', '{S} go{es} to {A} on {V} as well.', 'There is an extra {A} on {V} too.'],
    repeat: ['{P} {A} is still on {W}.', '{S} still go{es} to {A} on {W}.', '{A} on {W} as usual.', 'Same {A} slot on {W}.'],
    history: ['{S} used to have {A} on {V}.', 'Last year {P} {A} was on {V}.', 'As a kid {S} had {A} on {V}.', '{A} was on {V} back in school.'],
    plan: ['move {A} to {V}', 'switch {A} to {V}', 'ask for {A} on {V}', 'try {A} on {V}'],
    sameTopic: ['{S} missed {A} because of the rain.', '{A} was fun today.', '{S} brought snacks to {A}.', 'The teacher of {P} {A} is great.'],
  },
  preference: {
    values: ['jazz', 'sushi', 'hiking', 'horror movies', 'country music', 'green tea', 'podcasts', 'board games', 'spicy food', 'techno', 'Thai food', 'crime novels', 'red wine', 'sci-fi shows', 'folk music', 'cold brew'],
    older: ['{S} love{s} {W}.', '{P} favourite thing is {W}.', '{S} {be} really into {W}.', '{S} can\'t get enough of {W}.', '{S} {be} a huge fan of {W}.', 'Nothing beats {W} for {O}.', '{S} {be} obsessed with {W}.', '{W} is {P} go-to.'],
    update: ['{S} {be} really into {V} now.', '{S} prefer{s} {V} these days.', '{P} new favourite is {V}.', '{S} switched from {W} to {V}.', '{S} got hooked on {V}.', 'Lately {S} {be} all about {V}.', '{S} discovered {V} and it is {P} thing now.', '{S} fell in love with {V}.', 'These days {S} would pick {V} over {W} any time.', '{S} {have} been on a {V} kick for months.'],
    end: ['{S} went off {W}.', '{S} {be} over {W}.', '{S} {do}n\'t like {W} anymore.', '{S} got tired of {W}.', '{S} {be} sick of {W} now.', '{W} does nothing for {O} these days.', '{S} lost interest in {W}.', '{S} grew out of {W}.'],
    endUnnamed: ['{S} {do}n\'t really have a favourite anymore.', '{S} {be} bored of {P} old favourites.', '{P} tastes changed completely.', 'Nothing excites {O} like it used to.', '{S} need{s} something new, the old stuff bores {O}.', '{S} moved on from all that.'],
    addition: ['{S} also like{s} {V}.', '{S} enjoy{s} {V} as well.', '{S} love{s} {W} and {V} too.', '{S} {have} been getting into {V} on top of {W}.'],
    repeat: ['{S} still love{s} {W}.', '{W} is still {P} favourite.', '{S} {be} as into {W} as ever.', 'Nothing has changed, {W} forever.'],
    history: ['{S} loved {V} as a kid.', '{S} used to be into {V}.', 'In college {S} {was} all about {V}.', 'Years ago {S} {was} crazy about {V}.'],
    plan: ['get into {V}', 'try {V}', 'give {V} a chance', 'learn to like {V}'],
    sameTopic: ['{S} read an article about {V}.', '{P} friend recommended {V}.', '{S} {have} tickets for a {V} event.', '{S} saw an ad for {V}.'],
  },
  health: {
    values: ['the flu', 'a sprained ankle', 'a chest infection', 'bronchitis', 'a broken wrist', 'covid', 'a bad back', 'shingles', 'migraines', 'tonsillitis', 'a slipped disc', 'a knee injury'],
    older: ['{S} {have} {W}.', '{S} {be} laid up with {W}.', '{S} {be} dealing with {W}.', '{S} {have} been off work with {W}.', '{S} {be} stuck in bed with {W}.', '{S} {be} recovering from {W}.', '{P} doctor says {S} {have} {W}.', '{S} {be} on medication for {W}.'],
    update: ['The {W} cleared up but now {S} {have} {V}.', '{S} {be} over {W}, now it is {V}.', '{S} got {V} now, right after {W}.', 'Now {S} {be} dealing with {V} instead.', '{P} doctor now thinks it is {V}.', 'It turned out to be {V}, not {W}.'],
    end: ['{S} {be} over {W}.', '{S} {have} fully recovered from {W}.', '{S} finally shook off {W}.', '{P} {W} is gone.', '{S} {be} free of {W} now.', 'The {W} cleared up.', '{S} beat {W}.', 'No more {W} for {O}.'],
    endUnnamed: ['{S} {be} fully recovered.', '{S} {be} back on {P} feet.', '{P} doctor gave {O} the all-clear.', '{S} {be} healthy again.', '{S} {be} feeling like {P} old self again.', '{S} went back to work, totally fine now.'],
    addition: ['{S} also {have} {V}.', 'On top of {W}, {S} {have} {V} too.', '{S} caught {V} as well.', '{S} {have} {V} now as well as {W}.'],
    repeat: ['{S} still {have} {W}.', '{S} {be} still dealing with {W}.', 'The {W} is hanging on.', 'No change, still {W}.'],
    history: ['{S} had {V} as a kid.', '{S} had {V} years ago.', '{S} used to get {V} a lot.', 'Back in college {S} had {V}.'],
    plan: ['get checked for {V}', 'see a specialist about {V}', 'get over {W}', 'get a test for {V}'],
    sameTopic: ['{S} read about {V} online.', '{P} colleague has {V}.', '{S} donated to a charity for {V}.', '{S} watched a documentary on {V}.'],
  },
  study: {
    values: ['nursing', 'law', 'computer science', 'architecture', 'economics', 'physics', 'music theory', 'marketing', 'philosophy', 'biology', 'graphic design', 'accounting', 'linguistics', 'chemistry'],
    older: ['{S} {be} studying {W}.', '{S} {be} doing a degree in {W}.', '{S} major{s} in {W}.', '{S} {be} in {P} second year of {W}.', '{S} take{s} evening classes in {W}.', '{P} course is {W}.', '{S} {be} enrolled in {W} at the university.', '{S} {be} working on a master\'s in {W}.'],
    update: ['{S} switched {P} major to {V}.', '{S} {be} studying {V} now.', '{S} transferred to {V}.', '{S} dropped {W} and enrolled in {V}.', '{S} changed courses, {V} from this term.', '{S} started a degree in {V}.', '{S} got into the {V} programme.', '{S} {be} doing {V} instead of {W}.', '{S} signed up for {V} and left {W}.', '{P} new course is {V}.'],
    end: ['{S} finished {P} {W} degree.', '{S} dropped out of {W}.', '{S} graduated in {W}.', '{S} quit {W}.', '{S} {be} done with {W}, all exams passed.', '{S} {do}n\'t study {W} anymore.', '{S} completed the {W} course.', '{S} withdrew from {W}.'],
    endUnnamed: ['{S} graduated last week!', '{S} dropped out of uni.', '{S} finished {P} degree.', '{S} {be} done with school for good.', '{S} submitted {P} thesis and {be} finished.', '{S} quit {P} course.'],
    addition: ['{S} {be} also taking a {V} module.', '{S} added a minor in {V}.', '{S} {be} doing {V} as well.', 'Besides {W}, {S} audit{s} a {V} class.'],
    repeat: ['{S} {be} still studying {W}.', '{S} {be} still in the {W} programme.', '{W} is going well, still at it.', 'Same course, still {W}.'],
    history: ['{S} studied {V} years ago.', '{S} took {V} in high school.', '{S} did a year of {V} before {W}.', 'Back in college {S} studied {V}.'],
    plan: ['study {V}', 'switch to {V}', 'apply for {V}', 'take a course in {V}'],
    sameTopic: ['{S} borrowed a {V} textbook.', '{S} went to a talk on {V}.', '{P} friend studies {V}.', '{S} watched a lecture on {V}.'],
  },
  hobby: {
    values: ['rock climbing', 'pottery', 'running', 'knitting', 'chess', 'surfing', 'painting', 'guitar', 'salsa dancing', 'photography', 'woodworking', 'birdwatching', 'baking', 'kayaking'],
    older: ['{S} do{es} {W} every weekend.', '{P} hobby is {W}.', '{S} spend{s} free time on {W}.', "{S} {be} really into {W}.", '{S} {have} been doing {W} for years.', '{W} is how {S} unwind{s}.', '{S} {be} in a {W} club.', '{S} practise{s} {W} most evenings.'],
    update: ['{S} took up {V}.', '{S} got into {V} this year.', '{S} {be} doing {V} now.', '{S} swapped {W} for {V}.', '{S} picked up {V} instead of {W}.', '{P} new hobby is {V}.', '{S} spend{s} weekends on {V} these days.', '{S} joined a {V} club and love{s} it.', '{S} started {V} and it has replaced {W}.', 'These days it is all {V} for {O}.'],
    end: ['{S} gave up {W}.', '{S} stopped doing {W}.', '{S} {do}n\'t do {W} anymore.', '{S} quit {W} after the injury.', '{S} sold all {P} {W} gear.', '{S} lost interest in {W}.', '{S} {have}n\'t done {W} in months and {be} done with it.', '{S} put {W} behind {O}.'],
    endUnnamed: ['{S} gave up {P} hobby.', '{S} {do}n\'t have time for hobbies anymore.', '{S} sold all the gear.', '{S} quit the club.', '{S} stopped all that.', '{S} {be} taking a break from hobbies for good.'],
    addition: ['{S} also took up {V}.', '{S} do{es} {V} as well.', 'On top of {W}, {S} started {V}.', '{S} {be} trying {V} too.'],
    repeat: ['{S} still do{es} {W}.', '{S} {be} still hooked on {W}.', 'Still doing {W} every weekend.', '{S} went to {W} again, as usual.'],
    history: ['{S} did {V} as a kid.', '{S} used to do {V}.', 'In school {S} {was} into {V}.', 'Years ago {S} tried {V}.'],
    plan: ['take up {V}', 'try {V}', 'learn {V}', 'give {V} a go'],
    sameTopic: ['{S} watched a {V} competition.', '{S} read a book about {V}.', '{P} friend does {V}.', '{S} saw a {V} exhibition.'],
  },
  contact: {
    values: ['555-0142', '555-0199', '555-0177', '555-0123', '555-0168', '555-0110', '555-0135', '555-0186', '555-0151', '555-0104', '555-0193', '555-0129'],
    older: ['{P} number is {W}.', 'You can reach {O} on {W}.', '{P} phone number is {W}.', 'Call {O} on {W}.', '{P} mobile is {W}.', 'Text {O} at {W}.', '{P} contact number is {W}.', 'The best number for {O} is {W}.'],
    update: ['{P} new number is {V}.', '{S} changed {P} number, it is {V} now.', 'Please use {V} from now on.', '{S} got a new phone number: {V}.', 'Update your contacts, {P} number is {V} now.', '{S} switched carriers and {P} number is {V}.', '{P} number changed to {V}.', 'Reach {O} on {V} from today.', 'The number to use for {O} is {V} now.', 'New number for {O}: {V}.'],
    end: ['{P} old number {W} no longer works.', '{S} gave up the {W} number.', '{W} is disconnected now.', '{S} {do}n\'t use {W} anymore.', '{S} cancelled the line {W}.', 'Do not call {W}, it is dead.', '{W} is not {P} number anymore.', '{S} let the {W} contract lapse.'],
    endUnnamed: ['{S} lost {P} phone and the old number is gone.', '{S} cancelled {P} phone contract.', '{P} old number does not work anymore.', '{S} {be} not reachable on the old number.', '{S} ditched {P} phone.', '{P} number was disconnected.'],
    addition: ['{S} also {have} a work number, {V}.', '{P} office line is {V} as well.', '{S} {have} a second phone: {V}.', 'For emergencies there is also {V}.'],
    repeat: ['{P} number is still {W}.', 'Same number as always, {W}.', '{S} kept {P} number, {W}.', 'Still on {W}.'],
    history: ['{P} number used to be {V}.', 'Years ago {P} number was {V}.', 'As a student {S} had the number {V}.', 'Back then {S} could be reached on {V}.'],
    plan: ['change {P} number to {V}', 'get a new number', 'switch to {V}', 'port {P} number'],
    sameTopic: ['{S} got a spam call from {V}.', '{S} called {V} about the delivery.', 'A missed call from {V} showed up.', '{S} wrote down {V} for the plumber.'],
  },
};
