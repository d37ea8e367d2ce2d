import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { createControlClient } from '../suites/index.ts';
import { call, postJson, tokenFor, transferBody } from './mock-helpers.ts';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function started(options: Parameters<typeof startMock>[0] = {}) {
  mock = await startMock({ clock: 'manual', log: () => {}, ...options });
  const control = createControlClient(mock.origin);
  const token = await tokenFor(mock);
  const transfer = (overrides: Record<string, unknown> = {}) =>
    postJson(
      `${mock?.url}/payments/usd/direct`,
      token,
      transferBody(mock?.seeded.merchantAccountId ?? '', overrides),
    );
  const raw = (body: Record<string, unknown>) =>
    fetch(`${mock?.url}/payments/usd/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const storedWith = async (reference: string) =>
    (await mock?.control.dumpState())?.transfers.filter(
      (t) => (t as { record: { reference: string } }).record.reference === reference,
    ) ?? [];
  return { mock, control, token, transfer, raw, storedWith };
}

const fault = (spec: Partial<FaultSpec> & Pick<FaultSpec, 'kind'>): FaultSpec => ({
  operation: 'usdTransfer',
  times: 1,
  ...spec,
});

describe('faults over real HTTP', () => {
  it('status: the error envelope with Retry-After, and the transfer is not made', async () => {
    const { control, transfer, storedWith } = await started();
    await control.addFault(fault({ kind: 'status', status: 503, retryAfter: 7 }));
    const body = { reference: 'REF-STATUS-1' };
    const first = await transfer(body);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(first.body).toMatchObject({
      success: false,
      message: expect.stringContaining('injected HTTP 503'),
    });
    expect(await storedWith('REF-STATUS-1')).toHaveLength(0);
    const retry = await transfer(body);
    expect(retry.status).toBe(200);
    expect(retry.body.message).toBe('Transfer created');
  });

  it('commit-then-status: the transfer is made, the client gets 500, and the retry returns the original transaction', async () => {
    const { control, raw, storedWith } = await started();
    await control.addFault(fault({ kind: 'commit-then-status', status: 500 }));
    const body = transferBody(mock?.seeded.merchantAccountId ?? '', { reference: 'REF-CTS-1' });
    const first = await raw(body);
    expect(first.status).toBe(500);
    const stored = await storedWith('REF-CTS-1');
    expect(stored).toHaveLength(1);
    const retry = await raw(body);
    const answer = (await retry.json()) as { message: string; data: { transaction_id: string } };
    expect(retry.status).toBe(200);
    expect(answer.message).toBe('Transfer already exists for this reference');
    expect(answer.data.transaction_id).toBe(
      (stored[0] as { record: { transaction_id: string } }).record.transaction_id,
    );
    expect(await storedWith('REF-CTS-1')).toHaveLength(1);
  });

  it('commit-then-reset: the client sees a connection error, the transfer exists, the retry returns it', async () => {
    const { control, raw, storedWith } = await started();
    await control.addFault(fault({ kind: 'commit-then-reset' }));
    const body = transferBody(mock?.seeded.merchantAccountId ?? '', { reference: 'REF-CTR-1' });
    const error = await raw(body).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(await storedWith('REF-CTR-1')).toHaveLength(1);
    const retry = (await (await raw(body)).json()) as { data: { transaction_id: string } };
    expect(retry.data.transaction_id).toBe(
      ((await storedWith('REF-CTR-1'))[0] as { record: { transaction_id: string } }).record.transaction_id,
    );
  });

  it('reset: a connection error and nothing made', async () => {
    const { control, raw, storedWith } = await started();
    await control.addFault(fault({ kind: 'reset' }));
    const body = transferBody(mock?.seeded.merchantAccountId ?? '', { reference: 'REF-RESET-1' });
    await expect(raw(body)).rejects.toThrow(/fetch failed/);
    expect(await storedWith('REF-RESET-1')).toHaveLength(0);
  });

  it('delay: the real answer, late', async () => {
    const { control, transfer } = await started();
    await control.addFault(fault({ kind: 'delay', ms: 300 }));
    const startedAt = performance.now();
    const reply = await transfer();
    expect(reply.status).toBe(200);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(290);
  });

  it('empty and malformed: 200 with no body, then 200 with truncated JSON', async () => {
    const { control, raw } = await started();
    await control.addFault(fault({ kind: 'empty' }));
    await control.addFault(fault({ kind: 'malformed' }));
    const empty = await raw(transferBody(mock?.seeded.merchantAccountId ?? ''));
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
    const malformed = await raw(transferBody(mock?.seeded.merchantAccountId ?? ''));
    const text = await malformed.text();
    expect(malformed.status).toBe(200);
    expect(text.startsWith('{"success":true')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('times counts firings, then the fault is gone; every firing is in the journal', async () => {
    const { control, transfer } = await started();
    const added = await control.addFault(fault({ kind: 'status', status: 502, times: 2 }));
    expect((await control.faults()).map((f) => f.id)).toEqual([added.id]);
    expect([(await transfer()).status, (await transfer()).status, (await transfer()).status]).toEqual([
      502, 502, 200,
    ]);
    expect(await control.faults()).toEqual([]);
    const fired = (await control.requests({ operation: 'usdTransfer' })).filter((entry) => entry.fault);
    expect(fired.map((entry) => [entry.status, entry.fault?.id])).toEqual([
      [502, added.id],
      [502, added.id],
    ]);
  });

  it('probability draws from the mock seed: the same seed fires on the same requests', async () => {
    const pattern = async (seed: number): Promise<number[]> => {
      const { control, transfer } = await started({ seed });
      await control.addFault({ operation: 'usdTransfer', kind: 'status', status: 429, probability: 0.5 });
      const statuses: number[] = [];
      for (let index = 0; index < 12; index++) statuses.push((await transfer()).status);
      await mock?.close();
      mock = undefined;
      return statuses;
    };
    const first = await pattern(5);
    expect(await pattern(5)).toEqual(first);
    expect(first).toContain(429);
    expect(first).toContain(200);
  });

  it('clientId and match scope a fault: other clients, references and amounts are untouched', async () => {
    const { control, transfer, mock: running } = await started();
    await control.addClient({ clientId: 'ci-job-2', clientSecret: 'job-2-secret' });
    const other = await tokenFor(running, { clientId: 'ci-job-2', clientSecret: 'job-2-secret', scopes: [] });
    await control.addFault({ operation: 'usdTransfer', kind: 'status', status: 503, clientId: 'ci-job-2' });
    await control.addFault({
      operation: 'usdTransfer',
      kind: 'status',
      status: 500,
      match: { reference: 'FAIL-.*', amount: 13.5 },
    });
    const body = transferBody(running.seeded.merchantAccountId);
    expect((await postJson(`${running.url}/payments/usd/direct`, other, body)).status).toBe(503);
    expect((await transfer()).status).toBe(200);
    expect((await transfer({ reference: 'FAIL-1', amount: 13.5 })).status).toBe(500);
    expect((await transfer({ reference: 'FAIL-2', amount: 14 })).status).toBe(200);
    expect((await transfer({ reference: 'XFAIL-3', amount: 13.5 })).status).toBe(200);
  });

  it('refuses a fault it cannot apply with 400 naming the field', async () => {
    const { control } = await started();
    for (const [bad, field] of [
      [{ operation: 'usdTransfers', kind: 'reset' }, '/operation'],
      [{ operation: 'usdTransfer', kind: 'status' }, '/status'],
      [{ operation: 'usdTransfer', kind: 'delay' }, '/ms'],
      [{ operation: 'usdTransfer', kind: 'reset', probability: 2 }, '/probability'],
      [{ operation: 'usdTransfer', kind: 'reset', match: { reference: '(' } }, '/match/reference'],
    ] as const) {
      await expect(control.addFault(bad as never)).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining(field),
      });
    }
  });

  it('takes faults from a scenario file, and in-process from mock.control.addFault', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-faults-')), 'scenario.yaml');
    writeFileSync(
      file,
      'rules: []\nfaults:\n  - { operation: listUsers, kind: status, status: 500, times: 1 }\n',
    );
    const { mock: running, token } = await started({ scenario: file });
    expect(
      (await call(`${running.url}/users`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(500);
    running.control.addFault({ operation: 'listUsers', kind: 'status', status: 429, times: 1 });
    const response = await running.request('/v3/users', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(429);
    writeFileSync(file, 'rules: []\nfaults:\n  - { operation: listUsers, kind: teapot }\n');
    await expect(startMock({ scenario: file })).rejects.toThrow(/\/faults\/0\/kind must be one of/);
  });
});
