/**
 * The demo page's entry: mounts the panes, then opens the memory with the saved settings.
 * Layout: header with what is running; left column chat, import, memory, settings; right column
 * ask, trace, graph (one column on narrow screens).
 *
 * @module
 */
import { createApp } from './app.js';
import { mountAsk } from './ask-pane.js';
import { mountChat } from './chat-pane.js';
import { mountData } from './data-pane.js';
import { byTestId } from './dom.js';
import { mountImport } from './import-pane.js';
import { mountSettings } from './settings-pane.js';
import { loadSettings } from './settings.js';

async function main(): Promise<void> {
  const alert = byTestId(document, 'alert');
  const status = byTestId(document, 'header-status');
  const left = byTestId(document, 'column-left');
  const right = byTestId(document, 'column-right');
  const app = await createApp(loadSettings(), alert);
  const dismiss = byTestId(document, 'alert-dismiss');
  dismiss.addEventListener('click', () => app.clearReport());

  mountChat(left, app);
  mountImport(left, app);
  const ask = document.createElement('div');
  const trace = document.createElement('div');
  const graph = document.createElement('div');
  right.append(ask, graph, trace);
  mountAsk(ask, trace, graph, app);
  mountData(left, app);
  mountSettings(left, app);

  const describe = (): void => {
    const p = app.memory.platform.systemOne;
    const acc = p.accelerator === 'webgpu' ? 'WebGPU' : p.accelerator === 'wasm' ? 'WASM' : 'JS';
    status.textContent = `System One: ${p.kind === 'local-worker' ? 'local model in a worker' : p.kind} · ${acc} · System Two: ${app.systemTwoReady ? app.settings.systemTwoModel : 'off'} · namespace “${app.settings.namespace}”`;
  };
  app.on('opened', describe);
  await app.start();
}

main().catch((e: unknown) => {
  document.body.dataset.state = 'error';
  const alert = document.querySelector<HTMLElement>('[data-testid="alert"]');
  if (alert) {
    alert.textContent = `The page could not start: ${e instanceof Error ? e.message : String(e)}`;
    alert.hidden = false;
  }
});
