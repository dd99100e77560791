/**
 * {@link AssetLoader}s that need no Node API (browsers, extensions, workers). SPEC 9: model files
 * come from a URL the caller controls, never from a CDN or hub by default.
 *
 * @module
 */

import { JevMemError, invalidOption } from '../errors.js';
import type { AssetLoader } from './encoder.js';

/** The subset of `fetch` the loader uses (injectable for tests and custom transports). */
export type FetchLike = (input: URL, init?: RequestInit) => Promise<Response>;

/**
 * An {@link AssetLoader} that fetches `relativePath` resolved against `baseURL`
 * (a trailing `/` is added to `baseURL` when missing, so `https://x/models` works like
 * `https://x/models/`).
 *
 * @param baseURL - Absolute URL of the `models/` folder (e.g. `chrome.runtime.getURL('models/')`
 *   or `new URL('./models/', import.meta.url)`).
 * @param fetchFn - The fetch to use. @default globalThis.fetch
 * @returns A loader whose promise rejects with JevMemError `MODEL_LOAD_FAILED` (naming the URL)
 *   on a network error or a non-2xx status (`status` set).
 * @throws JevMemError `INVALID_OPTION` when `baseURL` is not an absolute URL or no fetch exists.
 */
export function createFetchAssetLoader(baseURL: string | URL, fetchFn?: FetchLike): AssetLoader {
  let base: URL;
  try {
    base = new URL(String(baseURL));
  } catch (cause) {
    throw invalidOption('baseURL', `${JSON.stringify(String(baseURL))} is not an absolute URL`);
  }
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const doFetch: FetchLike | undefined =
    fetchFn ?? (typeof globalThis.fetch === 'function' ? (input, init) => globalThis.fetch(input, init) : undefined);
  if (doFetch === undefined) throw invalidOption('fetchFn', 'no global fetch here; pass a fetch function');

  return async (relativePath: string): Promise<Uint8Array> => {
    const url = new URL(relativePath, base);
    let response: Response;
    try {
      response = await doFetch(url);
    } catch (cause) {
      throw new JevMemError('MODEL_LOAD_FAILED', `could not fetch model file ${relativePath} from ${url.href}: ${message(cause)}`, {
        cause,
        url: url.href,
      });
    }
    if (!response.ok) {
      throw new JevMemError(
        'MODEL_LOAD_FAILED',
        `could not fetch model file ${relativePath} from ${url.href}: HTTP ${response.status}; check the baseURL of createFetchAssetLoader`,
        { status: response.status, url: url.href },
      );
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (cause) {
      throw new JevMemError('MODEL_LOAD_FAILED', `could not read model file ${relativePath} from ${url.href}: ${message(cause)}`, {
        cause,
        url: url.href,
      });
    }
  };
}

function message(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
