import { it } from 'vitest';
import { Log, LogLevel } from 'miniflare';
import { locomoConversation } from '../../src/formats/locomo.js';
import { buildEdgeBundle, call, startEdge } from './harness.js';
import { locomoConv26 } from './locomo-sample.js';
it('dbg', async () => {
  const b = buildEdgeBundle(); const e = await startEdge(b, { bindings: { JEV_MEM_TOKEN: 't' } });
  await e.mf.setOptions({ ...(e.mf as any).__opts }).catch(() => {});
  const conv = locomoConversation(locomoConv26()!);
  const { createLocalSystemOne } = await import('../../src/system-one/local.js');
  const { createNodeAssetLoader } = await import('../../src/encoder/assets-node.js');
  const { createNodeMemory } = await import('../../src/node.js');
  const s1 = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: (process.env.ENG as any) ?? 'onnx' });
  const node = await createNodeMemory({ systemOne: s1 });
  if (process.env.ADD) await node.addMany(conv.observations);
  let r = await call(e, 'POST', '/v1/namespaces/locomo-conv-26/memories', { token: 't', body: { observations: conv.observations } });
  console.log('write', r.status, r.text.length);
  for (let i = 0; i < 3; i++) {
    try { r = await call(e, 'GET', '/v1/namespaces/locomo-conv-26/export', { token: 't' }); console.log('export', r.status, r.text.length); } catch (err) { console.log('export failed', String(err), (err as any).cause); }
  }
  await e.dispose(); b.remove();
}, 120000);
