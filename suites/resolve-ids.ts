import { OPERATION_ROUTES, type OperationId } from '../spec/index.ts';
import type { ApiClient } from './api-client.ts';
import { bearer, jsonRequest } from './api-request.ts';
import { dataOf } from './envelope-checks.ts';
import { TARGET_ID_FLAGS, type TargetIds } from './target-config.ts';

/** The ids rules use: the user's, plus any pacu found or made on the target itself (a user, an account). */
export interface ResolvedIds extends TargetIds {
  /** Ids pacu found or created (not given), for the replay line. */
  readonly discovered: readonly (keyof TargetIds)[];
  /** For each id still missing: the true reason, naming the flag to pass. */
  readonly missing: Readonly<Partial<Record<keyof TargetIds, string>>>;
}

/** The ids each operation needs before a valid request can be built. */
const IDS_NEEDED: Readonly<Record<OperationId, readonly (keyof TargetIds)[]>> = {
  getAccessToken: [],
  usdTransfer: ['accountId'],
  walletPayout: ['accountId'],
  createAccount: ['userId'],
  getCardTransaction: ['cardId', 'cardTransactionId'],
  getPushToCardPayment: ['pushToCardId'],
  getVirtualCard: ['cardId'],
  listUsers: [],
  getP2pStatus: ['userId'],
};

/** Records no /v3 operation creates: only the user can name them. */
const NOT_CREATABLE: Readonly<Partial<Record<keyof TargetIds, string>>> = {
  cardId: 'no operation creates a virtual card',
  cardTransactionId: 'no operation creates a card transaction',
  pushToCardId: 'no operation creates a push-to-card payment',
};

/**
 * The user's ids, completed from the target where an operation can tell: a user from `/users`, and
 * an account that holds its own balance (a valid funds source) created for that user with
 * `createAccount`. Every id left missing carries the reason why.
 */
export async function resolveIds(api: ApiClient, token: string, given: TargetIds): Promise<ResolvedIds> {
  const ids: { -readonly [K in keyof TargetIds]: TargetIds[K] } = { ...given };
  const discovered: (keyof TargetIds)[] = [];
  const missing: Partial<Record<keyof TargetIds, string>> = {};
  for (const [key, why] of Object.entries(NOT_CREATABLE) as [keyof TargetIds, string][])
    if (ids[key] === undefined) missing[key] = `needs ${TARGET_ID_FLAGS[key]} (${why})`;
  if (ids.userId === undefined) {
    const users = await api.send({
      method: 'GET',
      path: OPERATION_ROUTES.listUsers.path,
      headers: bearer(token),
    });
    const items = dataOf(users)?.items;
    const first = Array.isArray(items) ? (items[0] as { user_id?: unknown } | undefined) : undefined;
    if (typeof first?.user_id === 'string') {
      ids.userId = first.user_id;
      discovered.push('userId');
    } else {
      missing.userId = `needs --user-id (GET /users answered HTTP ${users.status} with ${Array.isArray(items) ? 'no user' : 'no user list'})`;
    }
  }
  if (ids.accountId === undefined) {
    if (ids.userId === undefined) {
      missing.accountId = `needs --account-id, or a user to create one for with createAccount (${missing.userId})`;
    } else {
      const account = await api.send(
        jsonRequest(
          'POST',
          OPERATION_ROUTES.createAccount.path,
          { hold_balance: true, user_id: ids.userId },
          bearer(token),
        ),
      );
      const accountId = dataOf(account)?.account_id;
      if (typeof accountId === 'string') {
        ids.accountId = accountId;
        discovered.push('accountId');
      } else {
        missing.accountId = `needs --account-id (pacu's createAccount for user ${ids.userId} answered HTTP ${account.status})`;
      }
    }
  }
  return { ...ids, discovered, missing };
}

/** The id values an operation needs, or the reason one is missing. */
export function idsFor(
  ids: ResolvedIds,
  operation: OperationId,
): { readonly ids: Required<TargetIds> } | { readonly reason: string } {
  const lacking = IDS_NEEDED[operation].filter((key) => ids[key] === undefined);
  if (lacking.length === 0) return { ids: ids as Required<TargetIds> };
  return {
    reason: lacking
      .map((key) => ids.missing[key] ?? `needs ${TARGET_ID_FLAGS[key]}`)
      .filter((reason, index, all) => all.indexOf(reason) === index)
      .join('; '),
  };
}
