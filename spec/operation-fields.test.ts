import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.ts';
import { echoOf } from './operation-fields.ts';

const spec = await loadSpec();

describe('echoOf: what an answer repeats of its request, read from the spec', () => {
  it('the USD transfer echoes the request fields its record documents, as a sentence states', () => {
    const echo = echoOf(spec.operation('usdTransfer'));
    expect(echo).toMatchObject({ stated: true, of: 'request' });
    expect([...(echo?.fields ?? [])].sort()).toEqual(
      [
        'account_number',
        'account_type',
        'amount',
        'description',
        'recipient_email',
        'recipient_name',
        'reference',
        'routing_number',
        'transfer_type',
      ].sort(),
    );
  });

  it('the token answer echoes the scope granted, not necessarily the one asked', () => {
    expect(echoOf(spec.operation('getAccessToken'))).toEqual({
      fields: ['scope'],
      stated: true,
      of: 'grant',
    });
  });

  it("a payout record or a read repeating what was sent is pacu's expectation, not a sentence", () => {
    expect(echoOf(spec.operation('walletPayout'))).toMatchObject({ stated: false, of: 'request' });
    expect(echoOf(spec.operation('getVirtualCard'))).toEqual({
      fields: ['card_id'],
      stated: false,
      of: 'request',
    });
  });

  it('an operation whose record documents none of the request fields echoes nothing', () => {
    expect(echoOf(spec.operation('createAccount'))).toBeUndefined();
    expect(echoOf(spec.operation('listUsers'))).toBeUndefined();
  });
});
