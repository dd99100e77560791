import { describe, expect, it } from 'vitest';
import { createSystemOneFromName, SYSTEM_ONE_NAMES } from '../../src/system-one/from-name.js';

describe('createSystemOneFromName', () => {
  it('builds the hand-set stand-in for "heuristic"', async () => {
    const b = await createSystemOneFromName('heuristic', { env: {} });
    expect(b.kind).toBe('heuristic');
    await b.close();
  });

  it('builds the shipped model in process for "local"', async () => {
    const b = await createSystemOneFromName('local', { env: {} });
    expect(b.kind).toBe('local');
    await b.close();
  });

  it('builds a remote backend from the environment when no base URL is given', async () => {
    const b = await createSystemOneFromName('remote', { env: { JEV_MEM_SYSTEM_ONE_URL: 'http://127.0.0.1:9/' } });
    expect(b.kind).toBe('remote');
    await b.close();
  });

  it('refuses "remote" without a URL, naming the flag and the variable', async () => {
    await expect(createSystemOneFromName('remote', { env: {} })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'base-url', message: expect.stringContaining('JEV_MEM_SYSTEM_ONE_URL') });
  });

  it('refuses an unknown name, listing the valid ones', async () => {
    await expect(createSystemOneFromName('lokal', { env: {} })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'system-one', message: expect.stringContaining(SYSTEM_ONE_NAMES.join(', ')) });
  });
});
