import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** Type-checks `file` with the compiler options of the project's tsconfig.json; returns its diagnostics as text. */
function typeErrors(file: string): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram([file], { ...parsed.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('typed System-One states (compile time)', () => {
  it('every @ts-expect-error in typecheck/state-keys.ts is an error: a misspelt signal key does not compile', () => {
    expect(typeErrors(join(here, 'typecheck', 'state-keys.ts'))).toEqual([]);
  });

  it('the check can fail: a misspelt key without @ts-expect-error is reported', () => {
    const file = join(here, 'typecheck', 'state-keys.ts');
    const host = ts.sys.readFile(file) as string;
    const broken = host.replace('// @ts-expect-error a misspelt candidate signal does not exist\n', '');
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const options = { ...ts.parseJsonConfigFileContent(config.config, ts.sys, root).options, noEmit: true };
    const compilerHost = ts.createCompilerHost(options);
    const read = compilerHost.readFile.bind(compilerHost);
    compilerHost.readFile = (p) => (p === file ? broken : read(p));
    const program = ts.createProgram([file], options, compilerHost);
    const codes = ts.getPreEmitDiagnostics(program).map((d) => d.code);
    expect(codes).toEqual([2551]); // Property 'vectorRnak' does not exist … Did you mean 'vectorRank'?
  });
});
