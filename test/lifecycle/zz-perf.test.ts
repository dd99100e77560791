import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { it } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createMemory } from '../../src/memory.js';
import { createIdbStorage } from '../../src/plane/idb-storage.js';
it('perf', async () => {
  const encoder = await createDefaultNodeEncoder();
  for (const kind of ['memory', 'idb']) {
    const storage = kind === 'idb' ? await createIdbStorage({ indexedDB: new IDBFactory(), persist: false }) : undefined;
    const m = await createMemory({ encoder, ...(storage ? { storage } : {}) });
    const obs = Array.from({ length: 1000 }, (_, i) => ({ text: `Speaker ${i % 7}: message number ${i} about topic ${i % 13} and the weather`, observedAt: new Date(Date.UTC(2023, 0, 1, 0, i)).toISOString(), sessionId: `s${Math.floor(i / 50)}` }));
    let t = performance.now();
    await m.addMany(obs);
    const bulk = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 200; i++) await m.add({ text: `single ${i} note about gardens`, source: 'x' });
    const single = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 100; i++) await m.recall(`topic ${i} weather`);
    const rec = performance.now() - t;
    console.log(kind, 'bulk/turn ms', (bulk / 1000).toFixed(3), 'single add ms', (single / 200).toFixed(3), 'recall ms', (rec / 100).toFixed(3));
    await m.close();
  }
}, 120000);
