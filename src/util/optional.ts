/**
 * Optional peer dependencies (`@huggingface/transformers`, `onnxruntime-web`, `hnswlib-wasm`):
 * imported only when a feature asks for them, through a specifier bundlers do not follow, so an
 * app that never asks builds without them installed.
 *
 * @module
 */
import { JevMemError } from '../errors.js';

/** True when `e` says the module itself could not be found (Node, browsers, bundlers). */
function isMissingModule(e: unknown, specifier: string): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return String((e as Error).message).includes(specifier.split('/')[0] as string);
  return e instanceof TypeError && /Failed to resolve module specifier|Cannot find (module|package)|Importing a module script failed|error loading dynamically imported module/i.test(e.message);
}

/**
 * Imports `specifier` (a module of the optional peer `pkg`) at run time, hidden from bundlers.
 * In a bundled browser app a bare specifier cannot load this way: import the feature's own entry
 * (e.g. `jev-mem/browser/onnx`) which references the package where the bundler sees it.
 *
 * @param feature - what needs the package, for the message (e.g. `the System-One engine 'onnx'`).
 * @throws JevMemError `DEPENDENCY_MISSING` (details `package`) when the package is not installed;
 *   `MODEL_LOAD_FAILED` when it is installed but fails to load.
 */
export async function importOptional<T>(pkg: string, specifier: string, feature: string): Promise<T> {
  try {
    return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as T;
  } catch (cause) {
    if (isMissingModule(cause, specifier)) {
      throw new JevMemError('DEPENDENCY_MISSING', `${feature} needs the optional package ${pkg}, which is not installed here: run \`npm i ${pkg}\``, { cause, package: pkg });
    }
    throw new JevMemError('MODEL_LOAD_FAILED', `${feature}: ${pkg} is installed but failed to load (${cause instanceof Error ? cause.message : String(cause)})`, { cause, package: pkg });
  }
}
