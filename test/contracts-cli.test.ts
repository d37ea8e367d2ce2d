import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACU_PACT_DIR } from '../contracts/index.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { runCli } from './helpers/run-cli.ts';
import { exitOf } from './mock-process.ts';

const cardsPact = join(PACU_PACT_DIR, 'pacu-merchant-cards-pacu-api.json');
const TOKEN = 'broken-provider-token';

const run = runCli;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A provider that issues tokens and serves card transactions right, but sends the card balance as text. */
function brokenProvider(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '';
  if (req.method === 'POST' && url === '/v3/auth/token') {
    const data = {
      access_token: TOKEN,
      expires_in_seconds: 3600,
      scope: 'card,us_account',
      token_type: 'Bearer',
    };
    send(res, 200, { success: true, message: 'Access token issued', data });
    return;
  }
  if (req.headers.authorization !== `Bearer ${TOKEN}`) {
    send(res, 401, { success: false, message: 'missing bearer token' });
    return;
  }
  const card = /^\/v3\/cards\/virtual\/([^/]+)$/.exec(url);
  if (card) {
    const data = {
      ...{
        card_id: card[1],
        card_name: 'Ops',
        card_brand: 'VISA',
        card_type: 'VIRTUAL',
        card_status: 'ACTIVE',
      },
      ...{ card_balance: '2500.00', currency: 'USD', cvv: '123', expiration: '09/27', first_six: '411111' },
      last_four: '1111',
    };
    send(res, 200, { success: true, message: 'Virtual card found', data });
    return;
  }
  const transaction = /^\/v3\/cards\/([^/]+)\/transactions\/([^/]+)$/.exec(url);
  if (transaction) {
    const data = {
      ...{ transaction_id: transaction[2], card_id: transaction[1], amount: 42.99, currency: 'USD' },
      ...{
        description: 'Office supplies',
        merchant_name: 'Paper Street',
        transaction_date: '2024-06-13T18:45:12Z',
      },
      // The one field of the record the description says is there, of the wrong type.
      ...{ transaction_status: 7, transaction_type: 'PURCHASE' },
    };
    send(res, 200, { success: true, message: 'Card transaction found', data });
    return;
  }
  send(res, 404, { success: false, message: 'not found' });
}

let server: Server;
let target: string;
let dir: string;
beforeAll(async () => {
  server = createServer(brokenProvider);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
  dir = await mkdtemp(join(tmpdir(), 'pacu-verify-cli-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('pacu verify', () => {
  it('fails against a broken provider and names the interaction and the field', async () => {
    const ids = ['--card-id', 'card_1', '--card-transaction-id', 'ctx_1'];
    const credentials = ['--client-id', 'merchant', '--client-secret', 'not-in-any-pact'];
    const result = await run(['verify', '--target', target, '--pact', cardsPact, ...credentials, ...ids]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `pacu verify: 2 interactions against ${target}: 1 verified, 1 failed, 0 skipped`,
    );
    expect(result.stdout).toContain('pacu-merchant-cards.a-request-for-a-transaction-of-a-virtual-card');
    expect(result.stdout).toMatch(
      /\$\.data\.transaction_status: Expected 7 \(Integer\) to be the same type as 'processing'/,
    );
    // The curl line replays what the verifier sent: the card the state gave, the token as a variable.
    const curl = result.stdout.split('\n').find((line) => line.includes('curl:')) ?? '';
    expect(curl).toContain(`'${target}/cards/card_1/transactions/ctx_1'`);
    expect(curl).toContain('"authorization: Bearer $PACU_TOKEN"');
    expect(result.stdout).not.toContain('example-access-token');
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stdout).not.toContain('not-in-any-pact');
  });

  it('keeps every credential out of every report file (json, junit, html, markdown, console)', async () => {
    const auth = JSON.parse(await readFile(join(PACU_PACT_DIR, 'pacu-merchant-auth-pacu-api.json'), 'utf8'));
    auth.interactions[0].response.body.content.data.refresh_token = 'never sent';
    await writeFile(join(dir, 'auth-fails.json'), JSON.stringify(auth));
    const reports = ['json', 'junit', 'html', 'markdown'].map((kind) => [kind, join(dir, `report.${kind}`)]);
    const result = await run([
      'verify',
      '--target',
      target,
      '--pact',
      join(dir, 'auth-fails.json'),
      '--pact',
      cardsPact,
      '--client-id',
      'merchant',
      '--client-secret',
      'not-in-any-pact',
      '--card-id',
      'card_1',
      '--card-transaction-id',
      'ctx_1',
      ...reports.flatMap(([kind, file]) => ['--reporter', `${kind}:${file}`]),
      '--reporter',
      'console',
    ]);
    expect(result.code).toBe(1);
    const basic = Buffer.from('merchant:not-in-any-pact').toString('base64');
    const texts = [
      result.stdout,
      ...(await Promise.all(reports.map(([, file]) => readFile(file ?? '', 'utf8')))),
    ];
    expect(texts.join('\n')).toContain('$.data: Actual map is missing the following keys: refresh_token');
    // The failing token request carried the real Basic credential: the report shows where it comes from instead.
    expect(texts[0]).toContain('-u "$PACU_CLIENT_ID:$PACU_CLIENT_SECRET"');
    for (const text of texts) {
      expect(text).not.toContain('not-in-any-pact');
      expect(text).not.toContain(basic);
      expect(text).not.toContain(TOKEN);
    }
  });

  it('says the curl lines point at the embedded mock that stopped, and offers --keep-mock', async () => {
    const pact = JSON.parse(await readFile(cardsPact, 'utf8'));
    pact.interactions[1].response.body.content.data.nickname = 'Ops';
    await writeFile(join(dir, 'nickname.json'), JSON.stringify(pact));
    const result = await run(['verify', '--pact', join(dir, 'nickname.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'note: the curl lines point at the embedded pacu mock, which stops with this run: rerun with --keep-mock to replay them',
    );
    const kept = await run(['verify', '--keep-mock', '--target', target]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toBe('pacu: --keep-mock keeps the embedded mock: drop --target\n');
  });

  it('checks a pact against the spec with --against-spec: agreeing passes, disagreeing names the place', async () => {
    const pact = JSON.parse(await readFile(cardsPact, 'utf8'));
    await writeFile(join(dir, 'agrees.json'), JSON.stringify(pact));
    const agrees = await run(['verify', '--against-spec', '--pact', join(dir, 'agrees.json')]);
    expect(agrees.code).toBe(0);

    pact.interactions[1].response.body.content.data.card_balance = '2500.00';
    pact.interactions[1].request.path = '/virtual-cards/card_1';
    await writeFile(join(dir, 'disagrees.json'), JSON.stringify(pact));
    const disagrees = await run(['verify', '--against-spec', '--pact', join(dir, 'disagrees.json')]);
    expect(disagrees.code).toBe(1);
    expect(disagrees.stdout).toContain(
      'a request for a virtual card: request $.path: the spec has no operation at GET /virtual-cards/card_1',
    );
    // No provider was called: the curl lines send to the provider the user names, not the spec's made-up host.
    expect(disagrees.stdout).not.toContain('sandbox.payments.test');
    expect(disagrees.stdout).toMatch(/curl: +curl -i -X GET "\$PACU_TARGET"'\/virtual-cards\/card_1'/);
    expect(disagrees.stdout).toContain(
      "note: --against-spec called no provider: the curl lines send to $PACU_TARGET, set to your provider's base URL (a pacu mock's is http://127.0.0.1:4010/v3 after npx pacu-kit mock --port 4010)",
    );
  });

  it.each([
    [['--broker-url', 'https://broker.test'], 'pacu: --broker-url needs --provider-version V'],
    [['--publish'], 'pacu: --provider-version, --provider-version-branch, --publish,'],
    [['--enable-pending'], 'go with --broker-url URL'],
    [
      ['--broker-url', 'broker.test', '--provider-version', '1'],
      'pacu: --broker-url "broker.test" is not an http(s) URL',
    ],
    [
      ['--broker-url', 'https://broker.test', '--provider-version', '1', '--pact', cardsPact],
      'pacu: take pacts from --pact files or from --broker-url, not both',
    ],
    [
      ['--against-spec', '--target', 'http://127.0.0.1:1/v3'],
      'pacu: --against-spec calls no provider: drop --target',
    ],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const result = await run(['verify', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });

  it('exits 2 with one line when the target does not answer', async () => {
    const result = await run(['verify', '--target', 'http://127.0.0.1:9/v3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'pacu: cannot reach target http://127.0.0.1:9/v3: connection refused. Is the target URL right and the server up?\n',
    );
  });

  it('--keep-mock keeps the embedded mock up after a failure, so the curl line replays, until SIGINT', async () => {
    const pact = JSON.parse(await readFile(cardsPact, 'utf8'));
    pact.interactions[1].response.body.content.data.nickname = 'Ops';
    await writeFile(join(dir, 'keep.json'), JSON.stringify(pact));
    const child = spawn(
      process.execPath,
      [PACU_BIN, 'verify', '--keep-mock', '--pact', join(dir, 'keep.json')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const kept = await new Promise<string>((resolve) =>
      lines.on('line', (line) => {
        if (line.includes('keeps running at')) resolve(line);
      }),
    );
    const url = /keeps running at (\S+)/.exec(kept)?.[1] ?? '';
    const answer = await fetch(`${url}/users`);
    expect(answer.status).toBeLessThan(500);
    const exit = exitOf(child);
    child.kill('SIGINT');
    expect(await exit).toBe(1);
  });
});
