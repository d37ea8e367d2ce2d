import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { exitOf, mockOf, startCli } from './mock-process.ts';

describe('pacu mock', () => {
  it('prints one JSON line, stops on SIGTERM, and keeps accounts, transfers and references with --state', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-cli-')), 'state.jsonl');
    const first = await startCli(['--state', file, '--seed', '9']);
    expect(Object.keys(first.info)).toEqual(
      expect.arrayContaining([
        'url',
        'clientId',
        'clientSecret',
        'cardId',
        'cardTransactionId',
        'pushToCardId',
        'merchantAccountId',
      ]),
    );
    const mock = mockOf(first.info);
    const token = await tokenFor(mock);
    const account = await postJson(`${mock.url}/accounts`, token, {
      hold_balance: true,
      user_id: first.info.userId,
    });
    const body = transferBody(account.body.data.account_id, { reference: 'KEEP-ME' });
    const transfer = await postJson(`${mock.url}/payments/usd/direct`, token, body);
    expect(transfer.status).toBe(200);
    const exited = exitOf(first.child);
    first.child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const second = await startCli(['--state', file, '--seed', '9']);
    try {
      const url = second.info.url as string;
      expect(second.info.cardId).toBe(first.info.cardId);
      // The token, the account and the reference all survived the restart.
      const again = await postJson(`${url}/payments/usd/direct`, token, body);
      expect(again.body.data.transaction_id).toBe(transfer.body.data.transaction_id);
      const changed = await postJson(`${url}/payments/usd/direct`, token, { ...body, amount: 1 });
      expect(changed.status).toBe(409);
      expect((await getJson(`${url}/users`, token)).status).toBe(200);
      const origin = new URL(url).origin;
      const dump = (await call(`${origin}/__pacu/state`)).body;
      expect(dump.accounts.map((a: { record: { account_id: string } }) => a.record.account_id)).toContain(
        account.body.data.account_id,
      );
    } finally {
      const exited2 = exitOf(second.child);
      second.child.kill('SIGINT');
      expect(await exited2).toBe(0);
    }
  });

  it('refuses a corrupt state file at startup with one line naming the file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-cli-')), 'state.jsonl');
    writeFileSync(file, '{"format":"pacu-mock-state","version":1,"now":0,"seeded":{}}\nnot json\n');
    const error = await startCli(['--state', file]).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('exited with 2');
    expect((error as Error).message).toContain(`pacu: state file ${file} is corrupt at line 1`);
  });

  it('writes --coverage-report on shutdown, and refuses an extension that names no format', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-cov-'));
    const file = path.join(dir, 'coverage.html');
    const started = await startCli(['--clock', 'manual', '--coverage-report', file]);
    const url = started.info.url as string;
    const mock = { url, demoClient: { clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret', scopes: [] } };
    await getJson(`${url}/users`, await tokenFor(mock));
    const exited = exitOf(started.child);
    started.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // One prefix, as every line pacu prints.
    expect(started.stderr()).toContain(`pacu mock: coverage written to ${file}`);
    expect(started.stderr()).not.toContain('pacu: pacu');
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/<td>listUsers<\/td><td>200×1<\/td>/);
    expect(html).toMatch(/<li>no receiver acknowledged a p2p\.validated webhook<\/li>/);
    const error = await startCli(['--coverage-report', path.join(dir, 'coverage.txt')]).catch(
      (caught: Error) => caught,
    );
    expect((error as Error).message).toContain('exited with 2');
    expect((error as Error).message).toContain('name it .json, .md or .html');
  });
});
