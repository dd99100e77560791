/**
 * The settings pane: System Two (URL, model, key: the key lives in a variable only, see
 * settings.ts), System-One backend and accelerator, namespace; and what is in use now: System
 * One's model and kind, the accelerator (WebGPU or WASM), whether a WebGPU adapter exists, and
 * whether storage is persistent.
 *
 * @module
 */
import type { App } from './app.js';
import { h, pane } from './dom.js';
import type { AcceleratorSetting, DemoSettings, SystemOneSetting } from './settings.js';

const SYSTEM_ONE_LABELS: Record<SystemOneSetting, string> = {
  worker: 'Local model in a Web Worker (onnxruntime-web)',
  'worker-ts': 'Local model in a Web Worker (TypeScript kernels)',
  heuristic: 'Heuristic stand-in (no model)',
};
const ACCELERATOR_LABELS: Record<AcceleratorSetting, string> = { auto: 'Automatic (WebGPU when available)', webgpu: 'WebGPU', wasm: 'WASM' };

/** Mounts the settings pane into `root`. */
export function mountSettings(root: HTMLElement, app: App): void {
  const url = h('input', { type: 'url', 'data-testid': 'settings-s2-url', placeholder: 'http://127.0.0.1:8080/v1/chat/completions', autocomplete: 'off' });
  const model = h('input', { type: 'text', 'data-testid': 'settings-s2-model', placeholder: 'model name', autocomplete: 'off' });
  const key = h('input', { type: 'password', 'data-testid': 'settings-s2-key', placeholder: 'optional; kept in memory only', autocomplete: 'off' });
  const systemOne = h(
    'select',
    { 'data-testid': 'settings-s1' },
    ...(Object.keys(SYSTEM_ONE_LABELS) as SystemOneSetting[]).map((k) => h('option', { value: k }, SYSTEM_ONE_LABELS[k])),
  );
  const accelerator = h(
    'select',
    { 'data-testid': 'settings-accelerator' },
    ...(Object.keys(ACCELERATOR_LABELS) as AcceleratorSetting[]).map((k) => h('option', { value: k }, ACCELERATOR_LABELS[k])),
  );
  const namespace = h('input', { type: 'text', 'data-testid': 'settings-namespace', autocomplete: 'off', pattern: '[^\\s]+' });
  const apply = h('button', { type: 'submit', 'data-testid': 'settings-apply' }, 'Apply');
  const inUse = h('dl', { class: 'facts', 'data-testid': 'settings-in-use' });
  const note = h('p', { class: 'hint', 'data-testid': 'settings-notice', hidden: true });
  const field = (label: string, control: HTMLElement, help?: string): HTMLElement =>
    h('label', { class: 'field' }, h('span', {}, label), control, help ? h('small', {}, help) : null);
  const form = h(
    'form',
    { class: 'settings' },
    h(
      'fieldset',
      {},
      h('legend', {}, 'System Two (answers)'),
      field('Chat-completions URL', url, 'Any OpenAI-compatible endpoint. Empty: nothing leaves this page.'),
      field('Model', model),
      field('API key', key, 'Held in this tab’s memory only: never written to localStorage or IndexedDB; gone after a reload. Prefer a proxy of your own.'),
    ),
    h('fieldset', {}, h('legend', {}, 'System One (memory control)'), field('Backend', systemOne), field('Accelerator', accelerator)),
    field('Namespace', namespace, 'Each namespace is a separate memory.'),
    h('div', { class: 'row' }, apply),
  );
  root.append(pane('settings', 'Settings', form, note, h('h3', {}, 'In use'), inUse));

  const fill = (): void => {
    const st = app.settings;
    url.value = st.systemTwoUrl;
    model.value = st.systemTwoModel;
    systemOne.value = st.systemOne;
    accelerator.value = st.accelerator;
    accelerator.disabled = st.systemOne !== 'worker';
    namespace.value = st.namespace;
  };
  const describe = (): void => {
    const m = app.memory;
    const p = m.platform;
    const acc = p.systemOne.accelerator === 'webgpu' ? 'WebGPU' : p.systemOne.accelerator === 'wasm' ? 'WASM' : 'JavaScript (no accelerator)';
    const pairs: Array<[string, string, string]> = [
      ['System One', `${p.systemOne.modelId} (${p.systemOne.kind}${p.systemOne.engine ? `, ${p.systemOne.engine} engine` : ''})`, 'in-use-s1'],
      ['Accelerator', acc, 'in-use-accelerator'],
      ['WebGPU adapter', app.webgpuAdapter ? 'available' : 'none in this browser', 'in-use-webgpu'],
      ['System Two', app.systemTwoReady ? `${app.settings.systemTwoModel} at ${app.settings.systemTwoUrl}${app.hasApiKey ? ' (with a key held in memory)' : ''}` : 'not configured', 'in-use-s2'],
      ['Persistent storage', p.persisted === true ? 'granted' : p.persisted === false ? 'not granted (the browser may evict data under pressure)' : 'not available', 'in-use-persisted'],
      ['Encoder', m.encoder.fingerprint, 'in-use-encoder'],
    ];
    inUse.replaceChildren(...pairs.flatMap(([k, v, id]) => [h('dt', {}, k), h('dd', { 'data-testid': id }, v)]));
    inUse.dataset.accelerator = p.systemOne.accelerator;
    note.textContent = app.notice ?? '';
    note.hidden = app.notice === undefined;
  };

  systemOne.addEventListener('change', () => {
    accelerator.disabled = systemOne.value !== 'worker';
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const next: DemoSettings = {
      namespace: namespace.value.trim() || 'demo',
      systemOne: systemOne.value as SystemOneSetting,
      accelerator: accelerator.value as AcceleratorSetting,
      systemTwoUrl: url.value.trim(),
      systemTwoModel: model.value.trim(),
    };
    if ((next.systemTwoUrl === '') !== (next.systemTwoModel === '')) {
      app.report(new Error('give both a URL and a model, or neither'), 'System Two');
      return;
    }
    if (next.systemTwoUrl !== '') {
      try {
        new URL(next.systemTwoUrl);
      } catch {
        app.report(new Error(`${JSON.stringify(next.systemTwoUrl)} is not an absolute URL`), 'System Two');
        return;
      }
    }
    apply.disabled = true;
    app.apply(next, key.value).finally(() => {
      apply.disabled = false;
    });
  });

  fill();
  app.on('opened', () => {
    fill();
    describe();
  });
}
