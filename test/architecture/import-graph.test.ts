/**
 * House rules of the import graph (issue 12): no import cycle anywhere in the library, the
 * benchmarks or the build scripts; the library (src/, worker/) imports only itself and the
 * shipped models/, never bench/, test/, scripts/ or demo/; the benchmarks do not reach into the
 * CLI (what both need lives in a library module).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, type ImportEdge } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const edges = importGraph(ROOT, ['src', 'worker', 'bench', 'scripts']);
const show = (es: readonly ImportEdge[]): string[] => es.map((e) => `${e.from} → ${e.to}`);

describe('cycles()', () => {
  it('finds a two-file cycle and a self-import, and nothing in a chain', () => {
    const e = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: false });
    // a → b → a is one component; c imports itself; d → e → f is a chain
    expect(cycles([e('a', 'b'), e('b', 'a'), e('c', 'c'), e('d', 'e'), e('e', 'f')])).toEqual([['a', 'b'], ['c']]);
  });

  it('finds the cycle src/cli ↔ src/bench that the restructure removed', () => {
    const e = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: false });
    const old = [e('src/cli/main.ts', 'src/bench/cli.ts'), e('src/bench/cli.ts', 'src/bench/locomo.ts'), e('src/bench/locomo.ts', 'src/cli/system-one.ts'), e('src/bench/cli.ts', 'src/cli/main.ts')];
    expect(cycles(old)).toEqual([['src/bench/cli.ts', 'src/cli/main.ts']]);
  });
});

describe('the import graph of src/, worker/, bench/ and scripts/', () => {
  it('is read from the sources (the entries import what they should)', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'src/index.ts', to: 'src/memory.ts', typeOnly: false });
    expect(edges.some((e) => e.from === 'bench/cli.ts' && e.to === 'bench/locomo/locomo.ts')).toBe(true);
  });

  it('has no cycle, counting type-only imports too', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('library files import only the library and the shipped models', () => {
    const lib = (p: string): boolean => p.startsWith('src/') || p.startsWith('worker/');
    const out = edges.filter((e) => lib(e.from) && !lib(e.to) && !e.to.startsWith('models/'));
    expect(show(out)).toEqual([]);
  });

  it('benchmarks and training do not import the CLI', () => {
    expect(show(edges.filter((e) => e.from.startsWith('bench/') && e.to.startsWith('src/cli/')))).toEqual([]);
  });
});
