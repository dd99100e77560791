/** The demo's saved settings (demo/src/settings.ts): defaults, repair, and no key ever saved. */
import { expect, test } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_KEY, loadSettings, saveSettings, type DemoSettings } from '../../demo/src/settings.js';

function store(initial: Record<string, string> = {}): Storage {
  const m = new Map(Object.entries(initial));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } as unknown as Storage;
}

test('an empty store gives the defaults: worker, automatic accelerator, no System Two', () => {
  expect(loadSettings(store())).toEqual({ namespace: 'demo', systemOne: 'worker', accelerator: 'auto', systemTwoUrl: '', systemTwoModel: '' });
  expect(loadSettings(store())).toEqual(DEFAULT_SETTINGS);
});

test('saving writes the five settings and nothing else, even when handed an object with a key', () => {
  const s = store();
  const withKey = { ...DEFAULT_SETTINGS, systemTwoUrl: 'http://127.0.0.1:8080/v1/chat/completions', systemTwoModel: 'm', apiKey: 'sk-secret' } as DemoSettings;
  saveSettings(withKey, s);
  const saved = JSON.parse(s.getItem(SETTINGS_KEY) as string) as Record<string, unknown>;
  expect(Object.keys(saved).sort()).toEqual(['accelerator', 'namespace', 'systemOne', 'systemTwoModel', 'systemTwoUrl']);
  expect(JSON.stringify(saved)).not.toContain('sk-secret');
  expect(loadSettings(s)).toEqual({ ...DEFAULT_SETTINGS, systemTwoUrl: 'http://127.0.0.1:8080/v1/chat/completions', systemTwoModel: 'm' });
});

test('malformed fields fall back to their defaults one by one; corrupt JSON to all defaults', () => {
  const s = store({ [SETTINGS_KEY]: JSON.stringify({ namespace: '  ', systemOne: 'gpu-magic', accelerator: 'wasm', systemTwoUrl: 42, systemTwoModel: ' llama ' }) });
  expect(loadSettings(s)).toEqual({ namespace: 'demo', systemOne: 'worker', accelerator: 'wasm', systemTwoUrl: '', systemTwoModel: 'llama' });
  expect(loadSettings(store({ [SETTINGS_KEY]: '{not json' }))).toEqual(DEFAULT_SETTINGS);
});
