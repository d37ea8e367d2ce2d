import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_ROUTES } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { ControlApiError, createControlClient } from '../suites/index.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ clock: 'manual', log: () => {} });
});
afterAll(() => mock.close());

describe('the control client (one typed client of /__pacu over real HTTP)', () => {
  it('answers what mock.control answers in-process', async () => {
    const control = createControlClient(mock.origin);
    expect(await control.probe()).toBeUndefined();
    expect(await control.ids()).toEqual(await mock.control.ids());
    expect(await control.clock()).toEqual(await mock.control.clock());
    const before = (await control.clock()).epochMs;
    expect((await control.advanceClock(60)).epochMs).toBe(before + 60_000);
    const { id } = await control.addReceiver({ url: 'http://127.0.0.1:9/hooks', secret: 'whsec_c2VjcmV0' });
    expect(await control.receivers()).toEqual(await mock.control.receivers());
    expect(await control.removeReceiver(id)).toBe(true);
    expect(await control.removeReceiver(id)).toBe(false);
    expect(await control.redeliver('msg_unknown')).toBe(false);
    const payment = await control.createPushToCard({ amount: 12.5 });
    expect(payment).toMatchObject({ amount: 12.5, transaction_status: 'processing' });
    const client = await control.addClient({ clientId: 'ci-job-1', clientSecret: 's3cret' });
    expect(client).toEqual({ clientId: 'ci-job-1', clientSecret: 's3cret', scopes: ['card', 'us_account'] });
    const scenario = { rules: [{ match: { kind: 'wallet_payout' as const }, steps: [] }] };
    await control.setScenario(scenario);
    expect(await control.scenario()).toEqual(scenario);
    const dump = await control.dumpState();
    expect(dump.format).toBe('pacu-mock-state');
    await control.reset();
    await control.loadState(dump);
    expect((await control.dumpState()).seeded).toEqual(dump.seeded);
    expect(await control.events()).toEqual([]);
    expect(await control.attempts()).toEqual([]);
  });

  it("turns a refusal into a ControlApiError with the status and the mock's reason", async () => {
    const control = createControlClient(`${mock.origin}/__pacu`);
    const refused = await control.setScenario({ rules: 'no' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlApiError);
    expect(refused).toMatchObject({ status: 400 });
    expect(String((refused as Error).message)).toMatch(/rules/);
  });

  it('serves every route of the protocol table (none answers 404 or 405)', async () => {
    for (const [name, [method, path]] of Object.entries(CONTROL_ROUTES)) {
      const response = await fetch(`${mock.origin}/__pacu${path.replace(/:[A-Za-z]+/g, 'x')}`, {
        method,
        ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      const known = response.status !== 405 && !(response.status === 404 && !path.includes(':'));
      expect(known, `${name}: ${method} ${path} answered ${response.status}`).toBe(true);
    }
  });

  it('probe says why an origin is not a pacu mock, and never throws', async () => {
    const html = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    );
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    try {
      expect(await createControlClient(origin).probe()).toMatch(/did not answer JSON/);
    } finally {
      await new Promise((resolve) => html.close(resolve));
    }
    expect(await createControlClient(origin).probe()).toMatch(/cannot reach the control API/);
    const closed = await startMock({ control: false, log: () => {} });
    try {
      expect(await createControlClient(closed.origin).probe()).toMatch(/HTTP 404/);
    } finally {
      await closed.close();
    }
  });
});
