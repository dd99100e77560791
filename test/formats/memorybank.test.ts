/**
 * The MemoryBank reader (src/formats/memorybank.ts) on a hand-made history, on the real file when
 * ../shared/data holds it, and through the CLI's ingest.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isJevMemError } from '../../src/errors.js';
import { isMemoryBankHistory, parseMemoryBank, parseMemoryBankProbes } from '../../src/formats/memorybank.js';

const HISTORY = {
  ' Ann ': {
    name: 'Ann',
    personality: 'shy',
    history: {
      '2023-04-27': [
        { query: 'I adopted a cat called Miso.', response: 'Congratulations! How old is Miso?' },
        { query: 'Two years old.', response: '' },
      ],
      '2023-04-28': [{ query: 'Miso broke my favourite vase.', response: 'Oh no, was it valuable?' }],
    },
  },
  Bo: { history: { '2023-05-01': [{ query: 'I sold my boat.', response: 'Why did you sell it?' }] } },
};

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return isJevMemError(e) ? `${e.code} ${e.field}` : String(e);
  }
  return undefined;
};

describe('parseMemoryBank', () => {
  it('makes two observations per exchange, dated at the day, with day#n provenance, skipping empty replies', () => {
    const [ann, bo] = parseMemoryBank(JSON.stringify(HISTORY));
    expect(ann?.id).toBe('Ann');
    expect(ann?.days).toEqual(['2023-04-27', '2023-04-28']);
    expect(ann?.observations.map((o) => [o.turnId, o.text])).toEqual([
      ['2023-04-27#1:user', 'Ann: I adopted a cat called Miso.'],
      ['2023-04-27#1:ai', 'AI: Congratulations! How old is Miso?'],
      ['2023-04-27#2:user', 'Ann: Two years old.'],
      ['2023-04-28#1:user', 'Ann: Miso broke my favourite vase.'],
      ['2023-04-28#1:ai', 'AI: Oh no, was it valuable?'],
    ]);
    expect(ann?.observations[3]).toMatchObject({ speaker: 'Ann', observedAt: '2023-04-28T00:00:00.000Z', sessionId: '2023-04-28', source: 'memorybank:Ann' });
    expect(bo?.name).toBe('Bo'); // no name field: the key
    expect(bo?.observations).toHaveLength(2);
  });

  it('refuses what is not a MemoryBank history, naming the field', () => {
    expect(codeOf(() => parseMemoryBank('[1, 2]'))).toBe('INVALID_INPUT file');
    expect(codeOf(() => parseMemoryBank('{"A": {"history": 3}}'))).toBe('INVALID_INPUT file.A.history');
    expect(codeOf(() => parseMemoryBank('{"A": {"history": {"27 April": []}}}'))).toBe('INVALID_INPUT file.A.history.27 April');
    expect(codeOf(() => parseMemoryBank('{"A": {"history": {"2023-04-27": [{"query": 5}]}}}'))).toBe('INVALID_INPUT file.A.history.2023-04-27[0].query');
    expect(codeOf(() => parseMemoryBank('{"A": {"history": {"2023-02-30": []}}}'))).toBe('INVALID_INPUT file.A.history.2023-02-30');
    expect(codeOf(() => parseMemoryBank('{" A ": {"history": {}}, "A": {"history": {}}}'))).toBe('INVALID_INPUT file.A');
  });

  it('tells a MemoryBank history from a LoCoMo file', () => {
    expect(isMemoryBankHistory(HISTORY)).toBe(true);
    expect(isMemoryBankHistory([{ sample_id: 'conv-1', conversation: {} }])).toBe(false);
    expect(isMemoryBankHistory({})).toBe(false);
  });
});

describe('parseMemoryBankProbes', () => {
  it('reads {user: [questions]} lines into user/question pairs, trimming the user', () => {
    expect(parseMemoryBankProbes('{" Ann ": ["What is my cat called?", "What broke?"]}\n\n{"Bo": ["What did I sell?"]}\n')).toEqual([
      { user: 'Ann', question: 'What is my cat called?' },
      { user: 'Ann', question: 'What broke?' },
      { user: 'Bo', question: 'What did I sell?' },
    ]);
    expect(codeOf(() => parseMemoryBankProbes('{"Ann": "one"}'))).toBe('INVALID_INPUT line 1.Ann');
  });
});

const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
describe.skipIf(!existsSync(join(DATA, 'memorybank_en_history.json')))('the MemoryBank file in ../shared/data', () => {
  it('reads all 15 users (keys trimmed) and every probing question names one of them', () => {
    const users = parseMemoryBank(readFileSync(join(DATA, 'memorybank_en_history.json'), 'utf8'));
    expect(users).toHaveLength(15);
    expect(users.map((u) => u.id)).toContain('Jason'); // the file's key is " Jason "
    expect(users.every((u) => u.days.length === 10)).toBe(true);
    const probes = parseMemoryBankProbes(readFileSync(join(DATA, 'memorybank_en_probing_questions.jsonl'), 'utf8'));
    expect(probes).toHaveLength(100);
    const ids = new Set(users.map((u) => u.id));
    expect(probes.every((p) => ids.has(p.user))).toBe(true);
  });
});

describe('jev-mem ingest of a MemoryBank file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-mb-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out, err };
  };

  it('detects the format from a .json file, needs --sample with several users, and ingests the one named', async () => {
    const file = join(dir, 'history.json');
    writeFileSync(file, JSON.stringify(HISTORY));
    const store = join(dir, 'store');
    const refused = await run(['ingest', file, '--store', store, '--system-one', 'heuristic']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/INVALID_OPTION: .*holds 2 users; choose one with --sample <user> \(Ann, Bo\)/);
    const r = await run(['ingest', file, '--sample', 'Ann', '--store', store, '--system-one', 'heuristic']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toMatchObject({ namespace: 'Ann', ingested: 5, nodes: 5 });
    const recall = await run(['recall', 'What happened to my favourite vase?', '--store', store, '--namespace', 'Ann', '--k', '1', '--json', '--system-one', 'heuristic']);
    expect(JSON.parse(recall.out[0] as string).memories[0].provenance.turnId).toBe('2023-04-28#1:user');
  });
});
