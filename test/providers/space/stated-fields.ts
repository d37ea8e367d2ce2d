import type { OperationId } from '../../../spec/index.ts';

// The field tables of the interface description, copied by hand (not read from pacu's spec/): the
// space provider validates requests by them, and each row is the key of the mutant that breaks it.

export interface RequestRow {
  readonly operation: OperationId;
  readonly field: string;
  readonly type: 'string' | 'number' | 'boolean';
  /** `yes` when the table says so; `knob` where the description leaves it open. */
  readonly required: 'yes' | 'no' | 'knob';
  readonly values?: readonly string[];
  readonly email?: boolean;
  /** Verbatim words of the row. */
  readonly row: string;
}

const transfer = (
  field: string,
  type: RequestRow['type'],
  row: string,
  values?: readonly string[],
): RequestRow => ({
  operation: 'usdTransfer',
  field,
  type,
  required: field === 'description' ? 'no' : 'yes',
  row,
  ...(values ? { values } : {}),
});

export const REQUEST_ROWS: readonly RequestRow[] = [
  transfer(
    'account_id',
    'string',
    '| account_id | string | yes | Identifier of the US account the funds are taken from.',
  ),
  transfer('account_number', 'string', "| account_number | string | yes | Recipient's bank account number |"),
  transfer('account_type', 'string', '| account_type | string | yes | One of CHECKING, SAVINGS, BUSINESS |', [
    'CHECKING',
    'SAVINGS',
    'BUSINESS',
  ]),
  transfer('amount', 'number', '| amount | number | yes | |'),
  transfer(
    'routing_number',
    'string',
    "| routing_number | string | yes | Routing number of the recipient's bank |",
  ),
  transfer('transfer_type', 'string', '| transfer_type | string | yes | One of ACH, WIRE |', ['ACH', 'WIRE']),
  transfer(
    'reference',
    'string',
    '| reference | string | yes | Merchant-supplied unique reference, used for idempotency and tracking |',
  ),
  transfer('recipient_email', 'string', '| recipient_email | string | yes | |'),
  transfer('recipient_name', 'string', '| recipient_name | string | yes (see note) |'),
  transfer('description', 'string', '| description | string | no | |'),
  {
    operation: 'walletPayout',
    field: 'account_id',
    type: 'string',
    required: 'knob',
    row: "| account_id | string | Identifier of the US account the funds are taken from (the merchant's US account identifier when hold_balance is false for the account) |",
  },
  {
    operation: 'walletPayout',
    field: 'amount',
    type: 'number',
    required: 'knob',
    row: '| amount | number | |',
  },
  {
    operation: 'walletPayout',
    field: 'wallet_id',
    type: 'string',
    required: 'knob',
    email: true,
    row: "| wallet_id | string | The recipient's wallet identifier, which is an e-mail |",
  },
  {
    operation: 'walletPayout',
    field: 'recipient_name',
    type: 'string',
    required: 'knob',
    row: '| recipient_name | string | |',
  },
  {
    operation: 'walletPayout',
    field: 'description',
    type: 'string',
    required: 'knob',
    row: '| description | string | |',
  },
  {
    operation: 'createAccount',
    field: 'hold_balance',
    type: 'boolean',
    required: 'knob',
    row: '| hold_balance | boolean | whether the account holds a balance of its own |',
  },
  {
    operation: 'createAccount',
    field: 'user_id',
    type: 'string',
    required: 'yes',
    row: "| user_id | string | identifier of the merchant's customer (user) |",
  },
];

export interface RecordRow {
  readonly operation: OperationId;
  /** Dotted path inside `data`. */
  readonly field: string;
  /** A value the row rules out. */
  readonly wrong: unknown;
  readonly row: string;
  /** The same fact stated elsewhere (the states table). */
  readonly also?: readonly string[];
}

const NOT_UTC = '2024-06-01T12:00:00+02:00';
const rows = (
  operation: OperationId,
  list: ReadonlyArray<readonly [string, unknown, string, (readonly string[])?]>,
): RecordRow[] =>
  list.map(([field, wrong, row, also]) => ({ operation, field, wrong, row, ...(also ? { also } : {}) }));

export const RECORD_ROWS: readonly RecordRow[] = [
  ...rows('getAccessToken', [
    ['expires_in_seconds', 3600.5, '| expires_in_seconds | integer |'],
    ['token_type', 7, '| token_type | string |'],
  ]),
  ...rows('usdTransfer', [
    ['account_number', 123456789, '| account_number | string | |'],
    ['account_type', 'MONEY_MARKET', '| account_type | string | CHECKING, SAVINGS or BUSINESS |'],
    ['amount', '12.50', '| amount | number | |'],
    ['description', 0, '| description | string | |'],
    ['reference', 42, '| reference | string | |'],
    ['recipient_email', 1, '| recipient_email | string | |'],
    ['recipient_name', 1, '| recipient_name | string | |'],
    ['routing_number', 21000021, '| routing_number | string | |'],
    ['transaction_date', NOT_UTC, '| transaction_date | string | timestamp in ISO 8601 UTC form'],
    ['transaction_id', 981, '| transaction_id | string | identifier of the transaction |'],
    [
      'transaction_status',
      'pending',
      '| transaction_status | string | one of processing, successful, failed |',
      ['| USD transfer | transaction_status | processing, successful, failed |'],
    ],
    ['transfer_type', 'SEPA', '| transfer_type | string | ACH or WIRE |'],
  ]),
  ...rows('walletPayout', [
    ['amount', '80.50', '| amount | number |'],
    ['description', 0, '| description | string |'],
    ['wallet_id', 8812, '| wallet_id | string |'],
    ['recipient_name', 1, '| recipient_name | string |'],
    ['transaction_date', NOT_UTC, '| transaction_date | string (ISO 8601 UTC timestamp) |'],
    ['transaction_id', 981, '| transaction_id | string |'],
    ['transaction_status', 1, '| transaction_status | string (the value processing is shown on creation) |'],
  ]),
  ...rows('createAccount', [
    ['account_id', 42, '| account_id | string | |'],
    ['account_status', 1, '| account_status | string | ACTIVE is the value returned on creation |'],
    ['balance', '0', '| balance | number | 0 on creation |'],
    ['numbers', 'ACH', '| numbers | object | keys ACH, RTP, WIRE |'],
    [
      'numbers.WIRE.account_number',
      912345678901,
      '| numbers.<rail>.account_number | string | for each of ACH, RTP, WIRE |',
    ],
    [
      'numbers.ACH.routing_number',
      21000021,
      '| numbers.<rail>.routing_number | string | for each of ACH, RTP, WIRE |',
    ],
  ]),
  ...rows('getVirtualCard', [
    ['card_id', 7, '| card_id | string |'],
    ['card_name', 7, '| card_name | string |'],
    ['card_brand', 7, '| card_brand | string |'],
    ['card_type', 7, '| card_type | string |'],
    ['card_status', 7, '| card_status | string |'],
    ['card_balance', '120.50', '| card_balance | number |'],
    ['currency', 840, '| currency | string |'],
    ['cvv', 123, '| cvv | string |'],
    ['expiration', '2029-09', '| expiration | string (month and two-digit year, form MM/YY) |'],
    ['first_six', '4111', '| first_six | string (first six digits of the card number) |'],
    ['last_four', '11111', '| last_four | string (last four digits of the card number) |'],
  ]),
  ...rows('getCardTransaction', [
    ['transaction_id', 7, '| transaction_id | string |'],
    ['card_id', 7, '| card_id | string |'],
    ['amount', '12.34', '| amount | number (fractional values occur) |'],
    ['currency', 840, '| currency | string |'],
    ['description', 7, '| description | string |'],
    ['merchant_name', 7, '| merchant_name | string |'],
    ['transaction_date', NOT_UTC, '| transaction_date | string (ISO 8601 UTC timestamp) |'],
    [
      'transaction_status',
      7,
      '| transaction_status | string |',
      [
        '| Wallet payout, push-to-card, card transaction | transaction_status | processing is the value shown on the records |',
      ],
    ],
    ['transaction_type', 7, '| transaction_type | string |'],
  ]),
  ...rows('getPushToCardPayment', [
    ['transaction_id', 7, '| transaction_id | string |'],
    ['amount', '50.00', '| amount | number |'],
    ['card_number', 4111111111111111, '| card_number | string |'],
    ['description', 7, '| description | string |'],
    ['transaction_date', NOT_UTC, '| transaction_date | string (ISO 8601 UTC timestamp) |'],
    ['transaction_status', 7, '| transaction_status | string |'],
  ]),
  ...rows('listUsers', [
    ['items', { user: 'none' }, '| items | array of user |'],
    ['page', '1', '| page | integer |'],
    ['total_count', 1.5, '| total_count | integer |'],
    ['total_pages', '1', '| total_pages | integer |'],
    ['items.0.user_id', 7, '`user_id` (string)'],
    ['items.0.email', 7, '`email` (string)'],
    ['items.0.firstname', 7, '`firstname` (string)'],
    ['items.0.lastname', 7, '`lastname` (string)'],
    ['items.0.telephone', 4155550100, '`telephone` (string)'],
  ]),
  ...rows('getP2pStatus', [
    ['p2p_id', 'usr_000000000001', '| p2p_id | string (an e-mail) |'],
    ['status', 7, '| status | string (the value VALIDATED is shown) |'],
  ]),
];
