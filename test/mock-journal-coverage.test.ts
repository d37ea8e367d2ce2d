import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { createControlClient } from '../suites/index.ts';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';

let mock: RunningMock | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function receiver(): Promise<{ url: string; got: string[] }> {
  const got: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      got.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got };
}

describe('request journal', () => {
  it('records every interface request with its operation, client, status and fault, filters it, and redacts credentials', async () => {
    mock = await startMock({ clock: 'manual', log: () => {} });
    const control = createControlClient(mock.origin);
    const token = await tokenFor(mock);
    await control.addFault({ operation: 'listUsers', kind: 'status', status: 503, times: 1 });
    await getJson(`${mock.url}/users`, token);
    await getJson(`${mock.url}/users?page=2`, token);
    await postJson(`${mock.url}/payments/usd/direct`, token, { reference: 'incomplete' });
    const all = await control.requests();
    expect(all.map((entry) => [entry.method, entry.path, entry.operationId, entry.status])).toEqual([
      ['POST', '/v3/auth/token', 'getAccessToken', 200],
      ['GET', '/v3/users', 'listUsers', 503],
      ['GET', '/v3/users?page=2', 'listUsers', 200],
      ['POST', '/v3/payments/usd/direct', 'usdTransfer', 400],
    ]);
    expect(all.every((entry) => entry.clientId === 'pacu-demo')).toBe(true);
    expect(all[1]?.fault).toMatchObject({ kind: 'status' });
    expect(all[0]?.body).toEqual({ grant_type: 'client_credentials', scope: 'card,us_account' });
    expect(JSON.stringify(all)).not.toContain(token);
    expect(JSON.stringify(all)).not.toContain('pacu-demo-secret');
    expect((await control.requests({ operation: 'listUsers', status: 200 })).map((e) => e.path)).toEqual([
      '/v3/users?page=2',
    ]);
    expect(await control.requests({ clientId: 'nobody' })).toEqual([]);
    expect(await mock.control.requests({ status: 400 })).toHaveLength(1);
    const form = await call(`${mock.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=x&client_secret=leaked-secret',
    });
    expect(form.status).toBe(401);
    expect(JSON.stringify(await control.requests())).not.toContain('leaked-secret');
    const big = JSON.stringify({ reference: 'BIG', description: 'x'.repeat(100_000) });
    await call(`${mock.url}/payments/usd/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: big,
    });
    expect((await control.requests()).at(-1)?.body).toEqual({ unparsed: `${big.length} bytes, not kept` });
  });

  it('lists requests that matched no operation with a near-miss hint, and keeps only the newest journalSize', async () => {
    mock = await startMock({ clock: 'manual', log: () => {}, journalSize: 3 });
    const control = createControlClient(mock.origin);
    await call(`${mock.url}/payment/usd/direct`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await call(`${mock.origin}/payments/usd/direct`, { method: 'POST' });
    await call(`${mock.url}/users`, { method: 'DELETE' });
    await call(`${mock.url}/nothing/like/it/at/all/anywhere`);
    const unmatched = await control.unmatchedRequests();
    expect(unmatched.map((entry) => [entry.path, entry.hint])).toEqual([
      ['/payments/usd/direct', 'did you mean POST /v3/payments/usd/direct? (paths start with /v3)'],
      ['/v3/users', 'did you mean GET /v3/users?'],
      ['/v3/nothing/like/it/at/all/anywhere', null],
    ]);
    expect(await control.requests()).toHaveLength(3);
    await call(`${mock.url}/payment/usd/direct`, { method: 'POST' });
    expect((await control.unmatchedRequests()).at(-1)?.hint).toBe(
      'did you mean POST /v3/payments/usd/direct?',
    );
  });
});

describe('coverage', () => {
  it('after a scripted run: statuses per operation, transitions, delivered events, faults, and what was never seen', async () => {
    mock = await startMock({ clock: 'manual', log: () => {} });
    const control = createControlClient(mock.origin);
    const hooks = await receiver();
    await control.addReceiver({ url: hooks.url, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' });
    const token = await tokenFor(mock);
    const account = mock.seeded.merchantAccountId;
    const ok = transferBody(account, { transfer_type: 'WIRE' });
    await postJson(`${mock.url}/payments/usd/direct`, token, ok);
    await postJson(`${mock.url}/payments/usd/direct`, token, { ...ok, amount: 99 });
    await postJson(`${mock.url}/payments/usd/direct`, token, transferBody(account, { amount: 13.13 }));
    await control.addFault({ operation: 'listUsers', kind: 'reset', times: 1 });
    await getJson(`${mock.url}/users`, token).catch(() => undefined);
    await control.advanceClock(60);
    await mock.control.webhooksIdle();
    const coverage = await control.coverage();
    const transfer = coverage.operations.find((row) => row.operationId === 'usdTransfer');
    expect(transfer?.statuses).toEqual({ 200: 2, 409: 1 });
    expect(transfer?.missing).toEqual(expect.arrayContaining([400, 401, 403]));
    expect(coverage.transitions.filter((row) => row.kind === 'usd_transfer')).toEqual([
      { kind: 'usd_transfer', from: 'processing', to: 'successful', count: 1 },
      { kind: 'usd_transfer', from: 'processing', to: 'failed', count: 1 },
    ]);
    expect(coverage.events.find((row) => row.type === 'usd_transfer.failed')).toEqual({
      type: 'usd_transfer.failed',
      emitted: 1,
      delivered: 1,
    });
    expect(coverage.faults).toEqual([{ operation: 'listUsers', kind: 'reset', fired: 1 }]);
    expect(coverage.neverSeen).toEqual(
      expect.arrayContaining([
        'usdTransfer never answered 400',
        'wallet_payout never went processing → failed',
        'no receiver acknowledged a p2p.validated webhook',
      ]),
    );
    expect(coverage.neverSeen).not.toContain('usdTransfer never answered 409');
    await control.reset();
    expect(
      (await control.coverage()).events.find((row) => row.type === 'usd_transfer.failed')?.delivered,
    ).toBe(1);
  });
});

describe('per-client isolation', () => {
  it('two clients in parallel share one mock; resetting one leaves the other intact', async () => {
    mock = await startMock({ clock: 'manual', log: () => {} });
    const running = mock;
    const control = createControlClient(running.origin);
    const clients = ['job-a', 'job-b'];
    const hooks = { 'job-a': await receiver(), 'job-b': await receiver() };
    const tokens: Record<string, string> = {};
    const accounts: Record<string, string> = {};
    await Promise.all(
      clients.map(async (clientId) => {
        await control.addClient({ clientId, clientSecret: `${clientId}-secret` });
        tokens[clientId] = await tokenFor(running, {
          clientId,
          clientSecret: `${clientId}-secret`,
          scopes: [],
        });
        await control.addReceiver({
          url: hooks[clientId as 'job-a'].url,
          secret: 'whsec_c2VjcmV0',
          clientId,
        });
        const account = await postJson(`${running.url}/accounts`, tokens[clientId] ?? '', {
          user_id: running.seeded.userId,
          hold_balance: true,
        });
        accounts[clientId] = account.body.data.account_id;
        const made = await postJson(
          `${running.url}/payments/usd/direct`,
          tokens[clientId] ?? '',
          transferBody(accounts[clientId] ?? '', { reference: 'SAME-REF', transfer_type: 'WIRE' }),
        );
        expect(made.status).toBe(200);
      }),
    );
    const other = await postJson(
      `${running.url}/payments/usd/direct`,
      tokens['job-a'] ?? '',
      transferBody(accounts['job-b'] ?? ''),
    );
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/names no account/);
    await control.addFault({ operation: 'listUsers', kind: 'status', status: 503, clientId: 'job-a' });
    await control.reset({ clientId: 'job-a' });
    expect(await control.faults()).toEqual([]);
    expect(await control.requests({ clientId: 'job-a' })).toEqual([]);
    expect((await control.requests({ clientId: 'job-b' })).length).toBeGreaterThan(0);
    expect((await control.receivers()).map((r) => r.clientId)).toEqual(['job-b']);
    const gone = await postJson(
      `${running.url}/payments/usd/direct`,
      tokens['job-a'] ?? '',
      transferBody(accounts['job-a'] ?? ''),
    );
    expect(gone.body.message).toMatch(/names no account/);
    const again = await postJson(
      `${running.url}/payments/usd/direct`,
      tokens['job-b'] ?? '',
      transferBody(accounts['job-b'] ?? '', { reference: 'SAME-REF', transfer_type: 'WIRE' }),
    );
    expect(again.body.message).toBe('Transfer already exists for this reference');
    await control.advanceClock(60);
    await running.control.webhooksIdle();
    expect(hooks['job-a'].got).toEqual([]);
    expect(hooks['job-b'].got).toEqual(['usd_transfer.successful']);
    expect((await getJson(`${running.url}/users`, tokens['job-a'] ?? '')).status).toBe(200);
  });
});
