import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import type { Report } from '../suites/index.ts';
import { recordSession } from './helpers/record-har.ts';
import { runCli } from './helpers/run-cli.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

const CLIENT = {
  clientId: 'replayer',
  clientSecret: 'replay-secret-4711',
  scopes: ['card', 'us_account'] as const,
};

let sandbox: TestProvider;
let mock: RunningMock;
let drifting: Server;
let driftUrl: string;
let folder: string;
let file: string;
let entries: number;

type Rewrite = (path: string, status: number, text: string) => { status: number; text: string };

/** A renamed field and a changed status: the provider drifted since the recording. */
const RENAMED_AND_MOVED: Rewrite = (path, status, text) => ({
  status: path.startsWith('/users') ? 202 : status,
  text: text.replace('"recipient_name"', '"receipient_name"'),
});

/** One transaction id for every payment, whatever the reference (like a stateless stub). */
const ONE_ID: Rewrite = (_path, status, text) => ({
  status,
  text: text.replace(/"transaction_id":"[^"]*"/, '"transaction_id":"txn_always_the_same"'),
});

/** The transfer answer no longer echoes the request's recipient_name. */
const ECHO_BROKEN: Rewrite = (_path, status, text) => ({
  status,
  text: text.replace('"recipient_name":"Ada Lovelace"', '"recipient_name":"ADA LOVELACE"'),
});

/** The provider behind `upstream`, its answers rewritten. */
function startDrifting(upstream: string, rewrite: Rewrite): Promise<Server> {
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const path = (incoming.url ?? '').replace(/^\/v3/, '');
    const answer = await request(`${upstream}${path}`, {
      method: incoming.method as 'GET',
      headers: Object.fromEntries(
        Object.entries(incoming.headers).filter(([name]) => ['authorization', 'content-type'].includes(name)),
      ) as Record<string, string>,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const { status, text } = rewrite(path, answer.statusCode, await answer.body.text());
    outgoing.writeHead(status, { 'content-type': 'application/json' }).end(text);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function replay(
  target: string,
  credentials: { clientId: string; clientSecret: string },
  ...extra: string[]
): Promise<{ code: number; stderr: string; report: Report; text: string }> {
  const out = path.join(folder, `report-${Math.random().toString(36).slice(2)}.json`);
  const run = await runCli([
    'replay',
    file,
    '--target',
    target,
    '--client-id',
    credentials.clientId,
    '--client-secret',
    credentials.clientSecret,
    '--reporter',
    `json:${out}`,
    ...extra,
  ]);
  const text = run.code === 2 ? '{}' : await readFile(out, 'utf8');
  return { code: run.code, stderr: run.stderr, report: JSON.parse(text), text };
}

beforeAll(async () => {
  sandbox = await startTestProvider({ style: 'different' });
  const har = await recordSession(sandbox.url, sandbox.client, sandbox.ids);
  entries = har.log.entries.length;
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-replay-'));
  file = path.join(folder, 'sandbox.har');
  await writeFile(file, JSON.stringify(har));
  mock = await startMock({
    fromRecording: file,
    clients: [{ ...CLIENT, scopes: [...CLIENT.scopes] }],
    log: () => {},
  });
  drifting = await startDrifting(mock.url, RENAMED_AND_MOVED);
  driftUrl = `http://127.0.0.1:${(drifting.address() as AddressInfo).port}/v3`;
});

afterAll(async () => {
  drifting?.close();
  await mock?.close();
  await sandbox?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('pacu replay', () => {
  it('against pacu mock --from-recording of the same file: no drift, every exchange compared', async () => {
    const run = await replay(mock.url, CLIENT);
    expect(
      run.report.rules?.filter((rule) => rule.status === 'failed').map((rule) => rule.failure?.reason),
    ).toEqual([]);
    expect(run).toMatchObject({
      code: 0,
      report: { command: 'replay', summary: { passed: entries, failed: 0 } },
    });
  });

  it('with --same-references the mock answers the recorded transfers themselves: no drift', async () => {
    const run = await replay(mock.url, CLIENT, '--same-references');
    expect(
      run.report.rules?.filter((rule) => rule.status === 'failed').map((rule) => rule.failure?.reason),
    ).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('against the recorded sandbox itself: no drift, with fresh or recorded references', async () => {
    expect((await replay(sandbox.url, sandbox.client)).code).toBe(0);
    expect((await replay(sandbox.url, sandbox.client, '--same-references')).code).toBe(0);
  });

  it('against a provider that drifted: exit 1 naming the renamed field and the changed status', async () => {
    const run = await replay(driftUrl, CLIENT);
    expect(run.code).toBe(1);
    const reasons = run.report.rules.flatMap((rule) => (rule.failure ? [rule.failure.reason] : []));
    expect(reasons.join('\n')).toContain(
      'data.recipient_name was answered in the recording and is missing now',
    );
    expect(reasons).toContain('status 202, the recording answered 200');
    const users = run.report.rules.find((rule) => rule.operation === 'listUsers');
    expect(users?.failure?.curl).toContain('"authorization: Bearer $PACU_TOKEN"');
  });

  it('a transfer answer that stops echoing the request drifts', async () => {
    const shouting = await startDrifting(mock.url, ECHO_BROKEN);
    try {
      const run = await replay(`http://127.0.0.1:${(shouting.address() as AddressInfo).port}/v3`, CLIENT);
      expect(run.code).toBe(1);
      const transfers = run.report.rules.filter((rule) => rule.operation === 'usdTransfer' && rule.failure);
      expect(transfers.map((rule) => rule.failure?.reason)).toEqual([
        'data.recipient_name is "ADA LOVELACE" but the request sent "Ada Lovelace": the answer echoes the request (the recording did)',
        'data.recipient_name is "ADA LOVELACE" but the request sent "Ada Lovelace": the answer echoes the request (the recording did)',
      ]);
    } finally {
      shouting.close();
    }
  });

  it('a target that answers two references with one transaction id drifts', async () => {
    const stateless = await startDrifting(mock.url, ONE_ID);
    try {
      const url = `http://127.0.0.1:${(stateless.address() as AddressInfo).port}/v3`;
      const run = await replay(url, CLIENT);
      expect(run.code).toBe(1);
      const payout = run.report.rules.find((rule) => rule.operation === 'walletPayout');
      expect(payout?.failure?.reason).toMatch(
        /^data\.transaction_id txn_always_the_same was answered for the recording's \S+ as well as \S+$/,
      );
    } finally {
      stateless.close();
    }
  });

  it("against a provider without the recording's records: drift, and a note that says why", async () => {
    const plain = await startMock({ clients: [{ ...CLIENT, scopes: [...CLIENT.scopes] }], log: () => {} });
    try {
      const run = await replay(plain.url, CLIENT);
      expect(run.code).toBe(1);
      expect(run.report.notes).toContainEqual(
        expect.stringContaining("the target lacks the recording's records"),
      );
    } finally {
      await plain.close();
    }
  });

  it('no secret in any report: neither the client secret nor a token the target issued', async () => {
    const run = await replay(driftUrl, CLIENT, '--reporter', `markdown:${path.join(folder, 'r.md')}`);
    const markdown = await readFile(path.join(folder, 'r.md'), 'utf8');
    for (const text of [run.text, markdown]) {
      expect(text).not.toContain(CLIENT.clientSecret);
      expect(text).not.toContain(Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64'));
    }
  });

  it('bad input is one line and exit 2: not a HAR, no credentials, no target', async () => {
    const notHar = path.join(folder, 'not.har');
    await writeFile(notHar, '{"log":{}}');
    const bad = await runCli(['replay', notHar, '--target', mock.url]);
    expect(bad).toMatchObject({
      code: 2,
      stderr: `pacu: ${notHar} is not a HAR recording (no log.entries)\n`,
    });
    const anonymous = await runCli(['replay', file, '--target', mock.url]);
    expect(anonymous.code).toBe(2);
    expect(anonymous.stderr).toMatch(/^pacu: replay gets fresh tokens with client credentials.*\n$/);
    const nowhere = await runCli([
      'replay',
      file,
      '--client-id',
      CLIENT.clientId,
      '--client-secret',
      CLIENT.clientSecret,
    ]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/^pacu: replay needs a target: --target URL.*\n$/);
  });
});
