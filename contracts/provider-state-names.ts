/**
 * The provider states pacu's pacts use and `pacu verify` knows how to set up. Each names a
 * precondition; the values the verifier injects into requests are listed beside it.
 */
export const PROVIDER_STATES = {
  /** Injects `accessToken` (a real token from the target) and `clientCredentials` (base64 id:secret). */
  validClient: 'a valid client',
  /**
   * Injects `accountId`: an account that holds a balance (the merchant's own); and `freshReference`,
   * a reference no earlier verification used, so a pact's transfer is never a replay.
   */
  accountExists: 'an account exists',
  /** Injects `userId`. */
  userExists: 'a user exists',
  /** Injects `cardId`. */
  virtualCardExists: 'a virtual card exists',
  /** Injects `cardId` and `cardTransactionId` (a transaction of that card). */
  cardTransactionExists: 'a card transaction exists',
  /** Injects `pushToCardId`. */
  pushToCardExists: 'a push-to-card payment exists',
  /**
   * Takes the parameter `reference`; injects `reference`, that parameter made unique to this
   * verification, and a USD transfer with it exists for the valid client.
   */
  transferWithReferenceExists: 'a transfer with the reference already exists',
} as const;

export type ProviderStateName = (typeof PROVIDER_STATES)[keyof typeof PROVIDER_STATES];

export const KNOWN_PROVIDER_STATES: readonly string[] = Object.values(PROVIDER_STATES);
