import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagWording } from '../cli/setting-flags.ts';
import { PACU_PACT_DIR, verifyPacts } from '../contracts/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { resolveTargetConfig } from '../suites/index.ts';
import { startTestProvider } from './providers/test-provider.ts';

let mock: RunningMock;
let dir: string;
beforeAll(async () => {
  mock = await startMock({ log: () => {} });
  dir = await mkdtemp(join(tmpdir(), 'pacu-verify-test-'));
});
afterAll(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

const cardsPact = join(PACU_PACT_DIR, 'pacu-merchant-cards-pacu-api.json');

describe('verifyPacts against the pacu mock', () => {
  it("verifies every interaction of pacu's own pacts, with states set up through the control API", async () => {
    const target = resolveTargetConfig({ target: mock.url, controlUrl: mock.origin });
    const report = await verifyPacts({ target });
    expect(report.profile).toBe('documented');
    expect(report.summary).toEqual({ passed: 9, failed: 0, skipped: 0 });
    expect(new Set(report.rules.map((rule) => rule.operation)).size).toBe(9);
    expect(report.rules.every((rule) => rule.category === 'contract')).toBe(true);
    const strict = await verifyPacts({ target, profile: 'strict' });
    expect(strict.summary).toEqual({ passed: 10, failed: 0, skipped: 0 });
  });

  it('skips, with the flag to pass, an interaction whose state the target config cannot meet', async () => {
    const report = await verifyPacts({
      target: resolveTargetConfig({
        target: mock.url,
        clientId: mock.demoClient.clientId,
        clientSecret: mock.demoClient.clientSecret,
        cardId: mock.seeded.cardId,
      }),
      pacts: [cardsPact],
      word: flagWording,
    });
    expect(report.summary).toEqual({ passed: 1, failed: 0, skipped: 1 });
    expect(report.rules.find((rule) => rule.status === 'skipped')?.skipReason).toBe(
      'provider state "a card transaction exists" cannot be met on this target: pass --card-transaction-id, or cardTransactionId in the config file',
    );
  });

  it('fails a pact that expects a field the mock does not send, naming the field', async () => {
    const pact = JSON.parse(await readFile(cardsPact, 'utf8'));
    const card = pact.interactions.find(
      (item: { description: string }) => item.description === 'a request for a virtual card',
    );
    card.response.body.content.data.nickname = 'Ops';
    card.response.matchingRules.body['$.data.nickname'] = { combine: 'AND', matchers: [{ match: 'type' }] };
    const file = join(dir, 'expects-nickname.json');
    await writeFile(file, JSON.stringify(pact));
    const report = await verifyPacts({
      target: resolveTargetConfig({ target: mock.url, controlUrl: mock.origin }),
      pacts: [file],
    });
    const failed = report.rules.find((rule) => rule.status === 'failed');
    expect(report.summary.failed).toBe(1);
    expect(failed?.title).toContain('a request for a virtual card');
    expect(failed?.failure?.reason).toContain('$.data: Actual map is missing the following keys: nickname');
  });
});

describe("pacu's shipped pacts against providers pacu's mock is not", () => {
  it('pass a correct provider that decides otherwise where the description is silent; the decisions only under strict', async () => {
    const provider = await startTestProvider({ style: 'different' });
    try {
      const target = resolveTargetConfig({ target: provider.url, ...provider.client, ...provider.ids });
      const report = await verifyPacts({ target });
      expect(
        report.rules.filter((rule) => rule.status !== 'passed').map((rule) => rule.failure?.reason),
      ).toEqual([]);
      expect(report.summary).toEqual({ passed: 9, failed: 0, skipped: 0 });
      // It answers a reused reference with the original record (legal), so pacu's 409 decision fails it.
      const strict = await verifyPacts({ target, profile: 'strict' });
      expect(strict.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.title)).toEqual([
        'pacu-merchant-decisions → pacu-api: a USD transfer reusing a reference with another body',
      ]);
    } finally {
      await provider.close();
    }
  });

  it('pass a provider that makes every pacu decision, under strict too', async () => {
    const provider = await startTestProvider({ style: 'pacu' });
    try {
      const target = resolveTargetConfig({ target: provider.url, ...provider.client, ...provider.ids });
      const strict = await verifyPacts({ target, profile: 'strict' });
      expect(
        strict.rules.filter((rule) => rule.status !== 'passed').map((rule) => rule.failure?.reason),
      ).toEqual([]);
      expect(strict.summary).toEqual({ passed: 10, failed: 0, skipped: 0 });
    } finally {
      await provider.close();
    }
  });

  it('find a user and an account on the target as pacu check does: no --user-id or --account-id needed', async () => {
    const provider = await startTestProvider({ style: 'different' });
    try {
      const { accountId: _account, userId: _user, ...records } = provider.ids;
      const target = resolveTargetConfig({ target: provider.url, ...provider.client, ...records });
      const report = await verifyPacts({ target });
      expect(
        report.rules
          .filter((rule) => rule.status !== 'passed')
          .map((rule) => rule.skipReason ?? rule.failure?.reason),
      ).toEqual([]);
      expect(report.summary).toEqual({ passed: 9, failed: 0, skipped: 0 });
    } finally {
      await provider.close();
    }
  });
});
