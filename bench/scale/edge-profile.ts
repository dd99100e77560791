/**
 * Profiles a bulk import in the edge Worker's Durable Object (issue 25): the scale recipe's first
 * N observations written over HTTP in requests of {@link EDGE_WRITE_BATCH} (each one `addMany` in
 * the Durable Object, SQL storage), in workerd through Miniflare, with a V8 CPU profile of the
 * Worker's isolate taken through workerd's inspector (Miniflare's `inspectorPort`, Chrome DevTools
 * protocol `Profiler.start` / `Profiler.stop` over a WebSocket). The bundle is built from
 * examples/edge/wrangler.toml, or from the file given in `JEV_MEM_EDGE_CONFIG` (for example a
 * copy with `minify = false`, so the profile names functions).
 *
 * `node --experimental-websocket --import tsx bench/scale/edge-profile.ts [N=2000] [out=bench-out/edge.cpuprofile]`
 * (the global WebSocket client: Node 22 has it without the flag)
 *
 * then summarise it with `node --import tsx bench/scale/profile-summary.ts <out>`. Prints one line:
 * observations, seconds, observations/s (client side, HTTP included; the warm-up request that
 * loads the models is not timed).
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';
import { buildEdgeBundle, call, COMPATIBILITY_DATE, EXAMPLE_CONFIG } from '../../test/edge/harness.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { EDGE_WRITE_BATCH } from './edge.js';
import { scaleObservations } from './scale.js';

const n = Number(process.argv[2] ?? 2000);
const out = resolve(process.argv[3] ?? 'bench-out/edge.cpuprofile');
const TOKEN = 'bench-edge-profile';

/** A free TCP port on 127.0.0.1 (for the inspector). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  await new Promise((ok) => server.close(ok));
  return port;
}

/** A Chrome DevTools protocol session over one inspector WebSocket (the global WebSocket client). */
async function cdpSession(url: string): Promise<{ send(method: string, params?: object): Promise<any>; close(): void }> {
  if (typeof WebSocket !== 'function') throw new Error('no global WebSocket: run Node 22, or Node 20 with --experimental-websocket');
  const ws = new WebSocket(url);
  await new Promise((ok, fail) => {
    ws.addEventListener('open', ok, { once: true });
    ws.addEventListener('error', () => fail(new Error(`cannot connect to the inspector at ${url}`)), { once: true });
  });
  let next = 0;
  const waiting = new Map<number, { ok(v: unknown): void; fail(e: Error): void }>();
  ws.addEventListener('message', (event) => {
    const m = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const w = m.id === undefined ? undefined : waiting.get(m.id);
    if (w === undefined) return;
    waiting.delete(m.id as number);
    if (m.error) w.fail(new Error(m.error.message));
    else w.ok(m.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((ok, fail) => {
        const id = ++next;
        waiting.set(id, { ok, fail });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

const data = await loadLocomo(defaultLocomoPath());
const observations = scaleObservations(data.conversations, n);
const bundle = buildEdgeBundle(process.env.JEV_MEM_EDGE_CONFIG ?? EXAMPLE_CONFIG);
const persistDir = await mkdtemp(join(tmpdir(), 'jev-mem-edge-profile-'));
const inspectorPort = await freePort();
const mf = new Miniflare({
  modulesRoot: bundle.dir,
  modules: bundle.modules.map((m) => ({ type: m.type, path: m.path })),
  compatibilityDate: COMPATIBILITY_DATE,
  durableObjects: { JEV_MEM: { className: 'JevMemObject', useSQLite: true } },
  bindings: { JEV_MEM_TOKEN: TOKEN },
  durableObjectsPersist: persistDir,
  host: '127.0.0.1',
  port: 0,
  cf: false,
  inspectorPort,
});
try {
  const edge = { url: await mf.ready, mf, dispose: () => mf.dispose() };
  const must = async (path: string, body: unknown): Promise<void> => {
    const r = await call(edge, 'POST', path, { token: TOKEN, body });
    if (r.status >= 300) throw new Error(`workerd answered ${r.status} to POST ${path}: ${r.text.slice(0, 300)}`);
  };
  // loads the models (shared by the isolate) before the profile
  await must('/v1/namespaces/warm-up/memories', { observations: [observations[0]] });
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as Array<{ title: string; webSocketDebuggerUrl: string }>;
  // Miniflare's user Worker is the target "workerd: worker core:user:<name>"
  const target = targets.find((t) => t.title.includes('core:user:'));
  if (target === undefined) throw new Error(`no user Worker among the inspector's targets: ${targets.map((t) => t.title).join(', ')}`);
  const cdp = await cdpSession(target.webSocketDebuggerUrl);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  const t = performance.now();
  for (let i = 0; i < n; i += EDGE_WRITE_BATCH) await must('/v1/namespaces/profile/memories', { observations: observations.slice(i, i + EDGE_WRITE_BATCH) });
  const s = (performance.now() - t) / 1000;
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
  cdp.close();
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify(profile));
  console.log(`edge-profile: ${n} observations in ${s.toFixed(1)} s = ${(n / s).toFixed(0)}/s (requests of ${EDGE_WRITE_BATCH}); profile ${out}`);
} finally {
  await mf.dispose().catch(() => undefined);
  bundle.remove();
  await rm(persistDir, { recursive: true, force: true });
}
