import { parseAuthorization } from '../../http/index.ts';
import type { OperationSpec } from '../../spec/index.ts';
import type { MockContext } from './context.ts';
import { MockHttpError, type MockRequest } from './http-types.ts';
import type { ReadKeys } from './store/state-store.ts';

/** RFC 6749 2.3.1 form-encodes id and secret; text that is not valid encoding names no client. */
export function decodedOrEmpty(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

/** A whole number from the query, or the fallback when absent (a learned paging is validated here). */
function whole(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!/^[0-9]{1,9}$/.test(text))
    throw new MockHttpError(400, `Invalid request: query parameter ${name} must be a whole number`);
  return Number(text);
}

/**
 * The page GET /users asks for: pacu's paging (`page` from 1, `per_page`), or the paging a
 * recording showed (its names, first page and size). Throws 400 on a query that is not a number.
 */
export function usersPage(
  context: MockContext,
  query: URLSearchParams,
): { start: number; size: number; page: number } {
  const { paging } = context.behaviour;
  const size = Math.max(1, whole(query, paging.size, paging.defaultSize));
  const position = whole(query, paging.position, paging.style === 'page' ? paging.first : 0);
  const start = paging.style === 'page' ? (position - paging.first) * size : position;
  const page = paging.style === 'page' ? position : Math.floor(position / size) + paging.first;
  return { start: Math.max(0, start), size, page };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Every key a request will read, known before any is read: its credentials, its path parameters
 * and the ids in its body. The store answers them together (one round trip a network away).
 */
export function readKeys(
  context: MockContext,
  operation: OperationSpec,
  request: MockRequest,
  params: Readonly<Record<string, string>>,
  body: unknown,
): ReadKeys {
  const keys: ReadKeys = {};
  const { security } = operation;
  if (security.kind !== 'none') {
    const credentials = parseAuthorization(request.headers.authorization);
    if (security.kind === 'bearer' && credentials?.scheme === 'bearer') keys.token = credentials.token;
    if (security.kind === 'basic' && credentials?.scheme === 'basic' && credentials.user !== undefined)
      keys.clientId = decodedOrEmpty(credentials.user);
  }
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  switch (operation.id) {
    case 'usdTransfer':
      keys.accountId = text(fields.account_id);
      keys.reference = text(fields.reference);
      break;
    case 'walletPayout':
      // A learned mock may take a payout without account_id: it is paid from the merchant's account.
      keys.accountId = text(fields.account_id) ?? context.store.seeded.merchantAccountId;
      break;
    case 'createAccount':
      keys.userId = text(fields.user_id);
      break;
    case 'getVirtualCard':
      keys.cardId = params.card_id ?? '';
      break;
    case 'getCardTransaction':
      keys.cardId = params.card_id ?? '';
      keys.cardTransactionId = params.transaction_id ?? '';
      break;
    case 'getPushToCardPayment':
      keys.pushToCardId = params.transaction_id ?? '';
      break;
    case 'getP2pStatus':
      keys.userId = params.user_id ?? '';
      break;
    case 'listUsers':
      try {
        const { start, size } = usersPage(context, request.query);
        keys.usersPage = { start, size };
      } catch {
        // A bad page is the handler's 400, after authentication.
      }
      break;
  }
  return keys;
}
