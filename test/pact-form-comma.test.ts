// A pact made from traffic whose token request carries `scope=card,us_account` (a comma, as the
// proxy guide's curl sends it) must verify against the provider it was recorded from and against the
// mock made from the same recording: the verifier must send the form body whole.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePactFromHar } from '../contracts/index.ts';
import { readHar } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { startProxy } from '../proxy/index.ts';
import { basic } from '../suites/index.ts';
import { runCli } from './helpers/run-cli.ts';
import { type BankSandbox, startBankSandbox } from './providers/independent/index.ts';

const FORM = 'grant_type=client_credentials&scope=card,us_account';

let sandbox: BankSandbox;
let mock: RunningMock;
let folder: string;
let pactFile: string;

beforeAll(async () => {
  sandbox = await startBankSandbox();
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-pact-comma-'));
  const recording = path.join(folder, 'sandbox.har');
  const proxy = await startProxy({
    upstream: sandbox.url,
    record: recording,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    log: () => {},
  });
  try {
    const token = await request(`${proxy.url}/auth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...basic(sandbox.clientId, sandbox.clientSecret),
      },
      body: FORM,
    });
    const issued = ((await token.body.json()) as { data: { access_token: string } }).data.access_token;
    const users = await request(`${proxy.url}/users`, { headers: { authorization: `Bearer ${issued}` } });
    await users.body.text();
  } finally {
    await proxy.close();
  }
  const har = await readHar(recording);
  pactFile = await writePactFromHar(har, {
    consumer: 'shop',
    provider: 'bank-sandbox',
    dir: path.join(folder, 'pacts'),
  });
  mock = await startMock({ fromRecording: recording, log: () => {} });
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

async function verify(target: string, clientId: string, clientSecret: string) {
  const file = path.join(folder, `verify-${Math.random().toString(16).slice(2)}.json`);
  const run = await runCli([
    'verify',
    '--pact',
    pactFile,
    '--target',
    target,
    '--client-id',
    clientId,
    '--client-secret',
    clientSecret,
    '--reporter',
    `json:${file}`,
    '--quiet',
  ]);
  const report = JSON.parse(await readFile(file, 'utf8')) as {
    rules: Array<{ status: string; title: string; failure?: { reason: string } }>;
  };
  return {
    code: run.code,
    problems: report.rules
      .filter((rule) => rule.status !== 'passed')
      .map((rule) => `${rule.title}: ${rule.failure?.reason ?? rule.status}`),
  };
}

describe('a pact from traffic with a comma in a form body', () => {
  it('holds the form body as the client sent it', async () => {
    const pact = JSON.parse(await readFile(pactFile, 'utf8'));
    const token = pact.interactions.find(
      (interaction: { request: { path: string } }) => interaction.request.path === '/auth/token',
    );
    expect(token.request.body.content).toBe(FORM);
  });

  it('verifies against the provider it was recorded from', async () => {
    expect(await verify(sandbox.url, sandbox.clientId, sandbox.clientSecret)).toEqual({
      code: 0,
      problems: [],
    });
  }, 60_000);

  it('verifies against the mock made from the same recording', async () => {
    const { clientId, clientSecret } = mock.demoClient;
    expect(await verify(mock.url, clientId, clientSecret)).toEqual({ code: 0, problems: [] });
  }, 60_000);
});
