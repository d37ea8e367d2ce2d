/**
 * Each mutant breaks exactly one sentence of the interface description that a client can observe
 * from outside, and keeps every other sentence and every choice of the correct sandbox.
 */
export interface MutantDefinition {
  /** The description's section the broken sentence sits in. */
  readonly section: string;
  /** The sentence (or table row) the mutant breaks, quoted. */
  readonly sentence: string;
  /** What the mutant does instead. */
  readonly breaks: string;
}

export const MUTANTS = {
  'success-message-missing': {
    section: 'Response envelope',
    sentence: '| message | string | human-readable text | (Response envelope (every JSON response))',
    breaks: 'success answers of every operation but the token request carry no message',
  },
  'text-plain-responses': {
    section: 'What the service does',
    sentence: 'All request and response bodies are JSON, except the token request, which is form-encoded.',
    breaks: 'every answer but the token response is labelled text/plain (the bytes stay JSON)',
  },
  'error-extra-field': {
    section: 'Response envelope',
    sentence: 'Error envelope: only `message` (string) and `success` (boolean, false).',
    breaks: 'every error answer also carries "code" (a machine-readable error code)',
  },
  'token-type-missing': {
    section: 'Authentication',
    sentence:
      'The token response returns access_token (`<ACCESS_TOKEN>`), token_type and expires_in_seconds.',
    breaks: 'the token response has no token_type',
  },
  'scope-not-echoed': {
    section: 'Authentication',
    sentence: 'The granted scope is echoed in the scope field of the response.',
    breaks: 'scope reads "sandbox_default" while the token is granted what was asked for',
  },
  'replay-new-transaction': {
    section: 'Endpoints, note 1',
    sentence:
      'Endpoint 2: the reference field serves as the idempotency and tracking key chosen by the merchant.',
    breaks: 'a transfer repeated with the same reference and body is a new transaction',
  },
  'echo-reference-prefixed': {
    section: 'Endpoints, note 1',
    sentence:
      'The response echoes the request fields and adds transaction_date, transaction_id and transaction_status.',
    breaks: 'the record’s reference is the merchant prefix "MRC-" followed by the reference sent',
  },
  'missing-field-422': {
    section: 'Errors',
    sentence:
      'Which conditions lead to 400 (missing required fields, invalid values, unknown identifiers) is not listed per operation.',
    breaks: 'a request missing a required field is answered 422 (other bad requests stay 400)',
  },
  'routing-number-optional': {
    section: 'USD transfer request',
    sentence: '| routing_number | string | yes | Routing number of the recipient’s bank |',
    breaks: 'a transfer without routing_number is accepted (a given one is still validated)',
  },
  'account-created-201': {
    section: 'Endpoints',
    sentence: 'All success responses use HTTP 200 and the response envelope.',
    breaks: 'account creation answers 201 Created',
  },
  'account-balance-credited': {
    section: 'Account record',
    sentence: '| balance | number | 0 on creation |',
    breaks: 'a new account starts with a sandbox credit of 1000',
  },
  'account-status-pending': {
    section: 'Account record',
    sentence: '| account_status | string | ACTIVE is the value returned on creation |',
    breaks: 'a new account is PENDING_VERIFICATION',
  },
  'numbers-without-rtp': {
    section: 'Endpoints, note 3',
    sentence:
      'Endpoint 4: the returned numbers object holds one account number and routing number per rail (ACH, RTP, WIRE).',
    breaks: 'a new account’s numbers hold ACH and WIRE only (the sandbox has no RTP rail)',
  },
  'users-without-total-pages': {
    section: 'Endpoints, note 4',
    sentence: 'The response carries page, total_count and total_pages.',
    breaks: 'the user list carries page and total_count, and no total_pages',
  },
  'transfer-status-uppercase': {
    section: 'USD transfer record',
    sentence: '| transaction_status | string | one of processing, successful, failed |',
    breaks: 'a transfer record’s status is written PROCESSING',
  },
  'card-expiration-four-digit-year': {
    section: 'Virtual card record',
    sentence: '| expiration | string (month and two-digit year, form MM/YY) |',
    breaks: 'expiration reads MM/YYYY',
  },
  'p2p-id-not-email': {
    section: 'p2p identifier validation record',
    sentence: '| p2p_id | string (an e-mail) |',
    breaks: 'p2p_id is the user’s id, not an e-mail',
  },
  'card-amount-string': {
    section: 'Virtual card transaction record',
    sentence: '| amount | number (fractional values occur) |',
    breaks: 'the card transaction’s amount is a decimal string ("42.50")',
  },
  'transfer-without-bearer': {
    section: 'Authentication',
    sentence:
      'The USD transfer operation (endpoint 2) is secured with the bearer scheme: the token is sent as an Authorization bearer credential.',
    breaks: 'usdTransfer is served without a token (a token that is sent is still checked)',
  },
  'version-v2': {
    section: 'Versioning',
    sentence:
      'The version is a path segment: `{base_url}` ends in `/v3`, and every path above sits under it.',
    breaks: 'the API is served under /api/v2 (and the url given to clients ends in /v2)',
  },
} as const satisfies Record<string, MutantDefinition>;

export type MutantName = keyof typeof MUTANTS;

export const MUTANT_NAMES = Object.keys(MUTANTS) as readonly MutantName[];

/** The mutant an option names, or `undefined` for the correct sandbox. */
export function resolveMutant(name: string | undefined): MutantName | undefined {
  if (name === undefined) return undefined;
  if (!(name in MUTANTS)) throw new Error(`unknown mutant ${name}: one of ${MUTANT_NAMES.join(', ')}`);
  return name as MutantName;
}
