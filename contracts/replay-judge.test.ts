import { describe, expect, it } from 'vitest';
import { harEntry, routeHar } from '../http/index.ts';
import { loadSpec } from '../spec/index.ts';
import { replayDrift } from './replay-judge.ts';

const spec = await loadSpec();

const request = {
  account_id: 'acct_1',
  account_number: '000123456789',
  account_type: 'CHECKING',
  amount: 125.5,
  routing_number: '021000021',
  transfer_type: 'ACH',
  reference: 'inv-1',
  recipient_email: 'ada@example.com',
  recipient_name: 'Ada Lovelace',
};
const record = {
  ...request,
  description: '',
  transaction_date: '2026-01-01T00:00:00Z',
  transaction_id: 'T-1',
  transaction_status: 'processing',
};

const [exchange] = routeHar(spec, {
  log: {
    version: '1.2',
    creator: { name: 'test', version: '1' },
    entries: [
      harEntry({
        startedAt: new Date(0),
        durationMs: 1,
        method: 'POST',
        url: 'http://sandbox.test/v3/payments/usd/direct',
        requestHeaders: [{ name: 'content-type', value: 'application/json' }],
        requestBody: JSON.stringify(request),
        status: 200,
        statusText: 'OK',
        responseHeaders: [{ name: 'content-type', value: 'application/json' }],
        responseBody: JSON.stringify({ success: true, message: 'ok', data: record }),
      }),
    ],
  },
});

function drift(data: Record<string, unknown>): string[] {
  const text = JSON.stringify({ success: true, message: 'ok', data });
  return replayDrift({
    spec,
    profile: 'documented',
    exchange: exchange as NonNullable<typeof exchange>,
    sent: { method: 'POST', path: '/payments/usd/direct', headers: {}, body: JSON.stringify(request) },
    response: { status: 200, headers: {}, text, json: JSON.parse(text), durationMs: 1 },
    state: { ids: new Map(), recordedIds: new Map(), references: new Map(), token: undefined },
    sameReferences: false,
  });
}

describe("pacu replay's echo drift reads the spec's echo fact, as pacu check's echo rule does", () => {
  it('a documented field the recording echoed and the replay does not is drift', () => {
    expect(drift({ ...record, transaction_id: 'T-2', recipient_name: 'ADA' })).toEqual([
      'data.recipient_name is "ADA" but the request sent "Ada Lovelace": the answer echoes the request (the recording did)',
    ]);
  });

  it('a field the record does not document (account_id) is the provider’s own business', () => {
    const { account_id: _left, ...without } = record;
    expect(drift({ ...without, transaction_id: 'T-2' })).toEqual([]);
  });
});
