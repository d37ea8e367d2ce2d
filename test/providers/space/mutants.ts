import type { OperationId } from '../../../spec/index.ts';
import { RECORD_ROWS, REQUEST_ROWS } from './stated-fields.ts';

/** What a mutant provider does wrong; everything else it does as the base provider does. */
export type Mutation =
  | { readonly kind: 'behaviour'; readonly name: Behaviour }
  /** The record of `operation` carries `value` at `field` (a dotted path) instead of the right one. */
  | {
      readonly kind: 'record';
      readonly operation: OperationId;
      readonly field: string;
      readonly value: unknown;
    }
  /** The request field is taken whatever it holds, or lacks (no presence, type, enum or format check). */
  | { readonly kind: 'request'; readonly operation: OperationId; readonly field: string }
  /** The operation is not served at its path (a 404 there, as for any unknown path). */
  | { readonly kind: 'moved'; readonly operation: OperationId };

export type Behaviour = (typeof BEHAVIOURS)[number]['name'];

export interface Mutant {
  readonly name: string;
  /** A verbatim substring of the description: the statement this mutant breaks, and nothing else. */
  readonly key: string;
  /** Other statements that say the same thing in other words (the intro list, the endpoint table). */
  readonly also: readonly string[];
  /** The rule(s) that must fail on it. */
  readonly rules: readonly string[];
  readonly mutation: Mutation;
  /** Cases per property needed to meet the broken input (a few for a break every answer shows). */
  readonly runs: number;
}

const ENVELOPE = '| success | boolean | true on success, false on error |';
const IDEMPOTENCY = 'the reference field serves as the idempotency and tracking key chosen by the merchant';
const CONDITIONS =
  'Which conditions lead to 400 (missing required fields, invalid values, unknown identifiers)';

/** Mutants of behaviour: one stated sentence broken each. */
interface BehaviourRow {
  readonly name: string;
  readonly key: string;
  readonly rules: readonly string[];
  readonly also?: readonly string[];
}

const BEHAVIOURS = [
  {
    name: 'error-extra-data',
    key: 'Error envelope: only `message` (string) and `success` (boolean, false).',
    rules: ['envelope.error-shape'],
  },
  { name: 'error-success-true', key: ENVELOPE, rules: ['envelope.error-shape'] },
  {
    name: 'error-without-message',
    key: 'Every operation can answer HTTP 400 with the error envelope: `success` is false and `message` is a string',
    rules: ['envelope.error-shape'],
  },
  { name: 'success-flag-false', key: ENVELOPE, rules: ['envelope.success-shape'] },
  {
    name: 'success-message-not-a-string',
    key: '| message | string | human-readable text |',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'success-without-data',
    key: '| data | object | present on success responses; shape depends on the operation |',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'text-plain-answers',
    key: 'All request and response bodies are JSON',
    rules: ['envelope.content-type'],
  },
  {
    name: 'account-created-201',
    key: 'All success responses use HTTP 200 and the response envelope.',
    rules: ['positive.accepted'],
  },
  {
    name: 'scope-not-echoed',
    key: 'The granted scope is echoed in the scope field of the response.',
    rules: ['auth.token-grant'],
  },
  {
    name: 'scope-space-separated',
    key: 'comma-separated scope names',
    rules: ['auth.token-grant'],
    also: ['The token request carries the scope field, a comma-separated list.'],
  },
  {
    name: 'scope-names-renamed',
    key: 'Scope names shown: card and us_account.',
    rules: ['auth.token-grant'],
  },
  {
    name: 'any-grant-type',
    key: 'grant_type is client_credentials',
    rules: ['auth.token-refusals'],
    also: [
      '| 1 | POST | /auth/token | Content-Type application/x-www-form-urlencoded. Fields: grant_type (value client_credentials)',
    ],
  },
  {
    name: 'any-client-secret',
    key: 'the password is the client_secret',
    rules: ['auth.token-refusals'],
    also: ['Obtain a bearer access token with client credentials.'],
  },
  {
    name: 'every-second-token-not-a-string',
    key: '| access_token | string |',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'token-without-type',
    key: 'The token response returns access_token (`<ACCESS_TOKEN>`), token_type and expires_in_seconds.',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'transfer-without-bearer',
    key: 'The USD transfer operation (endpoint 2) is secured with the bearer scheme',
    rules: ['auth.bearer-required'],
    also: ['Access is by bearer token.'],
  },
  {
    name: 'reads-outside-base',
    key: 'All paths below are relative to it.',
    rules: ['positive.accepted'],
    also: ['All paths are relative to `{base_url}`.'],
  },
  {
    name: 'users-without-paging',
    key: 'The response carries page, total_count and total_pages.',
    rules: ['envelope.success-shape'],
  },
  { name: 'replay-new-transaction', key: IDEMPOTENCY, rules: ['idempotency.same-reference-replay'] },
  {
    name: 'reused-reference-new-transaction',
    key: IDEMPOTENCY,
    rules: ['idempotency.same-reference-different-body'],
  },
  { name: 'concurrent-duplicates', key: IDEMPOTENCY, rules: ['idempotency.concurrent-requests'] },
  { name: 'echo-altered', key: 'The response echoes the request fields', rules: ['positive.echoes-request'] },
  {
    name: 'transfer-created-successful',
    key: 'A newly created USD transfer, wallet payout and push-to-card payment carries the status processing',
    rules: ['positive.creation-values'],
  },
  {
    name: 'wallet-created-successful',
    // Only shown, in the examples: not judged under documented (statements index: not-shown).
    key: 'carries the status processing in the examples of responses',
    rules: ['positive.creation-values'],
  },
  {
    name: 'account-created-pending',
    key: 'ACTIVE is the value returned on creation',
    rules: ['positive.creation-values'],
    also: ['| Account | account_status | ACTIVE (value returned on creation) |'],
  },
  {
    name: 'account-balance-nonzero',
    key: '| balance | number | 0 on creation |',
    rules: ['positive.creation-values'],
  },
  {
    name: 'numbers-without-rtp',
    key: 'the returned numbers object holds one account number and routing number per rail (ACH, RTP, WIRE)',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'invalid-body-500',
    key: 'Every operation can answer HTTP 400 with the error envelope',
    rules: ['errors.invalid-body'],
  },
  {
    name: 'malformed-json-500',
    key: 'All request and response bodies are JSON',
    rules: ['errors.malformed-request'],
  },
  { name: 'unknown-id-accepted', key: CONDITIONS, rules: ['errors.unknown-id'] },
  { name: 'unknown-id-500', key: CONDITIONS, rules: ['errors.unknown-id'] },
  { name: 'misspelt-recipient-required', key: 'Clients send recipient_name', rules: ['positive.accepted'] },
  {
    name: 'rtp-transfer-accepted',
    key: '| transfer_type | string | yes | One of ACH, WIRE |',
    rules: ['errors.invalid-body'],
  },
  {
    name: 'missing-grant-type-accepted',
    key: 'grant_type is client_credentials',
    rules: ['auth.token-refusals'],
    also: ['Fields: grant_type (value client_credentials)'],
  },
  {
    name: 'large-amounts-as-strings',
    key: '| amount | number | |',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'token-without-type-for-one-scope',
    key: 'The token response returns access_token (`<ACCESS_TOKEN>`), token_type and expires_in_seconds.',
    rules: ['envelope.success-shape'],
  },
  {
    name: 'tokens-die-early',
    key: 'The token response returns access_token (`<ACCESS_TOKEN>`), token_type and expires_in_seconds.',
    rules: ['auth.token-refused-early'],
    also: ['| expires_in_seconds | integer |'],
  },
  {
    name: 'every-transfer-amount-refused',
    key: '| amount | number | yes | |',
    rules: ['positive.accepted'],
  },
  {
    name: 'users-total-pages-off-by-one',
    // No sentence relates total_pages to total_count: pacu's decision, judged under strict only.
    key: 'Endpoint 8: query parameters (paging, filtering): not shown.',
    rules: ['envelope.related-fields'],
  },
  {
    name: 'p2p-message-without-webhook',
    key: 'Endpoint 9: the response message states that the status of the validation request is delivered through a webhook.',
    rules: ['positive.message-states'],
  },
] as const satisfies readonly BehaviourRow[];

/** Each operation missing from its path, keyed by its row of the endpoint table and its line of the intro. */
const MOVED: ReadonlyArray<readonly [OperationId, string, readonly string[]]> = [
  ['usdTransfer', '| 2 | POST | /payments/usd/direct |', ['Send a USD bank transfer (ACH or WIRE)']],
  [
    'walletPayout',
    '| 3 | POST | /payments/wallet |',
    ["Send a payout to a wallet-provider account identified by the recipient's e-mail."],
  ],
  [
    'createAccount',
    '| 4 | POST | /accounts |',
    ['Create a US bank account for a customer (user) of the merchant.'],
  ],
  ['getCardTransaction', '| 5 | GET | /cards/{card_id}/transactions/{transaction_id} |', []],
  [
    'getPushToCardPayment',
    '| 6 | GET | /payments/card/{transaction_id} |',
    ['Read the final status of a push-to-card payment.'],
  ],
  [
    'getVirtualCard',
    '| 7 | GET | /cards/virtual/{card_id} |',
    ['Read a virtual card and a virtual-card transaction.'],
  ],
  ['listUsers', '| 8 | GET | /users |', ["List the merchant's customers (users)."]],
  [
    'getP2pStatus',
    '| 9 | GET | /p2p/status/{user_id} |',
    ['Read the validation status of a bank-network (p2p) identifier of a user.'],
  ],
];

/** Every mutant: behaviours, moved operations, then one per stated record row and per stated request row. */
export const MUTANTS: readonly Mutant[] = [
  ...(BEHAVIOURS as readonly (BehaviourRow & { readonly name: Behaviour })[]).map(
    ({ name, key, rules, also = [] }) => ({
      name,
      key,
      also,
      rules,
      mutation: { kind: 'behaviour', name } as const,
      runs: 20,
    }),
  ),
  ...MOVED.map(([operation, key, also]) => ({
    name: `${operation} not at its path`,
    key,
    also,
    rules: ['positive.accepted'],
    mutation: { kind: 'moved', operation } as const,
    runs: 2,
  })),
  ...RECORD_ROWS.map(({ operation, field, row, wrong, also = [] }) => ({
    name: `${operation} record ${field}`,
    key: row,
    also,
    rules: ['envelope.success-shape'],
    mutation: { kind: 'record', operation, field, value: wrong } as const,
    runs: 2,
  })),
  ...REQUEST_ROWS.map(({ operation, field, row }) => ({
    name: `${operation} request ${field} unchecked`,
    key: row,
    also: [],
    rules: ['errors.invalid-body'],
    mutation: { kind: 'request', operation, field } as const,
    runs: 40,
  })),
];
