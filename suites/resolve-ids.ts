import type { ApiClient } from './api-client.ts';
import { bearer, jsonRequest } from './api-request.ts';
import { dataOf } from './envelope-checks.ts';
import { type ResolvedIds, Skip } from './rule.ts';
import type { TargetIds } from './target-config.ts';
import type { TokenSource } from './token-source.ts';

/**
 * The user's ids, completed from the target where an operation can tell: a user from `/users`, and
 * an account that holds its own balance (a valid funds source) created for that user. Records no
 * operation creates (cards, card transactions, push-to-card payments) must come from the user.
 */
export async function resolveIds(
  api: ApiClient,
  tokens: TokenSource,
  given: TargetIds,
): Promise<ResolvedIds> {
  const ids: { -readonly [K in keyof TargetIds]: TargetIds[K] } = { ...given };
  const discovered: string[] = [];
  const token = await tokens.get();
  if (token instanceof Skip) return { ...ids, discovered };
  if (ids.userId === undefined) {
    const users = await api.send({ method: 'GET', path: '/users', headers: bearer(token) });
    const items = dataOf(users)?.items;
    const first = Array.isArray(items) ? (items[0] as { user_id?: unknown } | undefined) : undefined;
    if (typeof first?.user_id === 'string') {
      ids.userId = first.user_id;
      discovered.push('userId');
    }
  }
  if (ids.accountId === undefined && ids.userId !== undefined) {
    const account = await api.send(
      jsonRequest('POST', '/accounts', { hold_balance: true, user_id: ids.userId }, bearer(token)),
    );
    const accountId = dataOf(account)?.account_id;
    if (typeof accountId === 'string') {
      ids.accountId = accountId;
      discovered.push('accountId');
    }
  }
  return { ...ids, discovered };
}
