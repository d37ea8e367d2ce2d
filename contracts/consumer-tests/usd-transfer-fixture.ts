import type { UsdTransferRequest } from '../../spec/index.ts';
import { match } from '../pact-consumer-adapter.ts';
import { PATTERNS, stateRef } from './consumer-kit.ts';

/** The example funds source; at verification the `an account exists` state supplies a real one. */
export const ACCOUNT_ID = 'acct_merchant_0001';
export const accountFromState: unknown = match.fromProviderState(stateRef('accountId'), ACCOUNT_ID);

/** The USD transfer pacu's consumers send. */
export const usdTransfer: UsdTransferRequest = {
  account_id: ACCOUNT_ID,
  account_number: '000123456789',
  account_type: 'CHECKING',
  amount: 1250.75,
  routing_number: '021000021',
  transfer_type: 'ACH',
  reference: 'INV-2024-0042',
  recipient_email: 'jane.doe@example.com',
  recipient_name: 'Jane Doe',
  description: 'Invoice 42 settlement',
};

/** The request body as Pact sees it: the account comes from the provider, the rest by type. */
export function usdTransferBody(request: UsdTransferRequest): unknown {
  return {
    ...request,
    account_id: accountFromState,
    account_number: match.regex('^[0-9]{4,17}$', request.account_number),
    account_type: match.regex(PATTERNS.accountType, request.account_type),
    amount: match.number(request.amount),
    routing_number: match.regex(PATTERNS.digits(9), request.routing_number),
    transfer_type: match.regex(PATTERNS.transferType, request.transfer_type),
    // A reference of its own on every verification: a fixed one would be a replay the second time
    // a long-lived provider is verified (answered 409 or with the first record, both legal).
    reference: match.fromProviderState(stateRef('freshReference'), request.reference),
    recipient_email: match.regex(PATTERNS.email, request.recipient_email),
    recipient_name: match.string(request.recipient_name),
    description: match.string(request.description ?? ''),
  };
}
