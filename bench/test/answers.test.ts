import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adversarialCorrect, JUDGE_SYSTEM_PROMPT, parseVerdict, runAnswerEval, writeAnswerOutputs, type AnswerEvalResults } from '../locomo/answers.js';
import { runBenchCommand } from '../cli.js';
import { ANSWER_SYSTEM_PROMPT, buildAnswerPrompt } from '../../src/system-two/prompt.js';
import type { ChatMessage, EvidenceItem } from '../../src/system-two/types.js';
import { startChatServer, type ChatServer } from '../../test/helpers/chat-server.js';
import { letterEncoder, question, tinyConversation } from './fixtures.js';

/** Deterministic System Two: a fixed answer per question. */
const ANSWERS: Record<string, string> = {
  "What is the name of Alice's puppy?": 'Rex',
  'When did Alice go hiking?': 'last weekend',
  'What lessons does Bob take?': 'guitar',
  'What did Alice name her cat?': 'Not mentioned in the conversation',
  "What is Bob's puppy called?": 'Rex',
};

function messages(body: Record<string, unknown> | undefined): ChatMessage[] {
  return (body?.messages ?? []) as ChatMessage[];
}

function questionOf(user: string): string {
  return /Question: (.*)$/.exec(user)?.[1] ?? '';
}

/** Fake judge: CORRECT when the generated answer equals the gold answer, else WRONG. */
function judgeReply(body: Record<string, unknown> | undefined): string {
  const user = messages(body)[1]?.content ?? '';
  const gold = /Gold answer: (.*)/.exec(user)?.[1];
  const generated = /Generated answer: (.*)/.exec(user)?.[1];
  return gold === generated ? 'CORRECT' : 'WRONG';
}

const conv = tinyConversation('conv-x', [
  question('conv-x#0', "What is the name of Alice's puppy?", 4, ['D1:1']),
  question('conv-x#1', 'When did Alice go hiking?', 2, ['D2:1']),
  question('conv-x#2', 'What lessons does Bob take?', 1, ['D2:2']),
  question('conv-x#3', 'What did Alice name her cat?', 5, ['D1:1']),
  question('conv-x#4', "What is Bob's puppy called?", 5, ['D1:1']),
  question('conv-x#5', 'Where does Bob live?', 4, []), // no evidence: not evaluable
]);
conv.questions[0]!.answer = 'Rex';
conv.questions[1]!.answer = 'the weekend before 15 July 2023';
conv.questions[2]!.answer = 'guitar';
conv.questions[3]!.answer = 'Rex';
conv.questions[4]!.answer = 'Rex';

describe('runAnswerEval against fake answer and judge servers', () => {
  let answerer: ChatServer;
  let judge: ChatServer;
  let results: AnswerEvalResults;

  beforeAll(async () => {
    answerer = await startChatServer({ reply: (b) => ANSWERS[questionOf(messages(b)[1]?.content ?? '')] ?? 'unknown', model: 'answer-model' });
    judge = await startChatServer({ reply: judgeReply, model: 'judge-model' });
    results = await runAnswerEval({
      systems: ['bm25', 'hybrid'],
      conversations: [conv],
      encoder: letterEncoder(),
      k: 3,
      systemTwo: { url: answerer.url, model: 'answer-model', retries: 0 },
      judge: { url: judge.url, model: 'judge-model', retries: 0 },
    });
  });

  afterAll(async () => {
    await answerer?.close();
    await judge?.close();
  });

  it('calls System Two once per evaluable question per system (5 × 2)', () => {
    expect(answerer.requests).toHaveLength(10);
  });

  it('calls the judge once per non-adversarial question per system (3 × 2), never for category 5', () => {
    expect(judge.requests).toHaveLength(6);
    const judged = judge.requests.map((r) => /Question: (.*)/.exec(messages(r.body)[1]?.content ?? '')?.[1]);
    expect(judged).not.toContain('What did Alice name her cat?');
    expect(judged).not.toContain("What is Bob's puppy called?");
    expect(messages(judge.requests[0]!.body)[0]?.content).toBe(JUDGE_SYSTEM_PROMPT);
  });

  it('sends every system the same answer template: buildAnswerPrompt of its top-K turns', () => {
    const byTurn = new Map(conv.observations.map((o) => [o.turnId, o]));
    // Requests go question by question, each asked of bm25 then hybrid.
    const expected = results.systems.bm25!.questions.flatMap((_, qi) =>
      (['bm25', 'hybrid'] as const).map((name) => {
        const q = results.systems[name]!.questions[qi]!;
        expect(q.retrieved.length).toBeLessThanOrEqual(3);
        const evidence: EvidenceItem[] = q.retrieved.map((id, r) => ({ id, text: byTurn.get(id)!.text, observedAt: byTurn.get(id)!.observedAt as string, speaker: byTurn.get(id)!.speaker!, score: 1 / (r + 1) }));
        return buildAnswerPrompt(q.question, evidence);
      }),
    );
    expect(answerer.requests.map((r) => messages(r.body))).toEqual(expected);
    for (const r of answerer.requests) expect(messages(r.body)[0]?.content).toBe(ANSWER_SYSTEM_PROMPT);
  });

  it('scores by category as computed by hand: 1 → 1/1, 2 → 0/1, 4 → 1/1, overall 2/3, adversarial 1/2', () => {
    for (const name of ['bm25', 'hybrid'] as const) {
      const s = results.systems[name]!;
      expect(s.status).toBe('ok');
      expect(s.byCategory['1']).toEqual({ n: 1, correct: 1, accuracy: 1 });
      expect(s.byCategory['2']).toEqual({ n: 1, correct: 0, accuracy: 0 });
      expect(s.byCategory['3']).toEqual({ n: 0, correct: 0, accuracy: 0 });
      expect(s.byCategory['4']).toEqual({ n: 1, correct: 1, accuracy: 1 });
      expect(s.overall).toEqual({ n: 3, correct: 2, accuracy: 2 / 3 });
      expect(s.byCategory['5']).toEqual({ n: 2, correct: 1, accuracy: 0.5 });
    }
  });

  it('records answers, verdicts and how each verdict was reached', () => {
    const qs = results.systems.bm25!.questions;
    expect(qs.map((q) => [q.id, q.answer, q.verdict, q.by])).toEqual([
      ['conv-x#0', 'Rex', 'correct', 'judge'],
      ['conv-x#1', 'last weekend', 'wrong', 'judge'],
      ['conv-x#2', 'guitar', 'correct', 'judge'],
      ['conv-x#3', 'Not mentioned in the conversation', 'correct', 'adversarial-rule'],
      ['conv-x#4', 'Rex', 'wrong', 'adversarial-rule'],
    ]);
    expect(qs[0]!.judgeReply).toBe('CORRECT');
    expect(qs[3]!.judgeReply).toBeUndefined();
  });

  it('writes answers.json and answers.md', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jev-mem-answers-test-'));
    try {
      await writeAnswerOutputs(results, dir);
      const json = JSON.parse(await readFile(join(dir, 'answers.json'), 'utf8')) as AnswerEvalResults;
      expect(json.systems.hybrid?.overall.correct).toBe(2);
      expect(await readFile(join(dir, 'answers.md'), 'utf8')).toContain('| bm25 | 100.0 | 0.0 | – | 100.0 | 66.7 (n=3) | 50.0 |');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('runAnswerEval accounting', () => {
  it('sums the token usage the servers report', async () => {
    const server = await startChatServer({ reply: () => 'WRONG' });
    try {
      const usage = { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 };
      // question 0 (category 4): answer then judge; question 3 (category 5): answer only.
      server.enqueue({ kind: 'ok', content: 'Rex', usage }, { kind: 'ok', content: 'CORRECT', usage: { prompt_tokens: 20, completion_tokens: 1 } }, { kind: 'ok', content: 'no information', usage });
      const c = tinyConversation('conv-x', [conv.questions[0]!, conv.questions[3]!]);
      const r = await runAnswerEval({ systems: ['bm25'], conversations: [c], encoder: letterEncoder(), systemTwo: { url: server.url, model: 'm', retries: 0 } });
      const s = r.systems.bm25!;
      expect(s.usage.answer).toEqual({ calls: 2, promptTokens: 14, completionTokens: 4, totalTokens: 18 });
      expect(s.usage.judge).toEqual({ calls: 1, promptTokens: 20, completionTokens: 1, totalTokens: 21 });
      expect(s.questions.map((q) => q.verdict)).toEqual(['correct', 'correct']);
    } finally {
      await server.close();
    }
  });

  it('answers from a jev-mem memory too (no-system-one: heuristic System One), one call per question', async () => {
    const server = await startChatServer({ reply: (b) => (messages(b)[0]?.content === JUDGE_SYSTEM_PROMPT ? 'CORRECT' : 'Rex') });
    try {
      const r = await runAnswerEval({ systems: ['no-system-one'], conversations: [conv], encoder: letterEncoder(), k: 2, systemTwo: { url: server.url, model: 'm', retries: 0 } });
      const s = r.systems['no-system-one']!;
      expect(s.status, s.error).toBe('ok');
      // 5 answers + 3 judge calls; adversarial "Rex" answers are wrong by the rule.
      expect(server.requests).toHaveLength(8);
      expect(s.overall).toEqual({ n: 3, correct: 3, accuracy: 1 });
      expect(s.byCategory['5']).toEqual({ n: 2, correct: 0, accuracy: 0 });
      for (const q of s.questions) expect(q.retrieved.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('ranks the peers with the peer code (orama, minisearch-default); orama-tuned fails without a dev conversation to tune on', async () => {
    const server = await startChatServer({ reply: (b) => (messages(b)[0]?.content === JUDGE_SYSTEM_PROMPT ? 'CORRECT' : 'Rex') });
    try {
      const c = tinyConversation('conv-x', [question('conv-x#9', 'Which puppy did Alice adopt?', 4, ['D1:1'])]);
      const r = await runAnswerEval({ systems: ['orama', 'orama-tuned', 'minisearch-default'], conversations: [c], encoder: letterEncoder(), k: 2, systemTwo: { url: server.url, model: 'm', retries: 0 } });
      // MiniSearch defaults (no stemming, no prefix): of the question's words only "alice" (3 turns) and
      // "puppy" (D1:1 alone) occur; D1:1 has both and ranks first.
      expect(r.systems['minisearch-default']!.questions[0]!.retrieved[0]).toBe('D1:1');
      const orama = r.systems.orama!;
      expect(orama.status).toBe('ok');
      expect(orama.questions[0]!.retrieved.length).toBeGreaterThan(0);
      for (const id of orama.questions[0]!.retrieved) expect(['D1:1', 'D1:2', 'D2:1', 'D2:2']).toContain(id);
      expect(r.systems['orama-tuned']).toMatchObject({ status: 'failed', error: expect.stringContaining('no development-split conversation') });
      // one answer and one judge call for each of the two systems that ran
      expect(server.requests).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it('tunes orama-tuned on a development conversation and answers with it', async () => {
    const server = await startChatServer({ reply: (b) => (messages(b)[0]?.content === JUDGE_SYSTEM_PROMPT ? 'CORRECT' : 'Rex') });
    try {
      const dev = tinyConversation('conv-26', [question('conv-26#0', "What is the name of Alice's puppy?", 4, ['D1:1'])]);
      const r = await runAnswerEval({ systems: ['orama-tuned'], conversations: [dev], encoder: letterEncoder(), k: 2, systemTwo: { url: server.url, model: 'm', retries: 0 } });
      const s = r.systems['orama-tuned']!;
      expect(s.status, s.error).toBe('ok');
      expect(s.questions[0]!.retrieved.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('counts a failed answer call as an error (wrong) without judging it', async () => {
    const server = await startChatServer();
    try {
      server.enqueue({ kind: 'status', status: 400, body: '{"error":"bad"}' });
      const c = tinyConversation('conv-x', [conv.questions[0]!]);
      const r = await runAnswerEval({ systems: ['bm25'], conversations: [c], encoder: letterEncoder(), systemTwo: { url: server.url, model: 'm', retries: 0 } });
      expect(server.requests).toHaveLength(1);
      expect(r.systems.bm25!.questions[0]).toMatchObject({ verdict: 'error', by: 'error' });
      expect(r.systems.bm25!.overall).toEqual({ n: 1, correct: 0, accuracy: 0 });
    } finally {
      await server.close();
    }
  });
});

describe('parseVerdict', () => {
  it('reads the two words, in any case, quoted or with a period', () => {
    expect(['CORRECT', 'wrong', ' "Correct". ', '**WRONG**', '{"label": "CORRECT"}'].map(parseVerdict)).toEqual(['correct', 'wrong', 'correct', 'wrong', 'correct']);
  });

  it('refuses anything else', () => {
    expect(['CORRECT or WRONG', 'The answer is correct', 'INCORRECT', '', '{"label":"maybe"}'].map(parseVerdict)).toEqual(['unparsed', 'unparsed', 'unparsed', 'unparsed', 'unparsed']);
  });
});

describe('adversarialCorrect', () => {
  it('accepts "not mentioned" / "no information" in any case, nothing else', () => {
    expect(['Not mentioned in the conversation', 'There is NO INFORMATION about it', 'Rex', 'I do not know'].map(adversarialCorrect)).toEqual([true, true, false, false]);
  });
});

describe('npm run bench -- answers', () => {
  it('exits 2 with a clear message when JEV_MEM_LLM_BASE_URL is not set', async () => {
    vi.stubEnv('JEV_MEM_LLM_BASE_URL', '');
    const err: string[] = [];
    try {
      const code = await runBenchCommand(['answers'], {}, { out: () => undefined, err: (s) => err.push(s) });
      expect(code).toBe(2);
      expect(err.join('\n')).toContain('JEV_MEM_LLM_BASE_URL');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
