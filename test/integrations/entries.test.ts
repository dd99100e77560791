/**
 * The integration entries load their optional peers lazily: bundling `jev-mem/ai-sdk`,
 * `jev-mem/langgraph`, `jev-mem/mcp`, the CLI and `jev-mem/edge` pulls in none of
 * `ai`, `@langchain/*`, `@modelcontextprotocol/sdk` (nor zod, which they bring).
 */
import { build } from 'esbuild';
import { expect, it } from 'vitest';

async function bundledPackages(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', logLevel: 'silent', outdir: 'unused', packages: 'bundle', loader: { '.i8': 'file', '.f32': 'file', '.onnx': 'file', '.txt': 'file' } });
  const names = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) names.add(m[1] as string);
  }
  return [...names].sort();
}

it('bundles no optional peer of the integrations into any entry', async () => {
  const peers = /^(ai|@ai-sdk\/.*|@langchain\/.*|@modelcontextprotocol\/sdk|zod)$/;
  for (const entry of ['src/integrations/ai-sdk.ts', 'src/integrations/langgraph.ts', 'src/integrations/mcp/index.ts', 'src/cli/main.ts', 'src/edge/index.ts']) {
    expect((await bundledPackages(entry)).filter((p) => peers.test(p)), entry).toEqual([]);
  }
}, 60_000);
