/*
 * A bank's sandbox of the "Payments, Accounts, Cards and Users" interface, written from the
 * interface description alone (../shared/seeds/000_1f34ae346204a62c.txt), without reading pacu's
 * rules, spec or mock. Every stated sentence holds; where the description is silent, these are the
 * sandbox's own choices, each with the silence that allows it:
 *
 * Paths and media types
 * - Base URL http://127.0.0.1:PORT/api/v3: "`{base_url}` is the service's base address including the
 *   version segment `/v3`" says where it ends, not that nothing comes before it.
 * - JSON request bodies are parsed whatever their Content-Type says (a Go/Java-style decoder): no
 *   sentence refuses a mislabelled body ("Which conditions lead to 400 … is not listed per operation").
 *   The token request's body is read as a form whatever its label, likewise.
 * - Answers are `application/json; charset=utf-8`, with `cache-control: no-store` and an
 *   `x-request-id`; extra headers are not ruled out.
 * - Unknown path: 404; known path, other method: 405 with `allow`; body over 100 KiB: 413 (body-parser's
 *   default). "Status codes other than 400 and a catalogue of error codes: not shown." "Rate limits,
 *   amount bounds, size limits and time-outs: not shown." Every one carries the error envelope.
 *
 * Authentication ("Token lifetime value: not shown." "Whether the other endpoints require the bearer
 * token, and which scope each needs: not shown." "Status codes other than 400 … not shown.")
 * - Token lifetime 900 s (15 minutes, as banks' OAuth servers commonly issue), opaque random tokens
 *   `sbx_at_…`, `token_type` "Bearer".
 * - Client authentication by Basic only; id and secret are compared as sent and, per RFC 6749 §2.3.1,
 *   form-decoded. The secret is base64 (it holds `+`, `/`, `=`).
 * - Wrong or missing client credentials: 401 with `www-authenticate: Basic`. Missing or other
 *   grant_type, missing or unknown scope names, a repeated parameter: 400 (OAuth's invalid_request,
 *   unsupported_grant_type, invalid_scope). "The token request carries the scope field" makes scope
 *   required here. Scope names may be separated by commas or spaces; the granted scope is the set
 *   asked for, echoed comma-separated in the order asked.
 * - Every endpoint but the token needs a live bearer token (scheme name case-insensitive, RFC 7235).
 *   Scopes: us_account for usdTransfer, walletPayout, createAccount and p2p status; card for the
 *   three card reads; any live token for /users. Missing, unknown or expired token: 401 with
 *   `www-authenticate: Bearer`; a token without the scope: 403.
 *
 * Requests ("Which conditions lead to 400 (missing required fields, invalid values, unknown
 * identifiers) is not listed per operation." "Endpoint 3: which fields are required: not shown."
 * "Numeric format of amount …: not shown." "… amount bounds …: not shown.")
 * - A body that is not a JSON object: 400. Unknown fields are ignored. Checks run in field order and
 *   the first problem is the message.
 * - Amounts: a JSON number > 0, at most 2 decimal places, at most 1,000,000 (a sandbox ceiling).
 * - routing_number: 9 digits with a valid ABA checksum; account_number: 4 to 17 digits;
 *   recipient_email and wallet_id: an e-mail; names and references: non-blank, at most 140 / 64
 *   characters; description: any string up to 255 (empty allowed), `null` is not a string.
 * - account_id must be the merchant's own US account or a customer account that holds a balance;
 *   an account created with hold_balance false is refused as a source (its funds sit with the
 *   merchant: "the merchant's own US account identifier is passed"). No balance is enforced: nothing
 *   in the interface funds an account.
 * - Wallet payout requires account_id, amount and wallet_id; recipient_name and description are
 *   optional. Account creation requires user_id (an existing customer) and hold_balance.
 * - Unknown ids in a body: 400; unknown ids in a path: 404 ("Status codes other than 400 … not shown").
 *
 * Records
 * - The transfer record is the request's table fields, exactly as sent (account_id too; fields the
 *   table does not define are not echoed), plus
 *   transaction_date, transaction_id (a UUID) and transaction_status; an optional field the request
 *   did not carry is absent from the record ("The response echoes the request fields"). The wallet
 *   record likewise holds amount, wallet_id and whichever of description and recipient_name were
 *   sent.
 * - Same reference, same fields: 200 with the original record (same id and date, current status).
 *   Same reference, other fields: 409. The description says the reference is the idempotency key,
 *   not how a conflicting reuse is answered.
 * - Timestamps as Python's isoformat writes UTC: `2026-11-24T18:53:26.123000+00:00`.
 * - Ids: `usr_…`, `acct_…`, `vc_…`, `ctx_…`, a UUID for push-to-card and transfers, `wpo_…` for payouts.
 * - Account record: the stated fields plus currency, hold_balance, user_id and created_at. Each rail
 *   has its own sandbox routing number and a 12-digit account number.
 * - Seeded records: 12 users; one virtual card (VISA, VIRTUAL, ACTIVE, 250.75 USD); one card
 *   transaction (PURCHASE, 42.5, processing); one push-to-card payment, whose final status is
 *   "successful" ("A push-to-card status read returns the final status of that payment"; "Allowed
 *   values … of transaction_status outside the USD transfer: not shown").
 * - /users pages with `page` (from 1) and `page_size` (1-100, default 10); other values: 400; a page
 *   past the end is empty ("query parameters (paging, filtering): not shown").
 * - p2p status: every fifth customer is PENDING, the others VALIDATED ("VALIDATED (value shown)").
 * - A transfer settles 3 s after creation (processing → successful), as sandboxes simulate a rail;
 *   the only way to read it again, a replay of its reference, answers its current status
 *   ("Transitions: not shown."). Payouts have no read, so their status is never seen again.
 *   No webhooks are sent: event names, payload and registration are "not shown", so no client
 *   could receive one.
 *
 * Options make legal variants of these choices: `walletRequiresEveryField` (all five wallet fields
 * required), `firstCustomerPending` (the first customer's p2p identifier is PENDING too) and a lower
 * `amountCeiling` (e.g. 25,000, an ACH-style per-payment limit), and `railLimits`: each rail's own
 * limits on a transfer, as banks' rails keep them (a WIRE of at least 1.00 whose beneficiary name
 * fits Fedwire's 35 characters, an ACH of at most 25,000.00 whose receiver name fits NACHA's 22).
 * Each is as correct as the default; pacu must pass them as well.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MutantName, resolveMutant } from './mutants.ts';
import { SandboxAuth } from './sandbox-auth.ts';
import { createResponder } from './sandbox-http.ts';
import { SandboxOperations } from './sandbox-operations.ts';
import { createRouter } from './sandbox-router.ts';
import { SandboxStore } from './sandbox-store.ts';

export interface BankSandboxOptions {
  /** One of `MUTANT_NAMES`: a sandbox that breaks exactly that sentence. @default undefined (correct) */
  mutant?: string;
  /** @default 900 */
  tokenLifetimeSeconds?: number;
  /** How long a transfer stays processing before its simulated rail settles it. @default 3 */
  settleAfterSeconds?: number;
  /** @default a random base64 secret (it holds `+`, `/`, `=`) */
  clientSecret?: string;
  /** @default 'Bearer' (RFC 6749 compares it case-insensitively; some servers write 'bearer') */
  tokenType?: string;
  /** A legal variant: the wallet payout requires all five of its fields. @default false */
  walletRequiresEveryField?: boolean;
  /** A legal variant: the first customer's p2p identifier is still PENDING. @default false */
  firstCustomerPending?: boolean;
  /** The largest amount one transfer or payout may move. @default 1_000_000 */
  amountCeiling?: number;
  /** A legal variant: each transfer rail's own amount and name limits. @default false */
  railLimits?: boolean;
}

export const BANK_SANDBOX_DEFAULTS = {
  tokenLifetimeSeconds: 900,
  settleAfterSeconds: 3,
  tokenType: 'Bearer',
  walletRequiresEveryField: false,
  firstCustomerPending: false,
  amountCeiling: 1_000_000,
  railLimits: false,
} as const;

type ResolvedOptions = Omit<Required<BankSandboxOptions>, 'mutant' | 'tokenType'> & {
  readonly mutant: MutantName | undefined;
  readonly tokenType: string;
};

function resolveOptions(options: BankSandboxOptions): ResolvedOptions {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return {
    ...BANK_SANDBOX_DEFAULTS,
    clientSecret: randomBytes(30).toString('base64'),
    ...given,
    mutant: resolveMutant(options.mutant),
  };
}

export interface BankSandbox {
  /** Base URL ending in /v3 (in /v2 for the `version-v2` mutant). */
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Ids of the records no operation creates. */
  readonly cardId: string;
  readonly cardTransactionId: string;
  readonly pushToCardId: string;
  /** The merchant's own US account (the source of funds for accounts that hold no balance). */
  readonly merchantAccountId: string;
  readonly mutant: MutantName | undefined;
  close(): Promise<void>;
}

/** Start the sandbox on 127.0.0.1, port 0. */
export async function startBankSandbox(options: BankSandboxOptions = {}): Promise<BankSandbox> {
  const settings = resolveOptions(options);
  const { mutant, clientSecret } = settings;
  const clientId = `sbx_client_${randomBytes(6).toString('hex')}`;
  const respond = createResponder({
    dropSuccessMessage: mutant === 'success-message-missing',
    textPlain: mutant === 'text-plain-responses',
    errorCode: mutant === 'error-extra-field',
  });
  const store = new SandboxStore(
    mutant === 'card-amount-string',
    mutant === 'card-expiration-four-digit-year',
  );
  const auth = new SandboxAuth(
    {
      clientId,
      clientSecret,
      tokenLifetimeSeconds: settings.tokenLifetimeSeconds,
      now: Date.now,
      scopeEcho: (granted) => (mutant === 'scope-not-echoed' ? 'sandbox_default' : granted.join(',')),
      tokenType: mutant === 'token-type-missing' ? undefined : settings.tokenType,
    },
    respond,
  );
  const ops = new SandboxOperations(store, respond, {
    mutant,
    settleAfterMs: settings.settleAfterSeconds * 1000,
    walletRequiresEveryField: settings.walletRequiresEveryField,
    firstCustomerPending: settings.firstCustomerPending,
    amountCeiling: settings.amountCeiling,
    railLimits: settings.railLimits,
  });

  const basePath = mutant === 'version-v2' ? '/api/v2' : '/api/v3';
  const handle = createRouter({
    auth,
    ops,
    respond,
    basePath,
    transferWithoutBearer: mutant === 'transfer-without-bearer',
  });

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) respond.fail(res, 500, 'Internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    clientId,
    clientSecret,
    cardId: store.cardId,
    cardTransactionId: store.cardTransactionId,
    pushToCardId: store.pushToCardId,
    merchantAccountId: store.merchantAccountId,
    mutant,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
