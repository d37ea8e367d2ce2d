// The shapes of the test providers every rule runs against.

/**
 * `pacu`: makes every choice pacu's spec decides (401/403/409, strict schemas, a control API).
 * `different`: a correct provider that chooses otherwise where the description is silent: 400 for a
 * missing token, 404 for unknown ids, 415 for another content type, UUID ids, extra fields in data,
 * the original record for a reused reference with other parameters.
 */
export type ProviderStyle = 'pacu' | 'different';

export interface TestProviderOptions {
  readonly style: ProviderStyle;
  /** The rule id (or ids) this provider breaks on purpose. */
  readonly breaks?: string | readonly string[];
  /** Stateless: the same transaction id for every payment, whatever the reference (like `prism mock`). */
  readonly sameIds?: boolean;
  /** Tokens live this many real seconds and say so in expires_in_seconds. */
  readonly tokenLifetimeSeconds?: number;
  /** Tokens die after this many real seconds while expires_in_seconds still says 3600. */
  readonly tokensDieAfterSeconds?: number;
  /** Tokens die after serving this many requests while expires_in_seconds still says 3600 (no clock in it). */
  readonly tokensDieAfterUses?: number;
  /** Accepts any string as recipient_email (the description states no format for it). */
  readonly anyRecipientEmail?: boolean;
  /** GET /users lists nobody. */
  readonly noUsers?: boolean;
  /** Error answers with these statuses carry no envelope. */
  readonly brokenErrorStatuses?: readonly number[];
  /** Grants tokens for the client's whole scope set only: no token lacks any scope (400 for a subset). */
  readonly wholeScopeOnly?: boolean;
  /**
   * Grants every scope the client holds whatever is asked, and says so in data.scope (OAuth lets a
   * server widen a grant if it echoes it); enforces scopes on what it granted.
   */
  readonly grantsEveryScope?: boolean;
  /** Accepts a JSON body whatever its Content-Type says (text/plain too): no sentence forbids it. */
  readonly lenientContentType?: boolean;
  /** Every error envelope carries one field more than the description allows: `"data": null`. */
  readonly errorExtraField?: boolean;
  /**
   * What data.scope says while the provider grants (and enforces) what was asked: always
   * `card,us_account`, an empty string, the granted names separated by spaces, or `default`.
   */
  readonly scopeEcho?: 'constant' | 'empty' | 'spaces' | 'default';
  /** Timestamps written with `+00:00` instead of `Z` (UTC either way; only pacu's decision is Z). */
  readonly offsetTimestamps?: boolean;
  /** Answers a body that fails validation with this status (parse failures stay 400): 422 is as legal. */
  readonly invalidBodyStatus?: number;
  /** Refuses any query parameter on GET /users with 400 (paging is pacu's decision, not the description's). */
  readonly refusesQuery?: boolean;
  /** Refuses a payment over this amount with 400 ("amount bounds … not shown"). */
  readonly amountCap?: number;
  /** Accepts a transfer without routing_number (breaks the transfer table's "Required: yes"). */
  readonly routingNumberOptional?: boolean;
  /** Requires every field a wallet payout request lists ("Endpoint 3: which fields are required: not shown"). */
  readonly walletRequiresEveryField?: boolean;
  /** Leaves `description` out of a transfer or payout record when the request carried none. */
  readonly omitsAbsentDescription?: boolean;
}

export interface TestProvider {
  readonly url: string;
  readonly origin: string;
  readonly ids: {
    cardId: string;
    cardTransactionId: string;
    pushToCardId: string;
    accountId: string;
    userId: string;
  };
  readonly client: { clientId: string; clientSecret: string };
  /** Every access token it issued, so tests can look for them where they must not be. */
  readonly issuedTokens: readonly string[];
  close(): Promise<void>;
}
