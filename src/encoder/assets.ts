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

  return async (relativePath: string): Promise<Uint8Array> => fetchModelFile(new URL(relativePath, base), relativePath, doFetch);
}

/** How to serve the model files, for error messages. */
const HOW_TO_SERVE =
  "serve the jev-mem package's dist/models/ folder there (bundlers that follow `new URL(..., import.meta.url)`, such as Vite, emit it by themselves), or pass the folder's URL as modelBaseURL";

/**
 * Fetches one model file and returns its bytes.
 *
 * @throws JevMemError `MODEL_LOAD_FAILED` naming the URL and how to serve the file: on a network
 *   error, a non-2xx status (`status` set), or an HTML page instead of the file (a 404 page or a
 *   single-page-app fallback to `index.html`).
 */
export async function fetchModelFile(url: URL, relativePath: string, doFetch: FetchLike = (input, init) => globalThis.fetch(input, init)): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await doFetch(url);
  } catch (cause) {
    throw new JevMemError('MODEL_LOAD_FAILED', `could not fetch model file ${relativePath} from ${url.href}: ${message(cause)}; ${HOW_TO_SERVE}`, {
      cause,
      url: url.href,
    });
  }
  if (!response.ok) {
    throw new JevMemError('MODEL_LOAD_FAILED', `could not fetch model file ${relativePath} from ${url.href}: HTTP ${response.status}; ${HOW_TO_SERVE}`, {
      status: response.status,
      url: url.href,
    });
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (cause) {
    throw new JevMemError('MODEL_LOAD_FAILED', `could not read model file ${relativePath} from ${url.href}: ${message(cause)}`, {
      cause,
      url: url.href,
    });
  }
  const type = response.headers?.get?.('content-type') ?? '';
  if (/text\/html/i.test(type) || looksLikeHtml(bytes)) {
    throw new JevMemError(
      'MODEL_LOAD_FAILED',
      `model file ${relativePath}: ${url.href} answered an HTML page (HTTP ${response.status}), not the file: the server has no such file and fell back to a page; ${HOW_TO_SERVE}`,
      { status: response.status, url: url.href },
    );
  }
  return bytes;
}

/** True when the bytes start (after blanks) with `<!doctype` or `<html`. */
function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart().slice(0, 9).toLowerCase();
  return head.startsWith('<!doctype') || head.startsWith('<html');
}

/**
 * An {@link AssetLoader} over a fixed map of files: `files[relativePath]` is the URL of that file
 * (e.g. the `new URL('…', import.meta.url)` URLs a bundler rewrote to its emitted assets).
 *
 * @throws (from the loader) JevMemError `MODEL_LOAD_FAILED` for a path not in the map, or as
 *   {@link fetchModelFile}.
 */
export function createFileMapAssetLoader(files: Readonly<Record<string, string | URL>>, fetchFn?: FetchLike): AssetLoader {
  return async (relativePath: string): Promise<Uint8Array> => {
    const url = files[relativePath];
    if (url === undefined) throw new JevMemError('MODEL_LOAD_FAILED', `model file ${relativePath} is not among the bundled files (${Object.keys(files).join(', ')})`, { path: relativePath });
    return fetchModelFile(new URL(String(url)), relativePath, fetchFn);
  };
}

function message(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
