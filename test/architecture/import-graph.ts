/**
 * The repository's import graph, read with TypeScript's own parser and module resolution (the
 * options of the root tsconfig.json, NodeNext): every static import and re-export, every
 * `import('…')` with a literal specifier and every `import('…')` type, from each `.ts` file of the
 * given folders to the repository file it resolves to. Packages (node_modules) are not nodes.
 *
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import edge. Paths are relative to the root, with `/` separators. */
export interface ImportEdge {
  from: string;
  to: string;
  /** Only types cross it (`import type`, `export type`, `import('…')` in a type): erased at run time. */
  typeOnly: boolean;
}

function tsFiles(dir: string, skip: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (skip.some((s) => p.endsWith(`${sep}${s}`))) continue;
    if (statSync(p).isDirectory()) out.push(...tsFiles(p, skip));
    else if (/\.(m?ts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function specifiers(file: string, text: string): Array<{ spec: string; typeOnly: boolean }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: Array<{ spec: string; typeOnly: boolean }> = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const allTypes = c !== undefined && (c.isTypeOnly || (c.name === undefined && c.namedBindings !== undefined && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      found.push({ spec: n.moduleSpecifier.text, typeOnly: allTypes });
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      found.push({ spec: n.moduleSpecifier.text, typeOnly: n.isTypeOnly });
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) {
      found.push({ spec: n.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      found.push({ spec: n.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/**
 * Edges out of every `.ts` file under `dirs` (relative to `root`) to files of the repository.
 * @param skip Folder or file names not to enter (e.g. `dist`, `node_modules`).
 * @throws Error when a relative specifier does not resolve (a broken import).
 */
export function importGraph(root: string, dirs: readonly string[], skip: readonly string[] = ['node_modules', 'dist']): ImportEdge[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!config) throw new Error('cannot read tsconfig.json');
  const options = config.options;
  const host = ts.createCompilerHost(options);
  const edges: ImportEdge[] = [];
  const rel = (p: string): string => relative(root, p).split(sep).join('/');
  for (const dir of dirs) {
    for (const file of tsFiles(join(root, dir), skip)) {
      for (const { spec, typeOnly } of specifiers(file, ts.sys.readFile(file) ?? '')) {
        const r = ts.resolveModuleName(spec, file, options, host).resolvedModule;
        if (r === undefined) {
          if (!spec.startsWith('.')) continue;
          // an asset imported by path (`.wasm`, `.f32`, …): an edge to the file, when it exists
          const asset = join(dirname(file), spec);
          if (!existsSync(asset)) throw new Error(`${rel(file)}: cannot resolve ${spec}`);
          edges.push({ from: rel(file), to: rel(asset), typeOnly });
          continue;
        }
        if (r.isExternalLibraryImport || r.resolvedFileName.includes(`${sep}node_modules${sep}`)) continue;
        edges.push({ from: rel(file), to: rel(r.resolvedFileName), typeOnly });
      }
    }
  }
  return edges;
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
export function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    if (!next.has(e.to)) next.set(e.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let i = 0;
  const strong = (v: string): void => {
    index.set(v, i);
    low.set(v, i);
    i++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) strong(v);
  return out;
}
