/**
 * The page's state: the open memory (made with the package's public `createBrowserMemory`), the
 * settings, the in-memory System-Two key, and two events the panes listen to:
 * `opened` (a memory was (re)opened: reload views), `changed` (its content changed: refresh
 * counts) and `cleared` (it was emptied). `document.body.dataset.state` is `loading`, `ready` or `error`, and
 * `document.body.dataset.generation` counts opens, so tests can wait on page state.
 *
 * @module
 */
import { isJevMemError } from 'jev-mem';
import { createBrowserMemory, type BrowserMemory, type BrowserMemoryOptions } from 'jev-mem/browser';
import { onnxWorker } from 'jev-mem/browser/onnx';
import { saveSettings, type DemoSettings } from './settings.js';

/**
 * `closing`: the memory is about to be closed for a reopen (stop long work now); `opened`: a
 * memory was (re)opened; `changed`: its content changed; `cleared`: it was emptied.
 */
export type AppEvent = 'closing' | 'opened' | 'changed' | 'cleared';

/** What the page needs from the app. */
export interface App {
  /** The open memory; throws while none is open. */
  readonly memory: BrowserMemory;
  /** The settings in use. */
  readonly settings: Readonly<DemoSettings>;
  /** True when a System-Two URL and model are configured. */
  readonly systemTwoReady: boolean;
  /** True when the page has a WebGPU adapter (`navigator.gpu.requestAdapter()`). */
  readonly webgpuAdapter: boolean;
  /** A notice about the accelerator (e.g. WebGPU asked for but no adapter). */
  readonly notice: string | undefined;
  /** True when an API key is held (in memory only). */
  readonly hasApiKey: boolean;
  /** Saves the settings, keeps `apiKey` in memory only, and reopens the memory with them. */
  apply(settings: DemoSettings, apiKey: string | undefined): Promise<void>;
  /** Opens the memory with the current settings (once, after the panes are mounted). */
  start(): Promise<void>;
  /** Tells the panes that the memory's content changed (`cleared`: it was emptied). */
  changed(how?: 'cleared'): void;
  on(event: AppEvent, listener: () => void): void;
  /** Shows an error in the page's alert area. */
  report(error: unknown, context: string): void;
  /** Hides the alert. */
  clearReport(): void;
}

async function hasWebgpuAdapter(): Promise<boolean> {
  const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (gpu === undefined) return false;
  try {
    return (await gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}

/** A user-facing message for an error, with the fix for the ones users can act on. */
export function describeError(error: unknown): string {
  if (isJevMemError(error)) {
    const hint: Partial<Record<string, string>> = {
      QUOTA_EXCEEDED: ' To make room here: export the memory, then clear it.',
      SYSTEM_TWO_NOT_CONFIGURED: ' Set a System-Two URL and model in Settings.',
      ENCODER_MISMATCH: ' The file was made with another encoder.',
    };
    return `${error.code}: ${error.message}.${hint[error.code] ?? ''}`.replace(/\.\./g, '.');
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates the app; `start()` opens the memory with `initial`.
 * @param alert - the element that shows errors (role="alert").
 */
export async function createApp(initial: DemoSettings, alert: HTMLElement): Promise<App> {
  const events = new EventTarget();
  const webgpuAdapter = await hasWebgpuAdapter();
  let settings: DemoSettings = { ...initial };
  let apiKey: string | undefined;
  let memory: BrowserMemory | undefined;
  let notice: string | undefined;
  let generation = 0;

  const optionsFor = (s: DemoSettings): BrowserMemoryOptions => {
    notice = undefined;
    const o: BrowserMemoryOptions = { namespace: s.namespace, systemOne: s.systemOne === 'heuristic' ? 'heuristic' : 'worker', systemOneFallback: true };
    if (s.systemOne === 'worker-ts') o.worker = { engine: 'ts' };
    else if (s.systemOne === 'worker' && s.accelerator === 'wasm') o.worker = { ...onnxWorker(), executionProviders: ['wasm'] };
    else if (s.systemOne === 'worker' && s.accelerator === 'webgpu') {
      if (webgpuAdapter) o.worker = { ...onnxWorker(), executionProviders: ['webgpu', 'wasm'] };
      else {
        notice = 'WebGPU was asked for, but this browser gives no WebGPU adapter: running on WASM.';
        o.worker = { ...onnxWorker(), executionProviders: ['wasm'] };
      }
    }
    else if (s.systemOne === 'worker') o.worker = onnxWorker();
    // The onnx engine loads onnxruntime-web's wasm from the files vite.config.ts serves at ort/.
    if (s.systemOne === 'worker') o.wasmPaths = 'ort/';
    if (s.systemTwoUrl !== '' && s.systemTwoModel !== '') {
      o.systemTwo = { url: s.systemTwoUrl, model: s.systemTwoModel, ...(apiKey ? { apiKey } : {}) };
    }
    return o;
  };

  const open = async (): Promise<void> => {
    document.body.dataset.state = 'loading';
    const old = memory;
    if (old !== undefined) events.dispatchEvent(new Event('closing'));
    memory = undefined;
    // close() waits for writes in flight; `closing` listeners have aborted theirs.
    await old?.close();
    try {
      memory = await createBrowserMemory(optionsFor(settings));
      if (memory.platform.systemOneError !== undefined) {
        notice = `The local System One could not start (${describeError(memory.platform.systemOneError)}); using the heuristic stand-in.`;
      }
      generation++;
      document.body.dataset.generation = String(generation);
      document.body.dataset.state = 'ready';
      events.dispatchEvent(new Event('opened'));
    } catch (e) {
      document.body.dataset.state = 'error';
      app.report(e, 'Opening the memory failed');
    }
  };

  const app: App = {
    get memory() {
      if (memory === undefined) throw new Error('the memory is not open (see the error above)');
      return memory;
    },
    get settings() {
      return settings;
    },
    get systemTwoReady() {
      return settings.systemTwoUrl !== '' && settings.systemTwoModel !== '';
    },
    webgpuAdapter,
    get notice() {
      return notice;
    },
    get hasApiKey() {
      return apiKey !== undefined && apiKey !== '';
    },
    async apply(next, key) {
      settings = { ...next };
      apiKey = key === '' ? undefined : key;
      saveSettings(settings);
      app.clearReport();
      await open();
    },
    start: open,
    changed(how) {
      if (memory === undefined) return; // a reopen is under way: `opened` will refresh everything
      if (how === 'cleared') events.dispatchEvent(new Event('cleared'));
      events.dispatchEvent(new Event('changed'));
    },
    on(event, listener) {
      events.addEventListener(event, listener);
    },
    report(error, context) {
      alert.textContent = `${context}: ${describeError(error)}`;
      alert.hidden = false;
      if (!(isJevMemError(error) && error.code === 'ABORTED')) console.warn(context, error);
    },
    clearReport() {
      alert.textContent = '';
      alert.hidden = true;
    },
  };
  return app;
}
