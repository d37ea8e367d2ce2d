import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harEntry, type RoutedExchange, routeHar, SECRET_STAND_INS } from '../http/index.ts';
import { loadSpec } from '../spec/index.ts';
import { basic } from '../suites/index.ts';
import {
  freshReference,
  needsFreshToken,
  REFERENCE_LIMIT,
  type ReplayState,
  replayRequest,
} from './replay-request.ts';

const CREDENTIALS = { clientId: 'replayer', clientSecret: 'replay-secret' };

async function routed(
  method: string,
  path: string,
  authorization: string,
  body?: unknown,
): Promise<RoutedExchange> {
  const spec = await loadSpec();
  const entry = harEntry({
    startedAt: new Date(0),
    durationMs: 1,
    method,
    url: `https://sandbox.example.com/v3${path}`,
    requestHeaders: [
      { name: 'Authorization', value: authorization },
      { name: 'x-request-id', value: 'abc' },
      ...(body === undefined ? [] : [{ name: 'Content-Type', value: 'application/json' }]),
    ],
    ...(body === undefined ? {} : { requestBody: JSON.stringify(body) }),
    status: 200,
    statusText: 'OK',
    responseHeaders: [],
    responseBody: '{}',
  });
  const [exchange] = routeHar(spec, {
    log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] },
  });
  return exchange as RoutedExchange;
}

const state = (): ReplayState => ({
  ids: new Map(),
  recordedIds: new Map(),
  references: new Map(),
  token: 'fresh-token',
});

describe('replayRequest', () => {
  it('sends the run client for a redacted Basic credential and its own token for a redacted bearer', async () => {
    const tokenRequest = await routed('POST', '/auth/token', `Basic <${SECRET_STAND_INS.redacted}>`);
    expect(replayRequest(tokenRequest, state(), CREDENTIALS).headers).toEqual(
      basic(CREDENTIALS.clientId, CREDENTIALS.clientSecret),
    );
    const read = await routed('GET', '/users', `Bearer ${SECRET_STAND_INS.token}`);
    expect(needsFreshToken(read)).toBe(true);
    expect(replayRequest(read, state(), CREDENTIALS).headers).toEqual({
      authorization: 'Bearer fresh-token',
    });
    const deliberate = await routed('GET', '/users', 'Bearer pacu-never-issued-1');
    expect(replayRequest(deliberate, state(), CREDENTIALS).headers).toEqual({
      authorization: 'Bearer pacu-never-issued-1',
    });
  });

  it('puts the ids the target answered and the fresh references in place of the recorded ones', async () => {
    const replay = state();
    replay.ids.set('acct_recorded', 'acct_new');
    replay.ids.set('card 1', 'card/2');
    replay.references.set('inv-1', 'inv-1-abc');
    const transfer = await routed('POST', '/payments/usd/direct', 'Bearer $PACU_TOKEN', {
      account_id: 'acct_recorded',
      reference: 'inv-1',
      description: 'inv-1',
    });
    expect(JSON.parse(replayRequest(transfer, replay, CREDENTIALS).body ?? '')).toEqual({
      account_id: 'acct_new',
      reference: 'inv-1-abc',
      description: 'inv-1',
    });
    const card = await routed('GET', '/cards/virtual/card%201', 'Bearer $PACU_TOKEN');
    expect(replayRequest(card, replay, CREDENTIALS).path).toBe('/cards/virtual/card%2F2');
  });
});

describe('freshReference', () => {
  it('fits pacu’s 64 characters, keeps the start of the recorded one and differs from it', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 10, maxLength: 10 }),
        (recorded, tag) => {
          const fresh = freshReference(recorded, tag);
          expect(fresh.length).toBeLessThanOrEqual(REFERENCE_LIMIT);
          expect(fresh).not.toBe(recorded);
          expect(fresh.endsWith(`-${tag}`)).toBe(true);
          expect(recorded.startsWith(fresh.slice(0, -tag.length - 1))).toBe(true);
        },
      ),
      { seed: 42 },
    );
  });
});
