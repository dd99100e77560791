/** Five turns of one user, each about its own topic, and questions whose right turn is known by construction. */
export const FIVE_TURNS = [
  { text: 'My dog Biscuit is a three-year-old beagle who loves the beach.', speaker: 'user', observedAt: '2025-03-01T09:00:00Z' },
  { text: 'I work as a nurse at the children\'s hospital in Leeds, mostly night shifts.', speaker: 'user', observedAt: '2025-03-02T09:00:00Z' },
  { text: 'My sister Priya is getting married in Lisbon in June.', speaker: 'user', observedAt: '2025-03-03T09:00:00Z' },
  { text: 'I am allergic to peanuts, so never suggest satay or peanut sauce.', speaker: 'user', observedAt: '2025-03-04T09:00:00Z' },
  { text: 'I started learning the cello last autumn and practise every evening.', speaker: 'user', observedAt: '2025-03-05T09:00:00Z' },
] as const;

/** Questions and the index in {@link FIVE_TURNS} of the turn that answers each. */
export const QUESTIONS = [
  { query: 'What breed is my dog Biscuit?', turn: 0 },
  { query: 'Where is Priya getting married?', turn: 2 },
  { query: 'Which food am I allergic to?', turn: 3 },
] as const;
