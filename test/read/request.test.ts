/**
 * Requests in assistant chats (read/request.ts): which turns are a user's question to an
 * assistant (kept, ranked below the statements answering them), by hand.
 */
import { describe, expect, it } from 'vitest';
import { asksAboutQuestions, isRequest } from '../../src/read/request.js';
import type { Provenance } from '../../src/types.js';

const turn = (text: string, speaker?: string, role?: string): { text: string; provenance: Provenance } => ({
  text,
  provenance: { ...(speaker !== undefined ? { speaker } : {}), ...(role !== undefined ? { metadata: { role } } : {}) },
});

describe('isRequest', () => {
  it('a user-role turn whose every sentence is a question', () => {
    expect(isRequest(turn('What is my dog called?', 'user', 'user'))).toBe(true);
    expect(isRequest(turn('Hi! Where did I park? And when?', 'Ana', 'user'))).toBe(false); // "Hi!" states something
    expect(isRequest(turn('Where did I park? And when?', 'Ana', 'user'))).toBe(true); // a named user in an assistant chat (middleware speakers)
    expect(isRequest(turn('¿Cómo se llama mi perro?', 'user', 'user'))).toBe(true);
    expect(isRequest(turn('我的狗叫什么名字？', 'user', 'user'))).toBe(true);
  });

  it('no role: the speaker decides (a user role, as the demo chat writes it)', () => {
    expect(isRequest(turn('What is my dog called?', 'user'))).toBe(true);
    expect(isRequest(turn('What is my dog called?', 'Human'))).toBe(true);
  });

  it('never a statement, an assistant, or a question between named people (LoCoMo)', () => {
    expect(isRequest(turn('My dog is called Rex.', 'user', 'user'))).toBe(false);
    expect(isRequest(turn('My dog is called Rex. What should I feed him?', 'user', 'user'))).toBe(false);
    expect(isRequest(turn('Shall I remind you tomorrow?', 'assistant', 'assistant'))).toBe(false);
    expect(isRequest(turn('Shall I remind you tomorrow?', 'Coach', 'assistant'))).toBe(false);
    expect(isRequest(turn('Shall I remind you tomorrow?', 'bot'))).toBe(false);
    expect(isRequest(turn('Did you finish the painting you started in May?', 'Melanie'))).toBe(false);
    expect(isRequest(turn('Did you finish the painting?'))).toBe(false);
  });
});

describe('asksAboutQuestions', () => {
  it('a query about what was asked', () => {
    expect(asksAboutQuestions('What did I ask you about my dog?')).toBe(true);
    expect(asksAboutQuestions('my question about the vet')).toBe(true);
    expect(asksAboutQuestions('What is my dog called?')).toBe(false);
    expect(asksAboutQuestions('basketball tasks')).toBe(false);
  });
});
