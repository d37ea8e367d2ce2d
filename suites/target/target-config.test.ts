import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../spec/index.ts';
import { readConfigFile, resolveTargetConfig } from '../index.ts';

describe('resolveTargetConfig', () => {
  it('lets flags win over the config file and the file over the environment', () => {
    const config = resolveTargetConfig(
      { target: 'http://127.0.0.1:1/v3/', cardId: 'flag-card' },
      { cardId: 'file-card', clientId: 'file-id', accountId: 'acct' },
      { PACU_CLIENT_ID: 'env-id', PACU_CLIENT_SECRET: 'env-secret' },
    );
    expect(config).toEqual({
      baseUrl: 'http://127.0.0.1:1/v3',
      clientId: 'file-id',
      clientSecret: 'env-secret',
      scopes: ['card', 'us_account'],
      ids: { cardId: 'flag-card', accountId: 'acct' },
    });
  });

  it.each([
    [{}, /no target/],
    [{ target: 'not a url' }, /is not a URL/],
    [{ target: 'ftp://x/v3' }, /http or https/],
    [{ target: 'http://x/v3', scopes: 'card,admin' }, /unknown scope admin/],
  ])('refuses %j with a ConfigError', (flags, message) => {
    expect(() => resolveTargetConfig(flags)).toThrow(ConfigError);
    expect(() => resolveTargetConfig(flags)).toThrow(message);
  });
});

describe('readConfigFile', () => {
  it('reads known keys and names the file in every complaint', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pacu-config-'));
    const good = path.join(dir, 'good.json');
    await writeFile(good, JSON.stringify({ target: 'http://x/v3', cardId: 'c1' }));
    expect(await readConfigFile(good)).toEqual({ target: 'http://x/v3', cardId: 'c1' });
    const unknownKey = path.join(dir, 'unknown.json');
    await writeFile(unknownKey, JSON.stringify({ traget: 'http://x/v3' }));
    await expect(readConfigFile(unknownKey)).rejects.toThrow(
      `config file ${unknownKey} has an unknown key "traget"`,
    );
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{');
    await expect(readConfigFile(broken)).rejects.toThrow(
      `config file ${broken}: it is not valid JSON (line 1, column 2: expected property name or '}')`,
    );
    await expect(readConfigFile(path.join(dir, 'missing.json'))).rejects.toThrow(
      /cannot read config file .*ENOENT/,
    );
  });
});
