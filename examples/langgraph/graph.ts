/**
 * jev-mem as a LangGraph.js long-term memory store: a graph whose first node stores what the
 * user said under the user's namespace, and whose second node searches it with a question.
 *
 * Run: `npx tsx examples/langgraph/graph.ts`. In an app, import from the package:
 * `import { createJevMemStore } from 'jev-mem/langgraph'`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotation, END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { createJevMemStore } from '../../src/integrations/langgraph.js';
import { createNodeMemory } from '../../src/node.js';

const State = Annotation.Root({
  user: Annotation<string>,
  facts: Annotation<Array<{ key: string; text: string; topic: string }>>,
  question: Annotation<string>,
  /** Texts of the items the search found, best first. */
  found: Annotation<string[]>,
  /** The item under key "pet", read back with get. */
  pet: Annotation<string | null>,
});

/** Runs the graph over a memory in `store`; returns the final state and the store's namespaces. */
export async function runGraphExample(store = mkdtempSync(join(tmpdir(), 'jev-mem-langgraph-'))): Promise<{ state: typeof State.State; namespaces: string[][] }> {
  const memory = await createNodeMemory({ store, systemOne: 'heuristic', create: true });
  try {
    const memoryStore = await createJevMemStore(memory);
    const graph = new StateGraph(State)
      .addNode('remember', async (state, config: LangGraphRunnableConfig) => {
        for (const f of state.facts) await config.store?.put(['users', state.user, 'facts'], f.key, { text: f.text, topic: f.topic });
        return {};
      })
      .addNode('lookup', async (state, config: LangGraphRunnableConfig) => {
        const items = (await config.store?.search(['users', state.user], { query: state.question, limit: 2 })) ?? [];
        const pet = await config.store?.get(['users', state.user, 'facts'], 'pet');
        return { found: items.map((i) => String(i.value.text)), pet: pet === null || pet === undefined ? null : String(pet.value.text) };
      })
      .addEdge(START, 'remember')
      .addEdge('remember', 'lookup')
      .addEdge('lookup', END)
      .compile({ store: memoryStore });
    const state = await graph.invoke({
      user: 'alice',
      question: 'What kind of dog do I have?',
      facts: [
        { key: 'pet', text: 'My dog Biscuit is a three-year-old beagle.', topic: 'pets' },
        { key: 'job', text: 'I work night shifts as a nurse in Leeds.', topic: 'work' },
        { key: 'family', text: 'My sister Priya is getting married in Lisbon in June.', topic: 'family' },
      ],
    });
    return { state, namespaces: await memoryStore.listNamespaces() };
  } finally {
    await memory.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const store = mkdtempSync(join(tmpdir(), 'jev-mem-langgraph-'));
  const { state, namespaces } = await runGraphExample(store);
  console.log('found:', state.found, '\npet:', state.pet, '\nnamespaces:', namespaces);
  rmSync(store, { recursive: true, force: true });
}
