/**
 * System-Two options from environment variables, for Node programs (the CLI, the answer
 * benchmark): `JEV_MEM_LLM_BASE_URL` (an OpenAI-compatible base URL such as
 * `http://127.0.0.1:8080/v1`; the System-Two client appends `/chat/completions`, and a full URL ending in it is used as given), `JEV_MEM_LLM_MODEL` (the model
 * name, required with a base URL) and `JEV_MEM_LLM_API_KEY` (sent as a bearer token when set).
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { chatCompletionsUrl } from './client.js';
import type { SystemTwoOptions } from './types.js';

/**
 * Options for `createSystemTwo` from the environment, or `undefined` when
 * `JEV_MEM_LLM_BASE_URL` is unset or empty (no System Two configured).
 * @param env Usually `process.env`.
 * @throws JevMemError `INVALID_OPTION` (field `JEV_MEM_LLM_MODEL`) when a base URL is set without a model, (field `JEV_MEM_LLM_BASE_URL`) when it is not an absolute http(s) URL.
 */
export function systemTwoFromEnv(env: Readonly<Record<string, string | undefined>>): SystemTwoOptions | undefined {
  const base = env.JEV_MEM_LLM_BASE_URL;
  if (!base) return undefined;
  const model = env.JEV_MEM_LLM_MODEL;
  if (!model) throw new JevMemError('INVALID_OPTION', 'JEV_MEM_LLM_MODEL must name the model when JEV_MEM_LLM_BASE_URL is set', { field: 'JEV_MEM_LLM_MODEL' });
  let url: string;
  try {
    url = chatCompletionsUrl(base);
  } catch (e) {
    throw new JevMemError('INVALID_OPTION', `JEV_MEM_LLM_BASE_URL: ${e instanceof Error ? e.message : String(e)}`, { field: 'JEV_MEM_LLM_BASE_URL', cause: e });
  }
  const o: SystemTwoOptions = { url, model };
  if (env.JEV_MEM_LLM_API_KEY) o.apiKey = env.JEV_MEM_LLM_API_KEY;
  return o;
}
