// The surface kit (decisions 160, 169): `pacu mock --findings` judges with the mock's redactor under
// --profile, the route rides on the end event, the mock's recording and journal mask card data, and
// a mock made from such a recording still serves whole card records.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestEnd } from '../http/index.ts';
import { createMock, type RunningMock, startMock } from '../mock/index.ts';
import { appToken, getJson, tokenFor } from './mock-helpers.ts';
import { endOf, startCli } from './mock-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pacu-kit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const har = path.join(dir, 'mock.har');
const ends: RequestEnd[] = [];
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ record: har, log: () => {}, observers: [{ end: (event) => ends.push(event) }] });
});
afterAll(() => mock?.close());

describe('pacu mock --findings', () => {
  it('judges under --profile strict what the documented profile leaves alone', async () => {
    const started = await startCli(['--findings', '--profile', 'strict']);
    // listUsers' bearer token is a decision of pacu's, not a sentence of the description.
    await fetch(`${started.info.url}/users`).then((answer) => answer.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const done = endOf(started.child);
    started.child.kill('SIGTERM');
    await done;
    expect(started.stderr()).toMatch(/pacu: client \S+ on listUsers .*takes Bearer authentication/);
  }, 60_000);
});

describe("the mock's kit", () => {
  it('carries the route it found for a request on the request’s end event', async () => {
    const token = await tokenFor(mock);
    await getJson(`${mock.url}/users`, token);
    const event = ends.find((end) => end.request.path === '/v3/users');
    expect(event?.route?.kind).toBe('operation');
    expect(event?.route?.kind === 'operation' && event.route.operation.id).toBe('listUsers');
  });

  it('masks card data in its recording and journal, and a mock made from that recording serves whole cards', async () => {
    const token = await tokenFor(mock);
    const card = await getJson(`${mock.url}/cards/virtual/${mock.seeded.cardId}`, token);
    const cvv = card.body.data.cvv as string;
    await fetch(`${mock.url}/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: mock.seeded.userId, card_number: '4111111111111111', cvv: '737' }),
    });
    const journal = await (await fetch(`${mock.origin}/__pacu/requests`)).text();
    expect(journal).not.toContain('4111111111111111');
    expect(JSON.parse(journal).at(-1).body).toMatchObject({
      card_number: '411111******1111',
      cvv: '[redacted]',
    });
    const entries = JSON.parse(readFileSync(har, 'utf8')).log.entries as Array<{
      request: { url: string };
      response: { content: { text: string } };
    }>;
    const recorded = entries.find((entry) => entry.request.url.includes('/cards/virtual/'));
    expect(JSON.parse(recorded?.response.content.text ?? '{}').data.cvv).toBe('[redacted]');
    expect(readFileSync(har, 'utf8')).not.toContain(`"cvv\\":\\"${cvv}\\"`);
    const learned = await createMock({ fromRecording: har, log: () => {} });
    try {
      const served = await learned.request(`/v3/cards/virtual/${mock.seeded.cardId}`, {
        headers: { authorization: `Bearer ${await appToken(learned)}` },
      });
      expect(((await served.json()) as { data: { cvv: string } }).data.cvv).toMatch(/^[0-9]{3}$/);
    } finally {
      await learned.close();
    }
  });
});
