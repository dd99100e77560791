/**
 * The demo's settings and where they live. Everything here is saved in `localStorage` EXCEPT the
 * System-Two API key, which is never part of {@link DemoSettings}: the page keeps it in a
 * variable only (lost on reload), so it never reaches localStorage or IndexedDB.
 *
 * @module
 */

/** Which System One the page runs. */
export type SystemOneSetting =
  /** The shipped model in a Web Worker on onnxruntime-web (WebGPU or WASM). */
  | 'worker'
  /** The shipped model in a Web Worker on the TypeScript kernels (no onnxruntime). */
  | 'worker-ts'
  /** The hand-set heuristic stand-in on the page's thread. */
  | 'heuristic';

/** Which onnxruntime execution provider to ask for. */
export type AcceleratorSetting = 'auto' | 'webgpu' | 'wasm';

/** Saved settings (no secrets). */
export interface DemoSettings {
  /** Memory namespace the page reads and writes. */
  namespace: string;
  systemOne: SystemOneSetting;
  accelerator: AcceleratorSetting;
  /** Full chat-completions URL of System Two; empty = not configured. */
  systemTwoUrl: string;
  /** Model name sent to System Two. */
  systemTwoModel: string;
}

/** localStorage key of the settings. */
export const SETTINGS_KEY = 'jev-mem-demo/settings';

/** Defaults: local model in a worker, automatic accelerator, no System Two. */
export const DEFAULT_SETTINGS: Readonly<DemoSettings> = Object.freeze({
  namespace: 'demo',
  systemOne: 'worker',
  accelerator: 'auto',
  systemTwoUrl: '',
  systemTwoModel: '',
});

const SYSTEM_ONE: readonly SystemOneSetting[] = ['worker', 'worker-ts', 'heuristic'];
const ACCELERATORS: readonly AcceleratorSetting[] = ['auto', 'webgpu', 'wasm'];

/** Reads the settings, falling back to the default of each field that is missing or malformed. */
export function loadSettings(store: Pick<Storage, 'getItem'> = localStorage): DemoSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(store.getItem(SETTINGS_KEY) ?? '{}');
    if (parsed !== null && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    // A corrupt entry is replaced by the defaults on the next save.
  }
  const str = (v: unknown, d: string): string => (typeof v === 'string' ? v : d);
  return {
    namespace: str(raw.namespace, DEFAULT_SETTINGS.namespace).trim() || DEFAULT_SETTINGS.namespace,
    systemOne: SYSTEM_ONE.includes(raw.systemOne as SystemOneSetting) ? (raw.systemOne as SystemOneSetting) : DEFAULT_SETTINGS.systemOne,
    accelerator: ACCELERATORS.includes(raw.accelerator as AcceleratorSetting) ? (raw.accelerator as AcceleratorSetting) : DEFAULT_SETTINGS.accelerator,
    systemTwoUrl: str(raw.systemTwoUrl, DEFAULT_SETTINGS.systemTwoUrl).trim(),
    systemTwoModel: str(raw.systemTwoModel, DEFAULT_SETTINGS.systemTwoModel).trim(),
  };
}

/** Saves the settings (only the fields of {@link DemoSettings}: never a key). */
export function saveSettings(settings: DemoSettings, store: Pick<Storage, 'setItem'> = localStorage): void {
  const { namespace, systemOne, accelerator, systemTwoUrl, systemTwoModel } = settings;
  store.setItem(SETTINGS_KEY, JSON.stringify({ namespace, systemOne, accelerator, systemTwoUrl, systemTwoModel }));
}
