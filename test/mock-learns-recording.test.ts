// A mock made from a recording answers new requests as the recorded sandbox would, wherever
// the description is silent and the traffic shows the sandbox's choice. The sandbox here is the bank
// sandbox written from the description alone: it echoes account_id in the transfer record, writes
// UUIDs and `+00:00` timestamps with microseconds, serves under /api/v3, and so on.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayRecording } from '../contracts/index.ts';
import { type Har, readHar } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { startProxy } from '../proxy/index.ts';
import { basic, resolveTargetConfig } from '../suites/index.ts';
import { type BankSandbox, startBankSandbox } from './providers/independent/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let sandbox: BankSandbox;
let mock: RunningMock;
let folder: string;
let har: Har;

const transfer = (reference: string, accountId: string) => ({
  account_id: accountId,
  account_number: '000123456789',
  account_type: 'CHECKING',
  amount: 125.5,
  routing_number: '021000021',
  transfer_type: 'ACH',
  reference,
  recipient_email: 'ada@example.com',
  recipient_name: 'Ada Lovelace',
  description: 'Invoice 42',
});

async function call(
  base: string,
  method: 'GET' | 'POST',
  route: string,
  headers: Record<string, string>,
  body?: string,
) {
  const answer = await request(`${base}${route}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  return {
    status: answer.statusCode,
    headers: answer.headers,
    json: (await answer.body.json()) as { message?: string; data: Record<string, unknown> },
  };
}

async function token(base: string, clientId: string, clientSecret: string): Promise<string> {
  const issued = await call(
    base,
    'POST',
    '/auth/token',
    { 'content-type': 'application/x-www-form-urlencoded', ...basic(clientId, clientSecret) },
    'grant_type=client_credentials&scope=card,us_account',
  );
  return String(issued.json.data.access_token);
}

beforeAll(async () => {
  sandbox = await startBankSandbox();
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-learns-'));
  const file = path.join(folder, 'sandbox.har');
  const proxy = await startProxy({
    upstream: sandbox.url,
    record: file,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    log: () => {},
  });
  try {
    // The session: a token, a transfer, its replay, another transfer, a card read, a user
    // list, one bad request.
    const bearer = {
      authorization: `Bearer ${await token(proxy.url, sandbox.clientId, sandbox.clientSecret)}`,
    };
    const json = { ...bearer, 'content-type': 'application/json' };
    const sent = JSON.stringify(transfer('inv-2026-0042', sandbox.merchantAccountId));
    await call(proxy.url, 'POST', '/payments/usd/direct', json, sent);
    await call(proxy.url, 'POST', '/payments/usd/direct', json, sent);
    // A second transfer: one sample makes no rule.
    const second = JSON.stringify(transfer('inv-2026-0044', sandbox.merchantAccountId));
    await call(proxy.url, 'POST', '/payments/usd/direct', json, second);
    await call(proxy.url, 'GET', `/cards/virtual/${sandbox.cardId}`, bearer);
    await call(proxy.url, 'GET', '/users', bearer);
    const { amount: _amount, ...withoutAmount } = transfer('inv-2026-0043', sandbox.merchantAccountId);
    await call(proxy.url, 'POST', '/payments/usd/direct', json, JSON.stringify(withoutAmount));
  } finally {
    await proxy.close();
  }
  har = await readHar(file);
  mock = await startMock({ fromRecording: file, log: () => {} });
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('a mock made from a recording behaves like the recorded sandbox', () => {
  it('pacu replay of the recording against it reports no drift', async () => {
    const report = await replayRecording({
      recording: har,
      target: resolveTargetConfig({
        target: mock.url,
        clientId: mock.demoClient.clientId,
        clientSecret: mock.demoClient.clientSecret,
      }),
    });
    expect(
      report.rules.filter((rule) => rule.status !== 'passed').map((rule) => rule.failure?.reason),
    ).toEqual([]);
    expect(report.summary.passed).toBe(har.log.entries.length);
  });

  it('serves under the base path the sandbox did, with its content type and headers', async () => {
    expect(new URL(mock.url).pathname).toBe('/api/v3');
    const users = await call(mock.url, 'GET', '/users', {
      authorization: `Bearer ${await token(mock.url, mock.demoClient.clientId, mock.demoClient.clientSecret)}`,
    });
    expect(users.status).toBe(200);
    expect(users.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(users.headers['cache-control']).toBe('no-store');
    expect(String(users.headers['x-request-id'])).toMatch(UUID);
  });

  it('a new transfer is made as the sandbox makes one: account_id echoed, a UUID, its timestamp form', async () => {
    const bearer = `Bearer ${await token(mock.url, mock.demoClient.clientId, mock.demoClient.clientSecret)}`;
    const sent = transfer('a-reference-never-recorded', mock.seeded.merchantAccountId);
    const made = await call(
      mock.url,
      'POST',
      '/payments/usd/direct',
      { authorization: bearer, 'content-type': 'application/json' },
      JSON.stringify(sent),
    );
    expect(made.status).toBe(200);
    expect(made.json.data.account_id).toBe(sent.account_id);
    expect(String(made.json.data.transaction_id)).toMatch(UUID);
    expect(String(made.json.data.transaction_date)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    const recorded = JSON.parse(har.log.entries[1]?.response.content.text ?? '{}');
    expect(made.json.message).toBe(recorded.message);
    expect(Object.keys(made.json.data)).toEqual(Object.keys(recorded.data));
  });

  it('a token lives as long as the sandbox said, with its token_type', async () => {
    const issued = await call(
      mock.url,
      'POST',
      '/auth/token',
      {
        'content-type': 'application/x-www-form-urlencoded',
        ...basic(mock.demoClient.clientId, mock.demoClient.clientSecret),
      },
      'grant_type=client_credentials&scope=card,us_account',
    );
    expect(issued.json.data).toMatchObject({ expires_in_seconds: 900, token_type: 'Bearer' });
  });

  it('an exact replay is answered with the sandbox message, the bad request with its status', async () => {
    const bearer = `Bearer ${await token(mock.url, mock.demoClient.clientId, mock.demoClient.clientSecret)}`;
    const headers = { authorization: bearer, 'content-type': 'application/json' };
    const sent = JSON.stringify(transfer('replayed-here', mock.seeded.merchantAccountId));
    await call(mock.url, 'POST', '/payments/usd/direct', headers, sent);
    const replayed = await call(mock.url, 'POST', '/payments/usd/direct', headers, sent);
    expect(replayed.json.message).toBe(JSON.parse(har.log.entries[2]?.response.content.text ?? '{}').message);
  });

  it('says what it learned, from which exchanges, and what it left at pacu’s default', () => {
    const choices = new Map(mock.learned?.choices.map((choice) => [choice.choice, choice]));
    expect(choices.get('basePath')).toMatchObject({ value: '/api/v3', from: 'recording' });
    expect(choices.get('record.usdTransfer.ACH.account_id')).toMatchObject({
      from: 'recording',
      entries: [2, 4],
    });
    expect(choices.get('id.txn')).toMatchObject({ shown: 'UUID', entries: [2, 4] });
    expect(choices.get('token.lifetime')).toMatchObject({ value: 900, entries: [1] });
    expect(choices.get('id.wpo')).toMatchObject({ from: 'default', entries: [] });
    // The one user list was read without a query: its first page and size are the sandbox's, the names are not.
    expect(choices.get('paging')?.shown).toMatch(/\(names never sent: pacu's\)/);
    expect(mock.learned?.contradictions).toEqual([]);
  });
});
