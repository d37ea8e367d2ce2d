import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACU_PACT_DIR } from '../contracts/index.ts';
import { type HalBroker, startHalBroker } from './helpers/hal-broker.ts';
import { runCli } from './helpers/run-cli.ts';

const cardsPact = async (consumer: string, breakIt = false): Promise<Record<string, unknown>> => {
  const pact = JSON.parse(await readFile(join(PACU_PACT_DIR, 'pacu-merchant-cards-pacu-api.json'), 'utf8'));
  pact.consumer = { name: consumer };
  if (breakIt) pact.interactions[1].response.body.content.data.nickname = 'never sent';
  return pact;
};

let broker: HalBroker | undefined;
afterEach(async () => {
  await broker?.close();
  broker = undefined;
});

describe('pacu verify --broker-url against a HAL broker', () => {
  it('asks for pacts with the selectors, pending and WIP flags and branch; a pending failure does not fail the build; nothing is published without --publish', async () => {
    broker = await startHalBroker('pacu-api', [
      { consumer: 'web', pact: await cardsPact('web') },
      { consumer: 'new-app', pact: await cardsPact('new-app', true), pending: true },
    ]);
    // pact-js would publish on this variable alone; pacu publishes only with --publish.
    process.env.PACT_BROKER_PUBLISH_VERIFICATION_RESULTS = 'true';
    const result = await runCli([
      'verify',
      '--broker-url',
      broker.url,
      '--provider-version',
      '1.4.0',
      '--provider-version-branch',
      'main',
      '--consumer-version-selectors',
      '[{"branch":"main"},{"deployedOrReleased":true}]',
      '--enable-pending',
      '--include-wip-pacts-since',
      '2024-01-01',
    ]).finally(() => {
      delete process.env.PACT_BROKER_PUBLISH_VERIFICATION_RESULTS;
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('4 interactions against');
    expect(result.stdout).toContain('3 verified, 0 failed, 1 skipped');
    expect(result.stdout).toContain(
      'contract.new-app.a-request-for-a-virtual-card: pending pact, so its failure does not fail the build: $.data: Actual map is missing the following keys: nickname',
    );
    const query = broker.calls.find((call) => call.method === 'POST');
    expect(query).toMatchObject({
      path: '/pacts/provider/pacu-api/for-verification',
      body: {
        consumerVersionSelectors: [{ branch: 'main' }, { deployedOrReleased: true }],
        includePendingStatus: true,
        includeWipPactsSince: '2024-01-01',
        providerVersionBranch: 'main',
      },
    });
    expect(broker.calls.filter((call) => call.method !== 'GET')).toHaveLength(1);
  });

  it('publishes the results, with the provider version and branch, only with --publish', async () => {
    broker = await startHalBroker('pacu-api', [{ consumer: 'web', pact: await cardsPact('web') }]);
    const result = await runCli([
      'verify',
      '--broker-url',
      broker.url,
      '--broker-token',
      'broker-secret-token',
      '--provider-version',
      '1.4.0',
      '--provider-version-branch',
      'main',
      '--publish',
      '--reporter',
      'console',
    ]);
    expect(result.code).toBe(0);
    expect(broker.calls.every((call) => call.authorization === 'Bearer broker-secret-token')).toBe(true);
    expect(result.stdout).not.toContain('broker-secret-token');
    const query = broker.calls.find(
      (call) => call.method === 'POST' && call.path.endsWith('/for-verification'),
    );
    expect(query?.body).toMatchObject({
      consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
      includePendingStatus: false,
    });
    const published = broker.calls.find((call) => call.path.endsWith('/verification-results'));
    expect(published).toMatchObject({
      method: 'POST',
      body: { success: true, providerApplicationVersion: '1.4.0' },
    });
    expect(
      broker.calls.some(
        (call) =>
          call.method === 'PUT' && call.path === '/pacticipants/pacu-api/branches/main/versions/1.4.0',
      ),
    ).toBe(true);
  });

  it('exits 2 with one line when the broker has no pacts for the provider', async () => {
    broker = await startHalBroker('pacu-api', []);
    const result = await runCli(['verify', '--broker-url', broker.url, '--provider-version', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^pacu: nothing verified: .* gave no interactions to verify\n$/);
  });

  it('exits 2 with one line when nothing listens at --broker-url, or it answers HTML', async () => {
    const refused = await runCli(['verify', '--broker-url', 'http://127.0.0.1:9', '--provider-version', '1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'pacu: cannot reach the Pact Broker at http://127.0.0.1:9: connection refused. Is --broker-url right and the broker up?\n',
    );
    const html = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
    );
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    try {
      const page = await runCli(['verify', '--broker-url', url, '--provider-version', '1']);
      expect(page.code).toBe(2);
      expect(page.stderr).toBe(
        `pacu: ${url} is not a Pact Broker: it answered text/html, not a HAL index with _links\n`,
      );
    } finally {
      await new Promise((resolve) => html.close(resolve));
    }
  });
});
