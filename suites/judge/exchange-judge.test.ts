import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/index.ts';
import type { ApiRequest } from '../target/api-request.ts';
import { createExchangeJudge, judgeExchange, type ObservedExchange } from './exchange-judge.ts';
import { createExchangeState } from './exchange-state.ts';

const spec = await loadSpec();
const transferExample = spec.operation('usdTransfer').requestBody?.examples.ach as Record<string, unknown>;
const createdExample = spec.operation('usdTransfer').responses.get(200)?.examples.created as Record<
  string,
  unknown
>;

let seq = 0;
function exchange(
  request: Partial<ApiRequest> & Pick<ApiRequest, 'path'>,
  status: number,
  body: unknown,
  at = 0,
  contentType = 'application/json',
): ObservedExchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {}
  return {
    seq: ++seq,
    startedAt: new Date(at).toISOString(),
    request: { method: 'POST', headers: {}, ...request },
    response: { status, headers: { 'content-type': contentType }, text, json, durationMs: 1 },
  };
}

const transfer = (body: Record<string, unknown>, status: number, answer: unknown, at = 0, token = 'tok-1') =>
  exchange(
    {
      path: '/payments/usd/direct',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    },
    status,
    answer,
    at,
  );

describe('judgeExchange', () => {
  it('passes the spec example exchange with no finding', () => {
    const verdict = judgeExchange(spec, transfer(transferExample, 200, createdExample), 'documented');
    expect(verdict.findings).toEqual([]);
    expect(verdict.checked).toContain('envelope.success-shape');
  });

  it('names the client when the request breaks the documented request schema', () => {
    const { recipient_name, ...rest } = transferExample;
    const verdict = judgeExchange(
      spec,
      transfer({ ...rest, receipient_name: recipient_name }, 200, createdExample),
      'documented',
    );
    expect(verdict.findings.map((f) => [f.side, f.rule])).toEqual([['client', 'client.request-shape']]);
  });

  it('names the provider for a broken success envelope, a broken error envelope, a 201 and a non-JSON answer', () => {
    const judged = (status: number, body: unknown, type?: string) =>
      judgeExchange(
        spec,
        exchange({ method: 'GET', path: '/users' }, status, body, 0, type),
        'documented',
      ).findings.map((f) => `${f.side} ${f.rule}`);
    expect(judged(200, { success: true, message: 'ok', data: { items: 'no' } })).toEqual([
      'provider envelope.success-shape',
    ]);
    expect(judged(400, { success: true, message: 'bad' })).toEqual(['provider envelope.error-shape']);
    expect(
      judged(201, {
        success: true,
        message: 'ok',
        data: { items: [], page: 1, total_count: 0, total_pages: 0 },
      }),
    ).toContain('provider envelope.status-code');
    expect(judged(200, '<html>hi</html>', 'text/html')).toEqual(['provider envelope.content-type']);
  });

  it('names the client for a token request without Basic credentials', () => {
    const token = exchange(
      {
        path: '/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      },
      400,
      { success: false, message: 'Invalid request' },
    );
    expect(judgeExchange(spec, token, 'documented').findings.map((f) => f.rule)).toEqual([
      'client.authorization',
    ]);
    const lower = {
      ...token,
      request: { ...token.request, headers: { ...token.request.headers, authorization: 'basic YTpi' } },
    };
    expect(judgeExchange(spec, lower, 'documented').findings).toEqual([]);
  });

  it('is a client finding to call an operation the description does not have', () => {
    const verdict = judgeExchange(spec, exchange({ method: 'GET', path: '/nowhere' }, 404, {}), 'documented');
    expect(verdict.findings.map((f) => f.rule)).toEqual(['client.operation']);
  });

  it('judges statuses outside 200 and 400 only under strict', () => {
    const teapot = exchange({ method: 'GET', path: '/users', headers: { authorization: 'Bearer t' } }, 418, {
      success: false,
      message: 'no',
    });
    expect(judgeExchange(spec, teapot, 'documented').findings).toEqual([]);
    expect(judgeExchange(spec, teapot, 'strict').findings.map((f) => f.rule)).toEqual([
      'envelope.status-code',
    ]);
  });
});

describe('createExchangeJudge', () => {
  it("gives judgeExchange's verdict on every exchange of a stream that repeats answers", () => {
    const users = (status: number, body: unknown, contentType?: string) =>
      exchange(
        { method: 'GET', path: '/users', headers: { authorization: 'Bearer t' } },
        status,
        body,
        0,
        contentType,
      );
    const list = spec.operation('listUsers').responses.get(200)?.examples;
    const good = Object.values(list ?? {})[0];
    const stream = [
      users(200, good),
      users(200, good),
      // The same text under another status, another content type, another operation: other verdicts.
      users(201, good),
      users(200, good, 'text/plain'),
      transfer(transferExample, 200, good),
      transfer({ ...transferExample, amount: 'ten' }, 200, good),
      users(200, { success: true }),
      users(200, { success: true }),
      users(400, { success: false }),
      users(400, { success: false, message: 'bad' }),
      users(200, 'not json'),
      users(200, 'not json'),
      exchange({ method: 'GET', path: '/nowhere' }, 404, {}),
    ];
    for (const profile of ['documented', 'strict'] as const) {
      const judge = createExchangeJudge(spec, profile);
      for (const item of [...stream, ...stream])
        expect(judge(item)).toEqual(judgeExchange(spec, item, profile));
    }
  });
});

describe('createExchangeState', () => {
  const token = (scope: string, granted: string, at: number, accessToken = 'tok-1') =>
    exchange(
      {
        path: '/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&scope=${scope}`,
      },
      200,
      {
        success: true,
        message: 'ok',
        data: { access_token: accessToken, expires_in_seconds: 3600, scope: granted, token_type: 'Bearer' },
      },
      at,
    );

  it('sees the same reference answered with another transaction id', () => {
    const state = createExchangeState();
    expect(state.observe('usdTransfer', transfer(transferExample, 200, createdExample))).toEqual([]);
    const other = {
      ...createdExample,
      data: { ...(createdExample.data as object), transaction_id: 'txn_other' },
    };
    const found = state.observe('usdTransfer', transfer(transferExample, 200, other));
    expect(found.map((f) => [f.side, f.rule])).toEqual([['provider', 'idempotency.same-reference-replay']]);
  });

  it('sees a token refused before its lifetime and one accepted long after it', () => {
    const state = createExchangeState();
    expect(state.observe('getAccessToken', token('card,us_account', 'card,us_account', 0))).toEqual([]);
    const refused = state.observe(
      'usdTransfer',
      transfer(transferExample, 401, { success: false, message: 'expired' }, 60_000),
    );
    expect(refused.map((f) => f.rule)).toEqual(['auth.token-refused-early']);
    const late = state.observe(
      'usdTransfer',
      transfer({ ...transferExample, reference: 'late' }, 200, createdExample, 2 * 3600_000),
    );
    expect(late.map((f) => f.rule)).toEqual(['auth.token-expired']);
  });

  it('sees a scope echoed that the token request did not ask for', () => {
    const state = createExchangeState();
    const found = state.observe('getAccessToken', token('card', 'card,us_account', 0));
    expect(found.map((f) => [f.rule, f.side])).toEqual([['auth.scope-echo', 'provider']]);
  });
});
