import fc from 'fast-check';

/** One silence of the interface description and the choices real sandboxes make in it. */
export interface Knob<T> {
  readonly choices: readonly [T, ...T[]];
  /** Verbatim words of the description that leave this open (a test finds each in the description). */
  readonly silence: string;
}

const NOT_SHOWN_STATUS = 'Status codes other than 400 and a catalogue of error codes: not shown.';
const CONDITIONS =
  'Which conditions lead to 400 (missing required fields, invalid values, unknown identifiers) is not listed per operation.';
const LIMITS = 'Rate limits, amount bounds, size limits and time-outs: not shown.';
const BEARER_SCOPES =
  'Whether the other endpoints require the bearer token, and which scope each needs: not shown.';
const VALUES_NOT_SHOWN =
  'Allowed values of card_status, card_type, transaction_type and account_status, and of transaction_status outside the USD transfer: not shown.';
const IDEMPOTENCY = 'the reference field serves as the idempotency and tracking key chosen by the merchant';

const knob = <const T>(silence: string, ...choices: [T, ...T[]]): Knob<T> => ({ choices, silence });

/**
 * The space of legal providers: every knob is a silence of the description, every choice one a
 * correct sandbox makes. The first choice of each is the base provider the mutants start from.
 */
export const KNOBS = {
  /** A gateway or reverse proxy puts the API under its own prefix. */
  basePath: knob(
    "`{base_url}` is the service's base address including the version segment `/v3`",
    '/v3',
    '/sandbox/api/v3',
  ),
  /** A path with a trailing slash, and in another case, served as the path itself. */
  pathVariants: knob(
    'All paths are relative to `{base_url}`.',
    'exact',
    'trailing-slash',
    'trailing-slash-and-case',
  ),
  /** WIRE below 1.00, ACH above 100,000 and wallet payouts above 10,000 refused (space-bounds.ts). */
  amountBoundsByType: knob(LIMITS, 'none', 'per-payment-type'),
  clientSecret: knob('the password is the client_secret', 'plain', 'punctuated'),
  tokenLifetimeSeconds: knob('Token lifetime value: not shown.', 3600, 86_400, 2),
  tokenType: knob('| token_type | string |', 'Bearer', 'bearer'),
  /** OAuth lets a server grant other than asked as long as it says so. */
  scopeGrant: knob(
    'The granted scope is echoed in the scope field of the response.',
    'asked',
    'client-scopes',
  ),
  scopeOrder: knob('scope (comma-separated list of scope names)', 'as-asked', 'sorted-descending'),
  clientRefusalStatus: knob(NOT_SHOWN_STATUS, 401, 400),
  grantRefusalStatus: knob(NOT_SHOWN_STATUS, 400, 401),
  bearerOn: knob(BEARER_SCOPES, 'all', 'usdTransfer-only', 'money-movement'),
  scopePerOperation: knob(BEARER_SCOPES, 'by-resource', 'none'),
  /** Under by-resource: whether GET /users needs a scope too (us_account), or any token will do. */
  usersScope: knob(BEARER_SCOPES, 'any', 'us_account'),
  bearerRefusalStatus: knob(NOT_SHOWN_STATUS, 401, 400, 403),
  scopeRefusalStatus: knob(NOT_SHOWN_STATUS, 403, 401, 400),
  unknownIdStatus: knob(NOT_SHOWN_STATUS, 400, 404),
  unknownPathStatus: knob(NOT_SHOWN_STATUS, 404, 400),
  /** Errors 2 names missing required fields and invalid values among what leads to 400 (decision 067). */
  invalidBodyStatus: knob(CONDITIONS, 400),
  /** `lenient` parses a JSON body whatever its Content-Type says. */
  contentTypes: knob(CONDITIONS, 'json-only-400', 'json-only-415', 'lenient'),
  responseContentType: knob(
    'All request and response bodies are JSON',
    'application/json',
    'application/json; charset=utf-8',
  ),
  extraDataFields: knob('shape depends on the operation', false, true),
  /** A transfer record carries a `fee` of its transfer type: 0.25 for ACH, 15 for WIRE. */
  transferFees: knob('shape depends on the operation', 'none', 'per-type'),
  idFormat: knob(
    '| transaction_id | string | identifier of the transaction |',
    'prefixed',
    'uuid',
    'numeric',
  ),
  timestampForm: knob('timestamp in ISO 8601 UTC form', 'Z', '+00:00', 'milliseconds'),
  /** The seeded card transaction written with milliseconds whatever the records it makes carry. */
  seededTimestamps: knob('timestamp in ISO 8601 UTC form', 'as-made', 'milliseconds'),
  /** A request without description (or another optional field) gets a record without it, or an empty one. */
  absentFields: knob('| description | string | no | |', 'empty-string', 'omitted'),
  transitions: knob('Transitions: not shown.', 'never', 'after-one-second'),
  replayAnswer: knob(IDEMPOTENCY, 'original', 'current-status'),
  reusedReference: knob<'original-record' | 409 | 400 | 422>(IDEMPOTENCY, 'original-record', 409, 400, 422),
  walletRequired: knob('Endpoint 3: which fields are required: not shown.', 'amount-and-wallet', 'all'),
  /** The account creation table has no Required column. */
  accountRequired: knob('### Account creation request', 'user_id', 'both'),
  /**
   * Bounds a sandbox keeps and the description shows nowhere: per payment type (a WIRE of at least
   * 1.00) or for all (at most 25,000.00, seen in a sandbox). pacu reports them, never fails them.
   */
  amountBounds: knob(LIMITS, 'none', 'positive-up-to-a-million', 'wire-from-1', 'up-to-25000'),
  /** A string bound of one payment type: ACH names of at most 22 characters (NACHA's field). */
  stringBounds: knob(LIMITS, 'none', 'ach-names-up-to-22'),
  amountDecimals: knob(
    'Numeric format of amount and balances (currency, decimal places): not shown.',
    'any',
    'cents',
  ),
  sizeLimits: knob(LIMITS, 'none', 'body-64-KiB', 'strings-255'),
  /** Formats a sandbox may check though no sentence states them: e-mail, ABA checksum, digits. */
  valueChecks: knob(CONDITIONS, 'types-only', 'formats'),
  cardValues: knob(VALUES_NOT_SHOWN, 'upper-case', 'lower-case'),
  pushToCardStatus: knob(VALUES_NOT_SHOWN, 'successful', 'completed'),
  paging: knob(
    'Endpoint 8: query parameters (paging, filtering): not shown.',
    'page-from-1',
    'page-from-0',
    'offset-limit',
  ),
  /** `refused`: a page before the first, a size below 1 or above 50 is 400; `lenient` answers them. */
  pageLimits: knob('Endpoint 8: query parameters (paging, filtering): not shown.', 'lenient', 'refused'),
  users: knob('Endpoint 8: query parameters (paging, filtering): not shown.', 'one', 'several'),
  /** E-mail domains are case-insensitive; nothing says the payout record repeats the request. */
  walletIdCase: knob(
    "| wallet_id | string | The recipient's wallet identifier, which is an e-mail |",
    'as-sent',
    'lower-case',
  ),
  webhookWording: knob(
    'Webhook event names, payload, registration of the receiving address and signing of deliveries: not shown.',
    'The status of the validation request is delivered through a webhook',
    'Validation requested; the result arrives by webhook',
  ),
  errorMessages: knob('the example text reads Invalid request', 'Invalid request', 'detailed'),
  /** The network between pacu and the sandbox (test/providers/network): a round trip, with a tenth of jitter. */
  latencyMs: knob(LIMITS, 0, 50, 300),
  /** 429 with the error envelope and Retry-After beyond a token bucket per client. */
  rateLimit: knob(LIMITS, 'none', 'bursts-of-100-then-25', '25-per-second', '20-per-second-bursts-of-40'),
  /** How a 429 or 503 writes Retry-After (RFC 9110 10.2.3 allows both). */
  retryAfter: knob(LIMITS, 'seconds', 'date'),
  /** 503 with Retry-After for 2 s out of every 20 (the first after 3 s). */
  maintenance: knob(NOT_SHOWN_STATUS, 'none', 'windows'),
  /** The connection of one request in a hundred (or of one GET in 200) reset, before the sandbox sees it or after it answered. */
  resets: knob(LIMITS, 'none', 'one-in-a-hundred', 'one-get-in-200'),
} as const;

export type KnobName = keyof typeof KNOBS;

/** One provider of the space: a choice for every knob. */
export type Knobs = { -readonly [K in KnobName]: (typeof KNOBS)[K]['choices'][number] };

/** Every knob away from the base: the provider furthest from pacu's own mock. */
export const FAR_KNOBS: Knobs = Object.fromEntries(
  Object.entries(KNOBS).map(([name, { choices }]) => [name, choices[choices.length - 1]]),
) as Knobs;

/** `knobs` on a quiet network: what a provider does, without what the road to it does. */
export const quietNetwork = (knobs: Knobs): Knobs => ({
  ...knobs,
  latencyMs: 0,
  rateLimit: 'none',
  maintenance: 'none',
  resets: 'none',
});

/** The first choice of every knob: the base provider mutants start from. */
export const KNOB_DEFAULTS: Knobs = Object.fromEntries(
  Object.entries(KNOBS).map(([name, { choices }]) => [name, choices[0]]),
) as Knobs;

/** Any provider of the space. */
export function knobsArbitrary(): fc.Arbitrary<Knobs> {
  return fc.record(
    Object.fromEntries(
      Object.entries(KNOBS).map(([name, { choices }]) => [name, fc.constantFrom(...choices)]),
    ) as { [K in KnobName]: fc.Arbitrary<Knobs[K]> },
  );
}

/** The knobs that differ from the base, for a readable test name. */
export function describeKnobs(knobs: Knobs): string {
  const changed = (Object.keys(KNOBS) as KnobName[]).filter((name) => knobs[name] !== KNOB_DEFAULTS[name]);
  return changed.map((name) => `${name}=${String(knobs[name])}`).join(' ') || 'base';
}
