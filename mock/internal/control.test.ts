import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type MockApp } from '../index.ts';

let app: MockApp;
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await app.request(`/__pacu${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  app = await createMock({ clock: 'manual' });
});
afterAll(() => app.close());

describe('control API', () => {
  it('reads the seeded ids and the demo client', async () => {
    const ids = await control('GET', '/ids');
    expect(ids.body).toEqual({
      ...app.seeded,
      clientId: 'pacu-demo',
      clientSecret: 'pacu-demo-secret',
      scopes: ['card', 'us_account'],
    });
  });

  it('creates a push-to-card payment that the interface then reads and the scenario settles', async () => {
    const created = await control('POST', '/payments/card', { amount: 42, card_number: '4000056655665556' });
    expect(created.body).toMatchObject({
      card_number: '400005******5556',
      transaction_status: 'processing',
      description: '',
    });
    expect((await control('POST', '/payments/card', { amount: 0.001 })).status).toBe(400);
    await control('POST', '/clock/advance', { seconds: 5 });
    const dump = await control('GET', '/state');
    const stored = dump.body.pushToCard.find(
      (p: { record: { transaction_id: string } }) => p.record.transaction_id === created.body.transaction_id,
    );
    expect(stored.record.transaction_status).toBe('successful');
  });

  it('refuses a broken scenario with 400 and the reason, and keeps the old one', async () => {
    const before = await control('GET', '/scenario');
    const reply = await control('PUT', '/scenario', {
      rules: [{ match: {}, steps: [{ after: 'soon', status: 'failed' }] }],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toContain('/rules/0/steps/0/after must be number');
    expect((await control('GET', '/scenario')).body).toEqual(before.body);
  });

  it('loads a dumped state back, and refuses something that is not one', async () => {
    const dump = (await control('GET', '/state')).body;
    await control('POST', '/payments/card', { amount: 1 });
    expect((await control('PUT', '/state', dump)).status).toBe(200);
    expect((await control('GET', '/state')).body.pushToCard).toHaveLength(dump.pushToCard.length);
    const broken = await control('PUT', '/state', { ...dump, users: [{ user_id: 1 }] });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toContain('/users/0');
  });

  it('resets data but keeps clients and receivers', async () => {
    await control('POST', '/clients', { clientId: 'job-7', clientSecret: 'pw', scopes: ['card'] });
    const receiver = await control('POST', '/webhooks/receivers', {
      url: 'http://127.0.0.1:9/hook',
      secret: 'whsec_AAAA',
    });
    await control('POST', '/payments/card', { amount: 3 });
    await control('POST', '/reset');
    const state = (await control('GET', '/state')).body;
    expect(state.pushToCard).toHaveLength(2);
    expect(state.clients.map((c: { clientId: string }) => c.clientId)).toContain('job-7');
    expect((await control('GET', '/webhooks/receivers')).body.map((r: { id: string }) => r.id)).toContain(
      receiver.body.id,
    );
    expect((await control('DELETE', `/webhooks/receivers/${receiver.body.id}`)).status).toBe(200);
    expect((await control('DELETE', `/webhooks/receivers/${receiver.body.id}`)).status).toBe(404);
  });

  it('answers 404 for unknown control paths and 405 for other methods', async () => {
    expect((await control('GET', '/nope')).status).toBe(404);
    expect((await control('DELETE', '/ids')).status).toBe(405);
  });
});

describe('control API on a real clock, or switched off', () => {
  it('answers 409 to advancing a real clock, and 404 everywhere when off', async () => {
    const real = await createMock();
    const reply = await real.request('/__pacu/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seconds":5}',
    });
    expect(reply.status).toBe(409);
    expect(((await reply.json()) as { error: string }).error).toContain('--clock manual');
    await real.close();
    const off = await createMock({ control: false });
    expect((await off.request('/__pacu/ids')).status).toBe(404);
    await off.close();
  });
});
