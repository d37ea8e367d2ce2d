// The mock records and judges its own traffic as the proxy does, through the same observers
// (decision 111): `pacu mock --record FILE.har --findings`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.ts';
import { call, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, mockOf, startCli } from './mock-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pacu-mock-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Entry {
  request: { method: string; url: string; headers: Array<{ name: string; value: string }> };
  response: { status: number; content: { text: string } };
  _operation?: string;
  _error?: string;
}
const entriesOf = (file: string): Entry[] => JSON.parse(readFileSync(file, 'utf8')).log.entries;

describe('pacu mock --record --findings', () => {
  it('records every exchange under its own URL, redacted, and prints a line per client finding', async () => {
    const file = path.join(dir, 'mock.har');
    const cli = await startCli(['--record', file, '--findings']);
    const mock = mockOf(cli.info);
    try {
      const token = await tokenFor(mock);
      await call(`${mock.url}/users`, { headers: { authorization: `Bearer ${token}` } });
      // The description's list of required fields spells the name so: a client-side finding.
      const { recipient_name: _, ...misspelt } = transferBody(cli.info.merchantAccountId as string);
      await postJson(`${mock.url}/payments/usd/direct`, token, { ...misspelt, receipient_name: 'Ann' });
      const entries = entriesOf(file);
      expect(
        entries.map((entry) => [entry.request.method, entry.request.url, entry.response.status]),
      ).toEqual([
        ['POST', `${mock.url}/auth/token`, 200],
        ['GET', `${mock.url}/users`, 200],
        ['POST', `${mock.url}/payments/usd/direct`, 400],
      ]);
      const text = readFileSync(file, 'utf8');
      for (const secret of [token, mock.demoClient.clientSecret]) expect(text).not.toContain(secret);
      for (let tries = 0; !cli.stderr().includes('client.request-shape') && tries < 100; tries++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cli.stderr()).toMatch(/^pacu: client client\.request-shape on usdTransfer \(#3 POST/m);
      expect(cli.stderr()).not.toContain(token);
    } finally {
      const ended = endOf(cli.child);
      cli.child.kill('SIGTERM');
      await ended;
    }
  });

  it('records a fault that resets the connection with _error, in process too (MockOptions.record)', async () => {
    const file = path.join(dir, 'fault.har');
    const mock = await startMock({ record: file, log: () => {} });
    try {
      const token = await tokenFor(mock);
      await mock.control.addFault({ operation: 'listUsers', kind: 'reset', times: 1 });
      await expect(
        fetch(`${mock.url}/users`, { headers: { authorization: `Bearer ${token}` } }),
      ).rejects.toThrow();
      const [, reset] = entriesOf(file);
      expect(reset?.response.status).toBe(0);
      expect(reset?._error).toMatch(/reset with no answer/);
    } finally {
      await mock.close();
    }
  });
});
