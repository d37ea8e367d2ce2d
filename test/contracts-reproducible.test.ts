import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { PACU_PACT_DIR } from '../contracts/index.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('regenerates the committed pact files byte for byte from the consumer tests', async () => {
  dir = await mkdtemp(join(tmpdir(), 'pacu-pacts-'));
  const consumerTests = (await readdir(join(root, 'contracts')))
    .filter((name) => name.endsWith('.pact.test.ts'))
    .map((name) => join('contracts', name));
  await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...consumerTests],
    { cwd: root, env: { ...process.env, PACU_PACT_DIR: dir } },
  );
  const committed = (await readdir(PACU_PACT_DIR)).filter((name) => name.endsWith('.json')).sort();
  const regenerated = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  expect(regenerated).toEqual(committed);
  for (const name of committed) {
    expect(await readFile(join(dir, name), 'utf8'), name).toBe(
      await readFile(join(PACU_PACT_DIR, name), 'utf8'),
    );
  }
});

it('keeps credentials out of the committed pacts: every Authorization is a provider-state expression', async () => {
  const names = (await readdir(PACU_PACT_DIR)).filter((name) => name.endsWith('.json'));
  let checked = 0;
  for (const name of names) {
    const pact = JSON.parse(await readFile(join(PACU_PACT_DIR, name), 'utf8'));
    for (const interaction of pact.interactions) {
      const { headers, generators } = interaction.request;
      if (!headers?.authorization) continue;
      checked += 1;
      expect(generators?.header?.authorization, interaction.description).toMatchObject({
        type: 'ProviderState',
      });
      expect(headers.authorization[0], interaction.description).toMatch(
        /^(Bearer example-access-token|Basic bWVyY2hhbnQtY2xpZW50LWlkOm1lcmNoYW50LWNsaWVudC1zZWNyZXQ=)$/,
      );
    }
  }
  expect(checked).toBe(10);
});
