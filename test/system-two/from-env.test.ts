import { describe, expect, it } from 'vitest';
import { systemTwoFromEnv } from '../../src/system-two/from-env.js';

describe('systemTwoFromEnv', () => {
  it('is undefined when no base URL is set (no System Two configured)', () => {
    expect(systemTwoFromEnv({})).toBeUndefined();
    expect(systemTwoFromEnv({ JEV_MEM_LLM_BASE_URL: '', JEV_MEM_LLM_MODEL: 'm' })).toBeUndefined();
  });

  it('appends /chat/completions to the base URL (trailing slashes dropped) and takes the model', () => {
    expect(systemTwoFromEnv({ JEV_MEM_LLM_BASE_URL: 'http://127.0.0.1:8080/v1//', JEV_MEM_LLM_MODEL: 'llama' })).toEqual({ url: 'http://127.0.0.1:8080/v1/chat/completions', model: 'llama' });
  });

  it('adds the API key only when one is set', () => {
    expect(systemTwoFromEnv({ JEV_MEM_LLM_BASE_URL: 'https://x.test/v1', JEV_MEM_LLM_MODEL: 'm', JEV_MEM_LLM_API_KEY: 'k' })).toEqual({ url: 'https://x.test/v1/chat/completions', model: 'm', apiKey: 'k' });
  });

  it('refuses a base URL without a model, naming the variable', () => {
    expect(() => systemTwoFromEnv({ JEV_MEM_LLM_BASE_URL: 'https://x.test/v1' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'JEV_MEM_LLM_MODEL' }));
  });
});
