// Run by missing-peers.test.ts with hide-peers.mjs: each integration without its optional peer.
import { main } from '../../src/cli/main.js';
import { createMemoryTools } from '../../src/integrations/ai-sdk.js';
import { createJevMemStore } from '../../src/integrations/langgraph.js';

const store = process.argv[2] as string;
const err: string[] = [];
const result: Record<string, unknown> = {};
result.cli = await main(['mcp', '--store', store, '--system-one', 'heuristic'], { out: () => undefined, err: (s) => err.push(s) });
result.cliErr = err;
for (const [name, make] of [['ai', () => createMemoryTools({} as never)], ['langgraph', () => createJevMemStore({} as never)]] as const) {
  try {
    await make();
    result[name] = 'loaded';
  } catch (e) {
    result[name] = { code: (e as { code?: string }).code, message: (e as Error).message, package: (e as { details?: { package?: string } }).details?.package };
  }
}
console.log(JSON.stringify(result));
