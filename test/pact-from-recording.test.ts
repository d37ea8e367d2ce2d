import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePactFromHar } from '../contracts/index.ts';
import type { Har } from '../http/index.ts';
import { SECRET_STAND_INS } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { recordSession } from './helpers/record-har.ts';
import { runCli } from './helpers/run-cli.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

const CLIENT = {
  clientId: 'pact-verifier',
  clientSecret: 'pact-verifier-secret-9',
  scopes: ['card', 'us_account'] as const,
};

let sandbox: TestProvider;
let har: Har;
let folder: string;
let pactFile: string;
let mock: RunningMock;

interface Interaction {
  description: string;
  providerStates?: Array<{ name: string }>;
  request: {
    path: string;
    headers?: Record<string, string[]>;
    generators?: { header?: Record<string, { type: string }> };
  };
  response: {
    status: number;
    matchingRules?: { body?: Record<string, { matchers: Array<{ match: string; regex?: string }> }> };
  };
}

beforeAll(async () => {
  sandbox = await startTestProvider({ style: 'different' });
  har = await recordSession(sandbox.url, sandbox.client, sandbox.ids);
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-pact-har-'));
  const harFile = path.join(folder, 'sandbox.har');
  await writeFile(harFile, JSON.stringify(har));
  pactFile = await writePactFromHar(har, {
    consumer: 'shop-frontend',
    provider: 'payments-sandbox',
    dir: path.join(folder, 'pacts'),
  });
  mock = await startMock({
    fromRecording: harFile,
    clients: [{ ...CLIENT, scopes: [...CLIENT.scopes] }],
    log: () => {},
  });
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('a pact from a recording', () => {
  it('is a Pact V4 file of the recorded interactions, with matchers from the documented view', async () => {
    expect(pactFile).toBe(path.join(folder, 'pacts', 'shop-frontend-payments-sandbox.json'));
    const pact = JSON.parse(await readFile(pactFile, 'utf8'));
    expect(pact.metadata.pactSpecification.version).toBe('4.0');
    const interactions = pact.interactions as Interaction[];
    expect(interactions).toHaveLength(har.log.entries.length);
    // Paths relative to the base URL, as pacu's pacts write them (decision 030).
    expect(interactions.every((interaction) => !interaction.request.path.startsWith('/v3'))).toBe(true);
    const transfer = interactions.find(
      (interaction) =>
        interaction.request.path === '/payments/usd/direct' && interaction.response.status === 200,
    );
    const rules = transfer?.response.matchingRules?.body ?? {};
    expect(rules['$.data.transaction_id']?.matchers[0]).toEqual({ match: 'type' });
    expect(rules['$.data.transaction_status']?.matchers[0]?.match).toBe('regex');
    // Echoed fields are the echo rule's business: the documented view does not say they are there.
    expect(rules['$.data.amount']).toBeUndefined();
    expect(rules['$.data.transaction_date']?.matchers[0]?.match).toBe('regex');
    // The sandbox's own extra field is not part of the documented view.
    expect(rules['$.data.provider_note']).toBeUndefined();
  });

  it('holds no secret: every credential is a provider-state expression with an example', async () => {
    const text = await readFile(pactFile, 'utf8');
    expect(text).not.toContain(sandbox.client.clientSecret);
    for (const token of sandbox.issuedTokens) expect(text).not.toContain(token);
    for (const standIn of Object.values(SECRET_STAND_INS)) expect(text).not.toContain(standIn);
    const interactions = JSON.parse(text).interactions as Interaction[];
    const withCredentials = interactions.filter((interaction) => interaction.request.headers?.authorization);
    expect(withCredentials).toHaveLength(interactions.length);
    for (const interaction of withCredentials) {
      expect(interaction.providerStates).toEqual([{ name: 'a valid client' }]);
      expect(interaction.request.generators?.header?.authorization?.type).toBe('ProviderState');
    }
  });

  it('pacu verify passes it against the mock made from the same recording', async () => {
    const run = await runCli([
      'verify',
      '--pact',
      pactFile,
      '--target',
      mock.url,
      '--client-id',
      CLIENT.clientId,
      '--client-secret',
      CLIENT.clientSecret,
      '--reporter',
      `json:${path.join(folder, 'verify.json')}`,
    ]);
    const report = JSON.parse(await readFile(path.join(folder, 'verify.json'), 'utf8'));
    expect(report.rules.filter((rule: { status: string }) => rule.status !== 'passed')).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.summary.passed).toBe(har.log.entries.length);
  }, 60_000);

  it('pacu verify --against-spec judges it like any other pact: what the client sent outside the description is a finding', async () => {
    const run = await runCli([
      'verify',
      '--against-spec',
      '--pact',
      pactFile,
      '--reporter',
      `json:${path.join(folder, 'spec.json')}`,
    ]);
    const report = JSON.parse(await readFile(path.join(folder, 'spec.json'), 'utf8'));
    const failed = report.rules.filter((rule: { status: string }) => rule.status === 'failed');
    // The recorded client paged /users (paging is not shown) and sent a transfer without amount.
    expect(failed.map((rule: { failure: { reason: string } }) => rule.failure.reason)).toEqual([
      expect.stringContaining('the spec has no query parameter page'),
      expect.stringContaining('request $.body: must have required property amount'),
    ]);
    expect(run.code).toBe(1);
    expect(report.summary.passed).toBe(har.log.entries.length - 2);
  }, 60_000);

  it('a recording of documented requests only gives a pact that passes --against-spec', async () => {
    const clean = {
      log: {
        ...har.log,
        entries: har.log.entries.filter(
          (entry) =>
            !entry.request.url.includes('?') && !entry.request.postData?.text.includes('inv-2026-0043'),
        ),
      },
    };
    const file = await writePactFromHar(clean, {
      consumer: 'clean-client',
      provider: 'payments-sandbox',
      dir: path.join(folder, 'pacts'),
    });
    const run = await runCli([
      'verify',
      '--against-spec',
      '--pact',
      file,
      '--reporter',
      `json:${path.join(folder, 'clean.json')}`,
    ]);
    const report = JSON.parse(await readFile(path.join(folder, 'clean.json'), 'utf8'));
    expect(report.rules.filter((rule: { status: string }) => rule.status !== 'passed')).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.summary.passed).toBe(clean.log.entries.length);
  }, 60_000);
});
