import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Har, HarEntry } from '../http/index.ts';
import { SECRET_STAND_INS } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { basic } from '../suites/index.ts';
import { recordSession } from './helpers/record-har.ts';
import { runCli } from './helpers/run-cli.ts';
import { endOf, startCli } from './mock-process.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

let sandbox: TestProvider;
let har: Har;
let folder: string;
let file: string;
let mock: RunningMock;

/** The recorded answer's `data` of the first entry whose path ends so. */
function answered(suffix: string, method = 'GET'): Record<string, unknown> {
  const entry = har.log.entries.find(
    (candidate) =>
      candidate.request.method === method &&
      new URL(candidate.request.url).pathname.endsWith(suffix) &&
      candidate.response.status === 200,
  ) as HarEntry;
  return JSON.parse(entry.response.content.text ?? '').data;
}

async function call(
  method: 'GET' | 'POST',
  route: string,
  options: { json?: unknown; token?: string } = {},
): Promise<{ status: number; body: { data?: Record<string, unknown>; message?: string } }> {
  const response = await request(`${mock.url}${route}`, {
    method,
    headers: {
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
  });
  return { status: response.statusCode, body: (await response.body.json()) as never };
}

async function token(): Promise<string> {
  return tokenOf(mock);
}

async function tokenOf(target: RunningMock): Promise<string> {
  const response = await request(`${target.url}/auth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...basic(target.demoClient.clientId, target.demoClient.clientSecret),
    },
    body: 'grant_type=client_credentials&scope=card,us_account',
  });
  return ((await response.body.json()) as { data: { access_token: string } }).data.access_token;
}

beforeAll(async () => {
  // The "sandbox" is a provider unlike pacu's mock: UUID ids, extra fields, its own records.
  sandbox = await startTestProvider({ style: 'different' });
  har = await recordSession(sandbox.url, sandbox.client, sandbox.ids);
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-recording-'));
  file = path.join(folder, 'sandbox.har');
  await writeFile(file, JSON.stringify(har));
  mock = await startMock({ fromRecording: file, log: () => {} });
});

afterAll(async () => {
  await mock?.close();
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('pacu mock --from-recording', () => {
  it('the recording holds no credential, only the stand-ins the proxy writes', () => {
    const text = JSON.stringify(har);
    expect(text).not.toContain(sandbox.client.clientSecret);
    for (const issued of sandbox.issuedTokens) expect(text).not.toContain(issued);
    expect(text).toContain(`Bearer ${SECRET_STAND_INS.token}`);
    expect(text).toContain(`"access_token\\":\\"${SECRET_STAND_INS.redacted}\\"`);
  });

  it("seeds the sandbox's own records: card, card transaction, push-to-card payment, users, merchant account", async () => {
    expect(mock.seeded).toMatchObject({
      cardId: sandbox.ids.cardId,
      cardTransactionId: sandbox.ids.cardTransactionId,
      pushToCardId: sandbox.ids.pushToCardId,
      merchantAccountId: sandbox.ids.accountId,
    });
    const bearer = await token();
    const card = await call('GET', `/cards/virtual/${sandbox.ids.cardId}`, { token: bearer });
    // The recording's CVV was removed (card data is masked): the mock serves one of its own.
    expect(card).toMatchObject({
      status: 200,
      body: {
        data: { ...answered(`/cards/virtual/${sandbox.ids.cardId}`), cvv: expect.stringMatching(/^\d{3}$/) },
      },
    });
    const route = `/cards/${sandbox.ids.cardId}/transactions/${sandbox.ids.cardTransactionId}`;
    expect((await call('GET', route, { token: bearer })).body.data).toEqual(answered(route));
    const push = `/payments/card/${sandbox.ids.pushToCardId}`;
    expect((await call('GET', push, { token: bearer })).body.data).toEqual(answered(push));
    const users = await call('GET', '/users?page=1&per_page=5', { token: bearer });
    expect((users.body.data as { items: unknown[] }).items).toEqual(
      (answered('/users') as { items: unknown[] }).items,
    );
    const p2p = har.log.entries.find((entry) => entry.request.url.includes('/p2p/status/')) as HarEntry;
    const p2pPath = new URL(p2p.request.url).pathname.replace(/^\/v3/, '');
    expect((await call('GET', p2pPath, { token: bearer })).body.data).toMatchObject({
      p2p_id: answered(p2pPath).p2p_id,
    });
  });

  it('answers a replayed reference as the sandbox did: same transaction id, same record', async () => {
    const recorded = har.log.entries.find((entry) =>
      entry.request.url.endsWith('/payments/usd/direct'),
    ) as HarEntry;
    const replay = await call('POST', '/payments/usd/direct', {
      json: JSON.parse(recorded.request.postData?.text ?? ''),
      token: await token(),
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(JSON.parse(recorded.response.content.text ?? '').data);
  });

  it('a new reference on the recorded merchant account creates a new transfer', async () => {
    const recorded = har.log.entries.find((entry) =>
      entry.request.url.endsWith('/payments/usd/direct'),
    ) as HarEntry;
    const body = { ...JSON.parse(recorded.request.postData?.text ?? ''), reference: 'fresh-reference-1' };
    const created = await call('POST', '/payments/usd/direct', { json: body, token: await token() });
    expect(created.status).toBe(200);
    expect(created.body.data?.transaction_id).not.toBe(
      JSON.parse(recorded.response.content.text ?? '').data.transaction_id,
    );
  });

  it('a reset returns to the recording, not to the seed', async () => {
    await mock.control.reset();
    expect(mock.seeded.cardId).toBe(sandbox.ids.cardId);
    expect((await call('GET', `/cards/virtual/${sandbox.ids.cardId}`, { token: await token() })).status).toBe(
      200,
    );
  });

  it('pacu mock --from-recording prints the recorded ids and stops on SIGTERM', async () => {
    const started = await startCli(['--from-recording', file]);
    try {
      expect(started.info).toMatchObject({
        cardId: sandbox.ids.cardId,
        pushToCardId: sandbox.ids.pushToCardId,
        merchantAccountId: sandbox.ids.accountId,
      });
    } finally {
      const ended = endOf(started.child);
      started.child.kill('SIGTERM');
      expect((await ended).code).toBe(0);
    }
  });

  it('an answer that breaks the documented view is reported, not served', async () => {
    const broken = structuredClone(har) as unknown as { log: { entries: HarEntry[] } };
    const index = broken.log.entries.findIndex((entry) => entry.request.url.includes('/cards/virtual/'));
    const entry = broken.log.entries[index] as HarEntry;
    const body = JSON.parse(entry.response.content.text ?? '');
    body.data.card_balance = 'lots';
    broken.log.entries[index] = {
      ...entry,
      response: { ...entry.response, content: { ...entry.response.content, text: JSON.stringify(body) } },
    };
    const other = await startMock({ fromRecording: broken as unknown as Har, log: () => {} });
    try {
      expect(other.learned?.contradictions).toEqual([
        {
          entries: [index + 1],
          what: expect.stringMatching(/^GET \/cards\/virtual\/.*card_balance.*its records are not served$/),
        },
      ]);
      const card = await request(`${other.url}/cards/virtual/${sandbox.ids.cardId}`, {
        headers: { authorization: `Bearer ${await tokenOf(other)}` },
      });
      // The card the recording's transaction read names is still there, with pacu's seed details.
      const served = (await card.body.json()) as { data: { card_balance: unknown } };
      expect(typeof served.data.card_balance).toBe('number');
    } finally {
      await other.close();
    }
  });

  it('a file that is not a HAR is one line and exit 2', async () => {
    const notHar = path.join(folder, 'not.har');
    await writeFile(notHar, JSON.stringify({ entries: [] }));
    const run = await runCli(['mock', '--from-recording', notHar]);
    expect(run).toMatchObject({ code: 2 });
    expect(run.stderr.trim()).toBe(`pacu: ${notHar} is not a HAR recording (no log.entries)`);
    const missing = await runCli(['mock', '--from-recording', path.join(folder, 'missing.har')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });
});
