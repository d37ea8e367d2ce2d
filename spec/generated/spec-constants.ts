// Generated from spec/openapi.yaml by `npm run generate`. Do not edit: spec/model.ts re-exports these.

/** The operationIds of spec/openapi.yaml. */
export type OperationId = 'getAccessToken' | 'usdTransfer' | 'walletPayout' | 'createAccount' | 'getCardTransaction' | 'getPushToCardPayment' | 'getVirtualCard' | 'listUsers' | 'getP2pStatus';

/** The operations in the order spec/openapi.yaml lists them (the order of the interface description). */
export const OPERATION_IDS: readonly OperationId[] = ['getAccessToken', 'usdTransfer', 'walletPayout', 'createAccount', 'getCardTransaction', 'getPushToCardPayment', 'getVirtualCard', 'listUsers', 'getP2pStatus'];

/** Method and path template of each operation. */
export const OPERATION_ROUTES: Readonly<
  Record<OperationId, { readonly method: 'get' | 'post'; readonly path: string }>
> = {
  getAccessToken: { method: 'post', path: '/auth/token' },
  usdTransfer: { method: 'post', path: '/payments/usd/direct' },
  walletPayout: { method: 'post', path: '/payments/wallet' },
  createAccount: { method: 'post', path: '/accounts' },
  getCardTransaction: { method: 'get', path: '/cards/{card_id}/transactions/{transaction_id}' },
  getPushToCardPayment: { method: 'get', path: '/payments/card/{transaction_id}' },
  getVirtualCard: { method: 'get', path: '/cards/virtual/{card_id}' },
  listUsers: { method: 'get', path: '/users' },
  getP2pStatus: { method: 'get', path: '/p2p/status/{user_id}' },
};

/** The scope names of bearerAuth. */
export type Scope = 'card' | 'us_account';

/** The scope names of bearerAuth, in its order. */
export const SCOPES: readonly Scope[] = ['card', 'us_account'];

/** x-pacu-limits. */
export const DECIDED_LIMITS = { maxBodyBytes: 1048576, maxJsonDepth: 32 } as const;
