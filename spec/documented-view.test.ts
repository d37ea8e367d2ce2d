import { describe, expect, it } from 'vitest';
import { compileSchema, loadSpec, schemaForProfile } from './index.ts';

// What a legal provider may send under `documented`, and what only pacu's strict view refuses.
describe('the documented view says what the description states, no more and no less', async () => {
  const spec = await loadSpec();
  const check = (name: string, profile: 'documented' | 'strict') =>
    compileSchema(schemaForProfile(spec.schema(name), profile));
  const transfer = {
    success: true,
    message: 'Transfer created',
    data: {
      account_number: '000123456789',
      account_type: 'CHECKING',
      amount: 12.5,
      reference: 'INV-1',
      recipient_email: 'jane.doe@example.com',
      recipient_name: 'Jane Doe',
      routing_number: '021000021',
      transaction_date: '2024-06-14T10:20:00Z',
      transaction_id: 'txn_1',
      transaction_status: 'processing',
      transfer_type: 'ACH',
    },
  };

  it('finding 1: a USD transfer record without the description nobody sent is documented; strict wants one', () => {
    expect(check('UsdTransferResponse', 'documented')(transfer)).toEqual([]);
    expect(check('UsdTransferResponse', 'strict')(transfer)).not.toEqual([]);
  });

  it('finding 1: the fields the note says the response adds stay required under documented', () => {
    const { transaction_id: _dropped, ...data } = transfer.data;
    expect(check('UsdTransferResponse', 'documented')({ ...transfer, data })).not.toEqual([]);
  });

  it('finding 3: an error envelope with a third field breaks "only message and success"', () => {
    const error = check('ErrorEnvelope', 'documented');
    expect(error({ success: false, message: 'Invalid request' })).toEqual([]);
    expect(error({ success: false, message: 'Invalid request', data: null })).not.toEqual([]);
    expect(error({ success: false })).not.toEqual([]);
  });

  it('finding 4: the granted scope is a comma-separated list of names, and is there', () => {
    const token = (scope: unknown) => ({
      success: true,
      message: 'Token issued',
      data: { access_token: 'at', token_type: 'Bearer', expires_in_seconds: 60, scope },
    });
    const documented = check('TokenResponse', 'documented');
    expect(documented(token('card,us_account'))).toEqual([]);
    expect(documented(token('card, us_account'))).toEqual([]);
    expect(documented(token('card us_account'))).not.toEqual([]);
    expect(documented(token(''))).not.toEqual([]);
    const { scope: _none, ...withoutScope } = token('card').data;
    expect(documented({ success: true, message: 'Token issued', data: withoutScope })).not.toEqual([]);
  });
});
