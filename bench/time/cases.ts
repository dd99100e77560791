/**
 * The time-and-change test set of issue 14: hand-written cases with hand-computed expected
 * values, by kind. Invented names only. Reference weekdays: 2024-02-20 is a Tuesday, 2024-03-10 a
 * Sunday, 2023-01-05 a Thursday, 2024-07-01 a Monday.
 *
 * Time cases give the observation (`at`, optional `tz`) and the text; `when` is the expected
 * local form of the FIRST time reference (util/time.ts `localWhen`: a day, `YYYY-MM`, a year, an
 * hour, or `a/b`), `null` when none must be found; `local` the expected local date of the
 * observation; `certainty` when checked. State cases give an older and a newer memory of one
 * speaker and whether the newer updates the older (`update`), with the kind when it does.
 *
 * @module
 */

/** Kinds of cases (the report groups by them). */
export type TimeCaseKind = 'timezone' | 'yearless' | 'weekday' | 'relative' | 'state';

/** A case about resolving a time expression. */
export interface TimeExprCase {
  kind: Exclude<TimeCaseKind, 'state'>;
  text: string;
  /** observedAt as the caller writes it (omitted: none). */
  at?: string;
  /** IANA zone given with the observation. */
  tz?: string;
  when: string | null;
  local?: string;
  certainty?: number;
}

/** A case about a changing fact. */
export interface StateCase {
  kind: 'state';
  /** The kind of state the pair is about (grouping only). */
  about: 'lives' | 'works' | 'relationship' | 'owns' | 'schedule' | 'preference' | 'contact' | 'plan';
  older: string;
  newer: string;
  /** Speaker of both (default Maya); `newerSpeaker` when the newer is said by someone else. */
  speaker?: string;
  newerSpeaker?: string;
  update: boolean;
}

export type TimeCase = TimeExprCase | StateCase;

const tz = (text: string, at: string, local: string, when: string, zone?: string): TimeExprCase => ({ kind: 'timezone', text, at, local, when, ...(zone ? { tz: zone } : {}) });
const yl = (at: string, text: string, when: string, certainty?: number): TimeExprCase => ({ kind: 'yearless', text, at, when, ...(certainty !== undefined ? { certainty } : {}) });
const wd = (at: string, text: string, when: string, certainty?: number): TimeExprCase => ({ kind: 'weekday', text, at, when, ...(certainty !== undefined ? { certainty } : {}) });
const rel = (at: string | undefined, text: string, when: string | null, certainty?: number): TimeExprCase => ({ kind: 'relative', text, ...(at ? { at } : {}), when, ...(certainty !== undefined ? { certainty } : {}) });
const st = (about: StateCase['about'], older: string, newer: string, update: boolean, extra: Partial<StateCase> = {}): StateCase => ({ kind: 'state', about, older, newer, update, ...extra });

const FEB20 = '2024-02-20T10:00:00Z'; // Tuesday
const JUL1 = '2024-07-01T10:00:00Z'; // Monday
const JAN5 = '2023-01-05T10:00:00Z'; // Thursday
const MAR10 = '2024-03-10T10:00:00Z'; // Sunday
const MAR13 = '2024-03-13T10:00:00Z'; // Wednesday
const MAR16 = '2024-03-16T10:00:00Z'; // Saturday
const MAR1 = '2024-03-01T10:00:00Z'; // Friday

/** Every case of the set. */
export const TIME_CASES: readonly TimeCase[] = [
  // ---- time zones: the offset / zone is kept; relative words resolve in the local calendar ----
  tz('I finished the half marathon this morning', '2024-03-10T07:30:00+09:00', '2024-03-10', '2024-03-10'),
  tz('we had dinner with Ana tonight', '2024-03-09T20:00:00-08:00', '2024-03-09', '2024-03-09'),
  tz('I flew home yesterday', '2024-01-01T01:00:00+14:00', '2024-01-01', '2023-12-31'),
  tz('the party was yesterday', '2024-01-01T02:00:00-10:00', '2024-01-01', '2023-12-31'),
  tz('I start the new job tomorrow', '2024-02-28T23:30:00+05:30', '2024-02-28', '2024-02-29'),
  tz('I start the new job tomorrow', '2023-02-28T23:30:00+05:30', '2023-02-28', '2023-03-01'),
  tz('I went running this morning', '2023-06-30T06:45:00-03:00', '2023-06-30', '2023-06-30'),
  tz('we moved house today', '2023-12-31T23:59:00+01:00', '2023-12-31', '2023-12-31'),
  tz('today is my first day', '2024-07-04T00:30:00-04:00', '2024-07-04', '2024-07-04'),
  tz('I landed yesterday', '2024-07-04T00:30:00-04:00', '2024-07-04', '2024-07-03'),
  tz('I arrived yesterday', '2024-07-04T02:00:00Z', '2024-07-03', '2024-07-02', 'America/New_York'),
  tz('tonight we cook pasta', '2024-01-15T02:00:00Z', '2024-01-14', '2024-01-14', 'America/New_York'),
  tz('this evening I read', '2024-03-10T15:30:00Z', '2024-03-10', '2024-03-10', 'Asia/Kolkata'),
  tz('I woke up early this morning', '2024-03-10T20:00:00Z', '2024-03-11', '2024-03-11', 'Asia/Kolkata'),
  tz('I got the keys yesterday', '2024-06-01T23:00:00Z', '2024-06-02', '2024-06-01', 'Europe/Lisbon'),
  tz('I got the keys yesterday', '2024-12-01T23:00:00Z', '2024-12-01', '2024-11-30', 'Europe/Lisbon'),
  tz('I finished the half marathon this morning', '2024-03-09T22:30:00Z', '2024-03-09', '2024-03-09'),
  tz('I finished the half marathon this morning', '2024-03-09T22:30:00', '2024-03-09', '2024-03-09'),
  tz('I met Leo yesterday', '2024-05-05T10:00:00+0200', '2024-05-05', '2024-05-04'),
  tz('the exam is tomorrow', '2024-08-31T22:00:00-05:00', '2024-08-31', '2024-09-01'),
  tz('the exam is tomorrow', '2024-08-31T22:00:00+05:00', '2024-08-31', '2024-09-01'),
  tz('today I signed the lease', '2024-02-29T23:00:00-02:00', '2024-02-29', '2024-02-29'),
  tz('today the clocks change', '2023-10-29T00:30:00Z', '2023-10-29', '2023-10-29', 'Europe/Berlin'),
  tz('I painted the fence yesterday', '2023-10-28T22:30:00Z', '2023-10-29', '2023-10-28', 'Europe/Berlin'),
  tz('tonight we watch the game', '2024-11-03T03:00:00Z', '2024-11-02', '2024-11-02', 'America/Los_Angeles'),
  tz('I hiked yesterday', '2024-04-01T12:00:00+12:45', '2024-04-01', '2024-03-31'),
  tz('today I rest', '2024-04-01T00:15:00-09:30', '2024-04-01', '2024-04-01'),
  tz('I stayed in yesterday', '2024-01-01T00:00:00+00:00', '2024-01-01', '2023-12-31'),

  // ---- dates without a year: tense picks the year ----
  yl(FEB20, 'we went to Lisbon on 14 August for a wedding', '2023-08-14', 0.75),
  yl(FEB20, 'we will go to Lisbon on 14 August', '2024-08-14', 0.75),
  yl(FEB20, 'I visited my parents on 3 January', '2024-01-03'),
  yl(FEB20, 'I will visit my parents on 3 January', '2025-01-03'),
  yl(FEB20, 'my exam was on February 20', '2024-02-20'),
  yl(FEB20, 'I am going to take the exam on February 20', '2024-02-20'),
  yl(FEB20, 'the concert was on 25 December', '2023-12-25'),
  yl(FEB20, 'the concert is on 25 December', '2024-12-25', 0.5), // a present-tense arrangement: the coming one
  yl(FEB20, 'I moved here in August', '2023-08', 0.75),
  yl(FEB20, 'we are going to Japan in October', '2024-10'),
  yl(FEB20, 'in March we started the course', '2023-03'),
  yl(FEB20, 'I will start the course in March', '2024-03'),
  yl(FEB20, 'we will travel in February', '2024-02'),
  yl(JUL1, 'my niece was born on December 2', '2023-12-02', 0.75),
  yl(JUL1, 'my niece will be born on December 2', '2024-12-02'),
  yl(JUL1, 'we got married on June 30', '2024-06-30'),
  yl(JUL1, 'we got married on July 2', '2023-07-02'),
  yl(JUL1, 'we will get married on July 2', '2024-07-02'),
  yl(JUL1, 'we will get married on June 30', '2025-06-30'),
  yl(JUL1, 'she was born on 1 July', '2024-07-01'),
  yl(JUL1, 'I ran the marathon in April', '2024-04'),
  yl(JUL1, 'I ran the marathon in September', '2023-09'),
  yl(JUL1, 'I plan to run the marathon in September', '2024-09'),
  yl(JUL1, 'I plan to run a race in April', '2025-04'),
  yl(JUL1, 'on 4 July we had a barbecue', '2023-07-04'),
  yl(JUL1, 'on 4 July we will have a barbecue', '2024-07-04'),
  yl(JAN5, 'I bought the car on 28 December', '2022-12-28'),
  yl(JAN5, 'I will buy the car on 28 December', '2023-12-28'),
  yl(JAN5, 'my birthday party was on January 3', '2023-01-03'),
  yl(JAN5, 'my birthday party will be on January 10', '2023-01-10'),
  yl(JAN5, 'we celebrated on 31 December', '2022-12-31'),
  yl(JAN5, 'we went to Rome on 14 August 2021', '2021-08-14', 1),
  yl(JAN5, 'we saw the play in November', '2022-11'),
  yl(JAN5, 'we are going to see the play in November', '2023-11'),
  yl(MAR10, "I'm planning a trip to Japan in October", '2024-10', 0.75),
  yl(MAR13, 'The course started in May.', '2023-05', 0.75),
  yl(MAR1, 'The sale ended on 3 March.', '2023-03-03', 0.75),
  yl(MAR13, 'My sister moved to Oslo in June.', '2023-06', 0.75),
  yl(MAR13, 'We have a hundred guests coming in June.', '2024-06', 0.5),
  yl(MAR10, 'we did a trip to Japan in October', '2023-10', 0.75),
  yl(FEB20, "we're flying to Lisbon on 14 August", '2024-08-14', 0.75),
  yl(JUL1, 'I am hoping to visit Oslo in May', '2025-05', 0.75),
  yl(JAN5, 'we are having a party on 28 December', '2023-12-28'),
  yl(JAN5, 'I want to see the play in November', '2023-11'),
  // present-tense arrangements read as the coming date (certainty stays 0.5); no verb: the nearest
  yl(MAR10, 'My flight is on 3 March.', '2025-03-03', 0.5),
  yl(MAR10, 'Her birthday party is in October.', '2024-10', 0.5),
  yl(JUL1, 'my exam is on 1 July', '2024-07-01', 0.5),
  yl(JUL1, 'the wedding is scheduled for 30 June', '2025-06-30', 0.5),
  yl(JUL1, 'the course starts in May', '2025-05', 0.5),
  yl(MAR10, 'flight on 3 March', '2024-03-03', 0.5),
  yl(JUL1, 'the view is amazing in May', '2024-05', 0.5),

  // ---- bare weekdays: past → the latest not after the day; future → the next after it ----
  wd(FEB20, 'I saw him on Friday', '2024-02-16', 0.7),
  wd(FEB20, 'I will see him on Friday', '2024-02-23', 0.7),
  wd(FEB20, 'we met on Monday', '2024-02-19'),
  wd(FEB20, 'we will meet on Monday', '2024-02-26'),
  wd(FEB20, 'we met on Tuesday', '2024-02-20'),
  wd(FEB20, "we're meeting on Friday", '2024-02-23', 0.7),
  // A noun subject with a regular past verb is past tense; "this Friday" in the past is the one just gone.
  wd(MAR13, 'The meeting started on Friday.', '2024-03-08', 0.7),
  wd(MAR16, 'We met this Friday.', '2024-03-15', 0.7),
  wd(MAR13, 'The talk is scheduled for Friday.', '2024-03-15', 0.5),
  wd(FEB20, 'we will meet on Tuesday', '2024-02-27'),
  wd(FEB20, 'I went to the gym on Wednesday', '2024-02-14'),
  wd(FEB20, 'I am going to the gym on Wednesday', '2024-02-21'),
  wd(FEB20, 'on Sunday we hiked', '2024-02-18'),
  wd(FEB20, 'on Sunday we will hike', '2024-02-25'),
  wd(FEB20, 'I called her on Saturday', '2024-02-17'),
  wd(FEB20, 'I will call her on Saturday', '2024-02-24'),
  wd(FEB20, 'she arrived on Thursday', '2024-02-15'),
  wd(FEB20, 'she arrives on Thursday', '2024-02-22', 0.5),
  wd(MAR10, 'we had brunch on Saturday', '2024-03-09'),
  wd(MAR10, 'we will have brunch on Saturday', '2024-03-16'),
  wd(MAR10, 'I went to church on Sunday', '2024-03-10'),
  wd(MAR10, 'the meeting went well on Monday', '2024-03-04'),
  wd(MAR10, 'the meeting will be on Monday', '2024-03-11'),
  wd(MAR10, 'on Friday I finished the book', '2024-03-08'),
  wd('2024-03-09T22:30:00+09:00', 'we met on Saturday', '2024-03-09'),
  wd('2024-03-10T07:30:00+09:00', 'we met on Saturday', '2024-03-09'),
  wd('2024-03-10T07:30:00+09:00', 'we will meet on Monday', '2024-03-11'),
  wd('2024-03-09T22:30:00Z', 'we will meet on Saturday', '2024-03-16'),
  wd('2024-03-09T22:30:00Z', 'we met on Saturday', '2024-03-09'),
  wd(MAR10, 'The meeting is on Friday.', '2024-03-15', 0.5),
  wd(MAR10, 'We have a team dinner on Friday.', '2024-03-15', 0.5),
  wd(MAR10, 'I have an exam on Friday.', '2024-03-15', 0.5),
  wd(FEB20, 'the course starts on Monday', '2024-02-26', 0.5),
  wd(FEB20, 'the shop opens on Tuesday', '2024-02-27', 0.5),
  wd(MAR10, 'dinner on Friday', '2024-03-08', 0.5),

  // ---- relative expressions (and explicit ones, for certainty 1) ----
  rel(FEB20, 'I was sick yesterday', '2024-02-19', 0.9),
  rel(FEB20, 'today I am tired', '2024-02-20', 0.9),
  rel(FEB20, 'tomorrow I fly', '2024-02-21', 0.9),
  rel(FEB20, 'tonight we dance', '2024-02-20', 0.9),
  rel(FEB20, 'this morning I swam', '2024-02-20', 0.9),
  rel(FEB20, 'this evening I cook', '2024-02-20'),
  rel(FEB20, 'I met her 3 days ago', '2024-02-17'),
  rel(FEB20, 'I met her two weeks ago', '2024-02-05/2024-02-11', 0.9), // a week expression names the whole week (Mon–Sun)
  rel(FEB20, 'last Friday we played', '2024-02-16', 0.9),
  rel(FEB20, 'in 2 days I leave', '2024-02-22'),
  rel(FEB20, 'a month ago I quit', '2024-01'), // chrono knows only the month: the interval is that month
  rel(FEB20, 'last month I quit', '2024-01'),
  rel('2024-03-01T10:00:00Z', 'yesterday was leap day', '2024-02-29'),
  rel('2023-03-01T10:00:00Z', 'yesterday was the last day', '2023-02-28'),
  rel('2023-12-31T10:00:00Z', 'tomorrow is new year', '2024-01-01'),
  rel('2024-01-01T10:00:00Z', 'yesterday was new year eve', '2023-12-31'),
  rel(FEB20, 'next Monday I start', '2024-02-26'),
  rel(FEB20, 'this Friday I leave', '2024-02-23'),
  rel(FEB20, 'we meet at 7pm', '2024-02-20T19:00Z'),
  rel(FEB20, 'I moved 5 years ago', '2019', 0.9), // "N years ago" names a year, not a day
  rel(FEB20, 'yesterday at 3pm I called', '2024-02-19T15:00Z'),
  rel(FEB20, 'tomorrow morning I run', '2024-02-21'),
  rel(FEB20, 'we married on 14 August 2021', '2021-08-14', 1),
  rel(FEB20, 'I lived there in 2022', '2022', 1),
  rel(FEB20, 'we went in August 2023', '2023-08', 1),
  rel(FEB20, 'from 3 to 5 August 2023 we hiked', '2023-08-03/2023-08-05', 1),
  rel(undefined, 'I was sick yesterday', null),
  rel(undefined, 'we married on 14 August 2021', '2021-08-14', 1),
  rel(undefined, 'we went on 14 August', null),
  rel(FEB20, 'I like tea', null),
  rel(FEB20, 'the day before yesterday I slept', '2024-02-18'),

  // ---- month / year arithmetic from the 29th–31st (no roll-over into the next month) ----
  rel('2024-03-31T10:00:00Z', 'last month I quit', '2024-02', 0.9),
  rel('2024-05-31T10:00:00Z', 'last month I quit', '2024-04', 0.9),
  rel('2024-03-31T10:00:00Z', 'a month ago I quit', '2024-02', 0.9),
  rel('2024-05-31T10:00:00Z', 'three months ago I quit', '2024-02', 0.9),
  rel('2024-01-31T10:00:00Z', 'next month I start', '2024-02', 0.9),
  rel('2024-01-31T23:30:00-08:00', 'next month I start', '2024-02', 0.9),
  rel('2024-08-31T10:00:00Z', 'next month I start', '2024-09', 0.9),
  rel('2024-10-31T10:00:00Z', 'next month I start', '2024-11', 0.9),
  rel('2024-01-31T10:00:00Z', 'in a month I start', '2024-02', 0.9),
  rel('2023-12-31T10:00:00Z', 'next month I start', '2024-01', 0.9),
  rel('2024-01-31T10:00:00Z', 'I quit last month', '2023-12', 0.9),
  rel('2024-03-30T10:00:00Z', 'in 11 months we move', '2025-02', 0.9),
  rel('2024-03-31T12:00:00+14:00', 'this month I rest', '2024-03', 0.9),
  rel('2024-03-01T12:00:00+14:00', 'this month I rest', '2024-03', 0.9), // chrono alone reads the runtime's (UTC) month: 2024-02
  rel('2024-02-29T10:00:00Z', 'last year I quit', '2023', 0.9),
  rel('2024-02-29T10:00:00Z', 'next year we move', '2025', 0.9),
  rel('2024-02-29T10:00:00Z', 'two years ago I quit', '2022', 0.9),
  rel('2024-12-31T23:30:00-08:00', 'this year was long', '2024', 0.9),

  // ---- weeks (ISO, Monday–Sunday) and weekends (Saturday–Sunday) ----
  rel(MAR10, 'we fly to Oslo next week', '2024-03-11/2024-03-17', 0.9),
  rel(MAR10, 'last week I was ill', '2024-02-26/2024-03-03', 0.9),
  rel(MAR10, 'this week I rested', '2024-03-04/2024-03-10', 0.9),
  rel('2024-03-12T10:00:00Z', 'this week I am busy', '2024-03-11/2024-03-17', 0.9), // chrono alone: Sunday 10 March (a US week)
  rel(JUL1, 'in 3 weeks we move', '2024-07-22/2024-07-28', 0.9),
  rel('2024-12-31T10:00:00Z', 'this week I rest', '2024-12-30/2025-01-05', 0.9), // ISO week 2025-W01
  rel(JAN5, 'last week I was ill', '2022-12-26/2023-01-01', 0.9),
  rel('2024-03-10T23:30:00-08:00', 'next week I fly', '2024-03-11/2024-03-17', 0.9), // local Sunday (UTC is already Monday)
  rel('2024-03-04T06:00:00+09:00', 'last week I was ill', '2024-02-26/2024-03-03', 0.9), // local Monday (UTC is still Sunday)
  rel(MAR10, 'I ran a marathon this weekend', '2024-03-09/2024-03-10', 0.9),
  rel('2024-03-09T10:00:00Z', 'this weekend we relax', '2024-03-09/2024-03-10', 0.9),
  rel(FEB20, 'I went hiking this weekend', '2024-02-17/2024-02-18', 0.9),
  rel(FEB20, 'this weekend we will hike', '2024-02-24/2024-02-25', 0.9),
  rel(FEB20, 'next weekend we will hike', '2024-03-02/2024-03-03', 0.9),
  rel(FEB20, 'last weekend we hiked', '2024-02-17/2024-02-18', 0.9),
  rel(MAR10, 'last weekend we hiked', '2024-03-02/2024-03-03', 0.9),
  rel(MAR10, 'next weekend we will hike', '2024-03-16/2024-03-17', 0.9),
  rel('2024-03-10T23:30:00-08:00', 'next weekend we will hike', '2024-03-16/2024-03-17', 0.9),
  rel(FEB20, 'we went camping over the weekend', '2024-02-17/2024-02-18', 0.7),
  rel(FEB20, 'the coming weekend is free', '2024-02-24/2024-02-25', 0.9),

  // ---- facts that change (and ones that do not) ----
  st('lives', 'I live in Lisbon.', 'I moved to Porto last month.', true),
  st('lives', 'Maya lives in Lisbon.', 'Maya moved to Berlin.', true, { speaker: 'Theo' }),
  st('lives', 'I live in Lisbon, near the river.', 'I live in Berlin now.', true),
  st('lives', 'We live in Madrid.', 'We relocated to Valencia in spring.', true),
  st('lives', 'I live in Lisbon.', 'I also moved my office to Porto.', false),
  st('lives', 'I live in Lisbon.', 'I still live in Lisbon.', false),
  st('lives', 'Maya lives in Lisbon.', 'Tom moved to Berlin.', false, { speaker: 'Theo' }),
  st('lives', 'I live in Lisbon.', 'My sister moved to Berlin.', false),
  st('lives', 'I live in Lisbon.', 'I love the food in Lisbon.', false),
  st('works', 'I work at Acme.', 'I joined Globex in May.', true),
  st('works', 'I work at Acme.', 'I quit Acme last week.', true),
  st('works', 'Maya works for Initech.', 'Maya started at Umbrella last week.', true, { speaker: 'Theo' }),
  st('works', 'I work at Acme.', 'I also work for Initech on weekends.', false),
  st('works', 'I work at Acme.', 'I still work at Acme.', false),
  st('works', 'I work at Acme.', 'My brother joined Globex.', false),
  st('works', 'I work at Acme.', 'Acme had a summer party.', false),
  st('relationship', 'I am dating Tom.', 'I broke up with Tom.', true),
  st('relationship', 'My girlfriend is Ana.', 'My new girlfriend is Bea.', true),
  st('relationship', 'I am dating Tom.', 'I am engaged to Leo now.', true),
  st('relationship', 'I am dating Tom.', 'I am still dating Tom.', false),
  st('relationship', 'Maya is dating Tom.', 'Ana is dating Leo.', false, { speaker: 'Theo' }),
  st('owns', 'I drive a Toyota car.', 'I sold my car.', true),
  st('owns', 'I have a dog.', 'We gave away the dog.', true),
  st('owns', 'I own a red bike.', 'I bought a new bike.', true),
  st('owns', 'I have a dog.', 'I also have a cat now.', false),
  st('owns', 'I drive a Toyota car.', 'My brother bought a car.', false),
  st('schedule', 'My pottery class is on Mondays.', 'The pottery class moved to Thursdays.', true),
  st('schedule', 'Practice is every Tuesday.', 'Practice is now on Wednesdays.', true),
  st('schedule', 'My shift starts at 9am.', 'My shift starts at 7am now.', true),
  st('schedule', 'My yoga class is on Mondays.', 'My yoga class is on Mondays, as always.', false),
  st('schedule', 'My class is on Mondays.', 'My meeting is on Fridays.', false),
  st('preference', 'My favourite food is sushi.', 'My favourite food is ramen now.', true),
  st('preference', 'My favorite band is Muse.', 'My favorite band is Blur these days.', true),
  st('preference', 'I prefer tea.', 'I prefer coffee now.', true),
  st('preference', 'My favourite food is sushi.', 'My favourite film is Alien.', false),
  st('preference', 'My favourite food is sushi.', 'I also like ramen.', false),
  st('preference', 'My favourite food is sushi.', 'We ate sushi yesterday.', false),
  st('contact', 'My phone number is 555-1234.', 'My number changed to 555-9876.', true),
  st('contact', 'My email is maya@old.example.', 'My email is now maya@new.example.', true),
  st('contact', 'My email is maya@old.example.', 'My phone number is 555-0000.', false),
  st('contact', 'My email is maya@x.example.', 'My email is maya@x.example, write any time.', false),
  st('plan', 'We will go on a trip to Japan in May.', 'We cancelled the trip to Japan.', true),
  st('plan', 'I am going to the concert on Friday.', 'The concert was called off.', true),
  st('plan', 'We plan to have a party on Saturday.', 'We postponed the party.', true),
  st('plan', 'We will go on a trip to Japan.', 'The concert was cancelled.', false),
  st('plan', 'We went on a trip to Japan.', 'We cancelled the trip to Korea.', false),
  st('plan', 'We will go on a trip to Japan.', 'We booked the trip to Japan.', false),
];
