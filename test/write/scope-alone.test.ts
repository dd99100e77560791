/**
 * Issue 22/24 (scope), the write side: in a namespace shared by several users each user's turns
 * get the graph they would get in a namespace of their own. The same LoCoMo-like turns of two
 * users (two conversations, 3 sessions of 14 turns each, sessions of both on the same days,
 * shared topics and places) are written interleaved into ONE namespace (`userId` per turn) and,
 * separately, each user's turns alone into a namespace of its own; per user the edges are the
 * same: subtype, view, endpoints (by text) and the rule or model that decided them. Before, the
 * consecutive-observation rules read the namespace's last node (the other user's turn, so no
 * edge), candidate discovery dropped the other user's hits after retrieval (fewer than K_w
 * candidates) and a pair's turn distance (`seqGap`) counted the other user's turns.
 *
 * One input stays the namespace's: I^lex, whose BM25 term statistics (document frequencies,
 * mean length) are over every node of the namespace, so its ranking (one of the four fused
 * rankings of candidate discovery) and the `lexical` signal of a pair move with the other
 * user's texts. So, with I^lex searching nothing (mocked below), the relation requests
 * (candidates, their order, every signal) and ALL edges are the same; with I^lex as shipped the
 * rule edges are the same (the judged ones may differ through BM25).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import type { Observation } from '../../src/types.js';

/** When true, every I^lex search finds nothing (the index is otherwise the shipped one). */
const lexicalOff = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/plane/indexes/lexical.js', async (importActual) => {
  const actual = await importActual<typeof import('../../src/plane/indexes/lexical.js')>();
  return {
    ...actual,
    createLexicalIndex: () => {
      const index = actual.createLexicalIndex();
      const search = index.search.bind(index);
      index.search = (q, k, l) => (lexicalOff.on ? [] : search(q, k, l));
      return index;
    },
  };
});

const DAYS = ['2023-05-08T13:56:00Z', '2023-05-25T13:14:00Z', '2023-06-09T19:55:00Z'];

/** Two conversations (speakers, then 3 sessions of 14 lines alternating between them). */
const CONVERSATIONS: Record<'alice' | 'bob', { speakers: [string, string]; sessions: string[][] }> = {
  alice: {
    speakers: ['Caroline', 'Melanie'],
    sessions: [
      [
        'Hey Mel! Good to see you! How have you been?',
        'Hey Caroline! I just got back from camping at Yosemite with the kids.',
        'That sounds lovely. I went to an LGBTQ support group yesterday and it was so powerful.',
        'Wow, that must have been moving. What happened there?',
        'People shared their transgender stories and I felt accepted for the first time.',
        'I am so proud of you. Are you thinking about counseling as a career?',
        'Yes, I want to work in counseling and mental health for trans people.',
        'You would be great at that. I have been painting sunsets by the lake lately.',
        'Your paintings are beautiful. Did you sell the one with the pine trees?',
        'Not yet, but a gallery in Portland asked to show it next month.',
        'That is amazing news! I am reading a book about adoption agencies.',
        'Adoption? Are you planning to adopt a child?',
        'I hope so. I have been researching agencies that support LGBTQ parents.',
        'That is wonderful. Let us talk more next week, I have to pick up the kids.',
      ],
      [
        'Hi Caroline, I signed up for a pottery class on Saturdays.',
        'Pottery sounds fun! I ran a charity race for mental health last weekend.',
        'That is great, how far did you run?',
        'It was a 5k in Portland and we raised money for a youth shelter.',
        'I love that. The kids made clay bowls with me after the class.',
        'How sweet. I met with an adoption agency counselor on Tuesday.',
        'How did the meeting go?',
        'Really well, they said single parents are welcome and the process takes a year.',
        'A year is not long at all. We took the kids to the beach on Sunday.',
        'Which beach did you go to?',
        'We drove to Cannon Beach and built a huge sandcastle.',
        'I went there as a kid, the tide pools are my favorite.',
        'We saw starfish in the tide pools! My son loved them.',
        'Next time I will come with you, I need a break from studying.',
      ],
      [
        'Mel, I got accepted into the counseling master program!',
        'Congratulations Caroline, you worked so hard for it.',
        'Thank you! Classes start in September at the university in Portland.',
        'We should celebrate. How about dinner at the Thai place on Friday?',
        'Friday works. I also finished reading that adoption book.',
        'Did it help you decide on an agency?',
        'Yes, I picked the agency that supports LGBTQ parents, I applied last week.',
        'I am so happy for you. My pottery bowl finally came out of the kiln.',
        'Send me a picture of the bowl please!',
        'I will. It is blue with a sunset glaze like my paintings.',
        'That sounds gorgeous. Are you going camping again this summer?',
        'Yes, we are going back to Yosemite in August with the whole family.',
        'Take lots of pictures of the waterfalls for me.',
        'I will, and maybe I will paint one of them for your new apartment.',
      ],
    ],
  },
  bob: {
    speakers: ['Jon', 'Gina'],
    sessions: [
      [
        'Hey Gina, I lost my job at the bank last week.',
        'Oh no Jon, I am sorry. What are you going to do?',
        'I am thinking of opening a dance studio, dancing has always been my passion.',
        'That is a bold move. I started my own clothing store after losing my job too.',
        'How did you get the store started?',
        'I found a small space downtown and sold my designs online first.',
        'That is inspiring. I need to find a location for the dance studio.',
        'Check the old warehouses near the river, the rent is cheap there.',
        'Good idea, I will look at them on Monday.',
        'I also went hiking at Yosemite with my sister last month.',
        'Yosemite is beautiful, did you see the waterfalls?',
        'Yes, the waterfalls were huge after the rain.',
        'I want to take my dance crew there for a retreat.',
        'That would be fun. Let me know how the warehouse search goes.',
      ],
      [
        'Gina, I found a warehouse for the studio by the river!',
        'That is great news Jon! How big is the space?',
        'It is big enough for two dance floors and a small office.',
        'When do you plan to open the studio?',
        'I hope to open in July after the floors are installed.',
        'My clothing store just got a contract with a local fashion show.',
        'Congratulations! What will you show there?',
        'A summer line of dresses inspired by the beach.',
        'Sounds lovely. I applied for a small business loan at the bank.',
        'Did they approve the loan?',
        'Not yet, they want a business plan by Friday.',
        'I can help you with the business plan, I wrote one for the store.',
        'That would be amazing, thank you Gina.',
        'Come by the store on Thursday and we will work on it.',
      ],
      [
        'Gina, the bank approved my loan for the dance studio!',
        'I knew it Jon! The business plan was really solid.',
        'Thanks to your help. The floors are being installed next week.',
        'Have you hired any dance teachers yet?',
        'Two teachers from my old crew agreed to join the studio.',
        'That is perfect. The fashion show went really well by the way.',
        'Did you sell many dresses?',
        'We sold out the summer line and a boutique in Portland wants to carry it.',
        'Portland! That is a big step for your store.',
        'It is, I might open a second store there next year.',
        'We should celebrate the studio and the store together.',
        'How about a trip to Yosemite in August?',
        'Yes, the waterfalls and a dance under the stars.',
        'I will book the cabins tonight.',
      ],
    ],
  },
};

/** A user's turns in order, LoCoMo-like: "Speaker: text", one date per session, its own session ids. */
function turnsOf(user: 'alice' | 'bob'): Observation[] {
  const c = CONVERSATIONS[user];
  return c.sessions.flatMap((lines, s) =>
    lines.map((line, i) => {
      const speaker = c.speakers[i % 2] as string;
      const o: Observation = { text: `${speaker}: ${line}`, speaker, sessionId: `${user}-session_${s + 1}`, turnId: `${user}:D${s + 1}:${i + 1}`, observedAt: DAYS[s] as string, source: `locomo:${user}` };
      return { ...o, userId: user };
    }),
  );
}

let encoder: Encoder;
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
}, 60_000);
afterAll(async () => {
  await encoder?.close?.();
});

/** A memory with a fixed clock and counted ids, no maintenance pass. */
function open(systemOne: SystemOneBackend): Promise<Memory> {
  let n = 0;
  return createMemory({ encoder, systemOne, now: () => new Date('2026-01-01T00:00:00.000Z'), newId: () => `n${++n}`, parameters: { maintenanceInterval: 0 } });
}

/** Every edge of the namespace as "subtype view from-text -> to-text by", sorted, per user of its ends. */
async function edgesByUser(memory: Memory): Promise<Map<string, string[]>> {
  const nodes = (await memory.list({ limit: 1000 })).memories;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const out = new Map<string, string[]>();
  for (const n of nodes) {
    for (const e of await memory.edges(n.id)) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      const from = byId.get(e.from);
      const to = byId.get(e.to);
      const user = String(from?.provenance.source).replace('locomo:', '');
      expect(to?.provenance.source).toBe(from?.provenance.source); // never across users
      out.set(user, [...(out.get(user) ?? []), `${e.subtype} ${e.view} ${from?.text} -> ${to?.text} by ${e.origin.by}`]);
    }
  }
  for (const v of out.values()) v.sort();
  return out;
}

/** Writes `obs` one add at a time (or in one addMany) and returns the edges per user. */
async function build(systemOne: SystemOneBackend, obs: Observation[], bulk: boolean): Promise<Map<string, string[]>> {
  const memory = await open(systemOne);
  if (bulk) await memory.addMany(obs);
  else for (const o of obs) await memory.add(o);
  const edges = await edgesByUser(memory);
  await memory.close();
  return edges;
}

/** Alice's and Bob's turns interleaved one by one. */
function interleaved(): Observation[] {
  const a = turnsOf('alice');
  const b = turnsOf('bob');
  return a.flatMap((o, i) => [o, b[i] as Observation]);
}

/** Relation requests seen, by observation text: "candidate text signals". */
type Asked = Map<string, string[]>;

/** `inner`, recording each relation request. */
function recording(inner: SystemOneBackend, asked: Asked): SystemOneBackend {
  const see = (r: SystemOneRequest): SystemOneRequest => {
    const st = r.state as { kind: string; observation?: { text: string }; candidates?: Array<{ text: string; signals: Record<string, number> }> };
    if (st.kind === 'relation' && st.observation !== undefined && st.candidates !== undefined) asked.set(st.observation.text, st.candidates.map((c) => `${c.text} ${JSON.stringify(c.signals)}`));
    return r;
  };
  return { kind: inner.kind, modelId: inner.modelId, decide: (r, o) => inner.decide(see(r), o), decideMany: (rs, o) => inner.decideMany(rs.map(see), o), close: () => Promise.resolve() };
}

const RULES = new Set(['consecutive-turns', 'session-start', 'previous-session', 'consecutive-observations', 'close-in-time', 'shared-entity']);
const rules = (edges: string[] | undefined): string[] => (edges ?? []).filter((e) => RULES.has(e.slice(e.lastIndexOf(' by ') + 4)));

/** Each user's edges and relation requests written alone, and written interleaved in one namespace. */
async function bothWays(inner: SystemOneBackend, bulk: boolean): Promise<{ alone: Map<string, string[]>; shared: Map<string, string[]>; askedAlone: Asked; askedShared: Asked }> {
  const alone = new Map<string, string[]>();
  const askedAlone: Asked = new Map();
  for (const user of ['alice', 'bob'] as const) alone.set(user, (await build(recording(inner, askedAlone), turnsOf(user), bulk)).get(user) ?? []);
  const askedShared: Asked = new Map();
  const shared = await build(recording(inner, askedShared), interleaved(), bulk);
  return { alone, shared, askedAlone, askedShared };
}

describe('a shared namespace builds each user the graph of a namespace of their own', () => {
  for (const name of ['heuristic', 'local'] as const) {
    it(`${name} System One, I^lex searching nothing: the 42 + 42 turns interleaved give each user every edge and relation request written alone (per write and in one addMany)`, async () => {
      const inner = await createSystemOneFromName(name, { env: {} });
      lexicalOff.on = true;
      try {
        // One add per turn, then one addMany of all the turns (planned chunk by chunk).
        for (const bulk of [false, true]) {
          const r = await bothWays(inner, bulk);
          expect(r.askedAlone.size).toBe(82); // every turn but each user's first has candidates
          expect([...r.askedShared].sort()).toEqual([...r.askedAlone].sort());
          for (const user of ['alice', 'bob']) {
            expect(r.shared.get(user)).toEqual(r.alone.get(user));
            expect((r.alone.get(user) ?? []).length).toBeGreaterThan(100);
            // The consecutive-turn and previous-session rules link every turn but the first.
            expect(rules(r.alone.get(user)).filter((e) => e.startsWith('precedes temporal')).length).toBe(41);
          }
        }
      } finally {
        lexicalOff.on = false;
        await inner.close();
      }
    }, 180_000);
  }

  it('heuristic System One, I^lex as shipped, per write and in one addMany: each user gets the rule edges written alone', async () => {
    const inner = await createSystemOneFromName('heuristic', { env: {} });
    try {
      for (const bulk of [false, true]) {
        const r = await bothWays(inner, bulk);
        for (const user of ['alice', 'bob']) {
          expect(rules(r.shared.get(user))).toEqual(rules(r.alone.get(user)));
          expect(rules(r.alone.get(user)).filter((e) => e.startsWith('precedes temporal')).length).toBe(41);
        }
      }
    } finally {
      await inner.close();
    }
  }, 180_000);
});
