import type { ControlIds } from '../../http/index.ts';
import type { Spec } from '../../spec/index.ts';
import { dataOf } from '../judge/envelope-checks.ts';
import {
  type AnyOperation,
  idSlots,
  isTokenEndpoint,
  recordFields,
  takesJson,
} from '../rules/read-operation.ts';
import type { Setting, Wording } from '../runner/setting.ts';
import type { ApiClient } from './api-client.ts';
import { bearer, jsonRequest } from './api-request.ts';
import type { ControlApiClient } from './control-client.ts';
import { TARGET_ID_KEYS, type TargetIds } from './target-config.ts';

/** The ids rules use: the user's, plus any pacu found or made on the target itself (a user, an account). */
export interface ResolvedIds extends TargetIds {
  /** Ids pacu found or created (not given), for the replay line. */
  readonly discovered: readonly (keyof TargetIds)[];
  /** For each id still missing: the true reason, naming the setting to give. */
  readonly missing: Readonly<Partial<Record<keyof TargetIds, string>>>;
}

/** Every id an operation's valid requests carry, resolved. */
export type IdValues = Readonly<Partial<Record<keyof TargetIds, string>>>;

/** A pacu mock's seeded ids under the names a target's ids go by. */
const fromControl = (ids: ControlIds): TargetIds => ({
  cardId: ids.cardId,
  cardTransactionId: ids.cardTransactionId,
  pushToCardId: ids.pushToCardId,
  accountId: ids.merchantAccountId,
  userId: ids.userId,
});

/** A GET that takes no id: it may list the records an id names. */
const lists = (operation: AnyOperation): boolean =>
  operation.method === 'get' && idSlots(operation).length === 0 && !isTokenEndpoint(operation);

/** The first record of a list answer that carries `field`, as the list's `items` hold them. */
function firstListed(data: Record<string, unknown> | undefined, field: string): string | undefined {
  const items = data?.items;
  const first = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined) : undefined;
  return typeof first?.[field] === 'string' ? first[field] : undefined;
}

/**
 * The user's ids, completed from what the target can tell: a pacu mock's control API gives its
 * seeded ids; else an operation that lists records gives a user, and an operation that creates a
 * record from it (`createAccount` with `hold_balance: true`: a valid funds source) gives an account.
 * Every id left missing carries the reason why, naming the setting through `word`.
 */
export async function resolveIds(
  spec: Spec<string>,
  api: ApiClient,
  token: string,
  given: TargetIds,
  word: Wording,
  control?: ControlApiClient,
): Promise<ResolvedIds> {
  const seeded = control ? fromControl(await control.ids()) : {};
  const ids: { -readonly [K in keyof TargetIds]: TargetIds[K] } = { ...seeded, ...given };
  const discovered: (keyof TargetIds)[] = TARGET_ID_KEYS.filter(
    (key) => given[key] === undefined && ids[key],
  );
  const missing: Partial<Record<keyof TargetIds, string>> = {};
  const needs = (key: keyof TargetIds, why: string): string =>
    `needs ${word(`ids.${key}` as Setting)} (${why})`;

  if (ids.userId === undefined) {
    const list = spec.operations.find(lists);
    const users = list
      ? await api.send({ method: 'GET', path: list.path, headers: bearer(token) })
      : undefined;
    const userId = users ? firstListed(dataOf(users), 'user_id') : undefined;
    if (userId) {
      ids.userId = userId;
      discovered.push('userId');
    } else
      missing.userId = needs(
        'userId',
        users ? `GET ${list?.path} answered HTTP ${users.status} with no user` : 'no operation lists users',
      );
  }
  if (ids.accountId === undefined) {
    // An operation whose body names a user and whose record is an account creates one.
    const creates = spec.operations.find(
      (operation) =>
        takesJson(operation) &&
        idSlots(operation).some((slot) => slot.key === 'userId') &&
        recordFields(operation).includes('account_id'),
    );
    if (ids.userId === undefined || !creates) {
      missing.accountId = creates
        ? `needs ${word('ids.accountId')}, or a user to create one for with ${creates.id} (${missing.userId})`
        : needs('accountId', 'no operation creates one');
    } else {
      // An account that holds its own balance: a valid funds source for the payments.
      const body = { hold_balance: true, user_id: ids.userId };
      const account = await api.send(jsonRequest('POST', creates.path, body, bearer(token)));
      const accountId = dataOf(account)?.account_id;
      if (typeof accountId === 'string') {
        ids.accountId = accountId;
        discovered.push('accountId');
      } else {
        missing.accountId = needs(
          'accountId',
          `pacu's ${creates.id} for user ${ids.userId} answered HTTP ${account.status}`,
        );
      }
    }
  }
  for (const key of TARGET_ID_KEYS)
    if (ids[key] === undefined && missing[key] === undefined)
      missing[key] = needs(key, 'no operation creates the record it names');
  return { ...ids, discovered, missing };
}

/** The id values an operation's requests carry, or the reason one is missing. */
export function idsFor(
  ids: ResolvedIds,
  operation: AnyOperation,
): { readonly ids: IdValues } | { readonly reason: string } {
  const slots = idSlots(operation);
  const unnamed = operation.parameters.filter(
    (parameter) => parameter.in === 'path' && !slots.some((slot) => slot.name === parameter.name),
  );
  if (unnamed.length > 0)
    return {
      reason: `the path parameter ${unnamed.map((parameter) => parameter.name).join(', ')} names no id pacu can give`,
    };
  const keys = [...new Set(slots.map((slot) => slot.key))];
  const lacking = keys.filter((key) => ids[key] === undefined);
  if (lacking.length === 0) return { ids: Object.fromEntries(keys.map((key) => [key, ids[key] as string])) };
  return {
    reason: lacking
      .map((key) => ids.missing[key] as string)
      .filter((reason, index, all) => all.indexOf(reason) === index)
      .join('; '),
  };
}
