import { type RoutedExchange, readRecordedCredential } from '../../../http/index.ts';
import { type OperationSpec, requestFieldNames, type Spec } from '../../../spec/index.ts';
import type { RefusalKind } from '../behaviour.ts';
import type { MockReply } from '../http-types.ts';
import { requestFieldsOf } from './samples.ts';

/** pacu's status for each refusal kind, as the report shows the defaults. */
export const PACU_REFUSALS: Readonly<Record<RefusalKind, number>> = {
  'bad-client': 401,
  'missing-token': 401,
  'bad-token': 401,
  scope: 403,
  'unknown-path': 404,
  method: 405,
  'content-type': 400,
  'invalid-request': 400,
  'unknown-id-in-path': 400,
  'unknown-id-in-body': 400,
  'not-a-funds-source': 400,
  'reused-reference': 409,
  'out-of-bounds': 400,
};

export const REFUSAL_ABOUT: Readonly<Record<RefusalKind, string>> = {
  'bad-client': 'a token request with wrong client credentials',
  'missing-token': 'a request without a bearer token',
  'bad-token': 'a request with a bearer token that is unknown or expired',
  scope: "a request whose token lacks the operation's scope",
  'unknown-path': 'a path of no operation',
  method: 'another method on a known path',
  'content-type': 'a body of another content type',
  'invalid-request': 'a body or query that breaks the request schema',
  'unknown-id-in-path': 'an unknown id in the path',
  'unknown-id-in-body': 'an unknown id in the body (account_id, user_id)',
  'not-a-funds-source': 'funds taken from an account created with hold_balance false',
  'reused-reference': 'a transfer reference used again with another body',
  'out-of-bounds': 'an amount beyond the bounds of its payment type, or a page beyond the paging limits',
};

/** Kinds whose learned status holds on every operation; a body that breaks one operation's schema is its own. */
export const ANYWHERE: ReadonlySet<RefusalKind> = new Set(
  (Object.keys(PACU_REFUSALS) as RefusalKind[]).filter((kind) => kind !== 'invalid-request'),
);

export const messageOf = (exchange: RoutedExchange): string | undefined => {
  const message = (exchange.responseJson as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
};

const quoted = (text: string): string => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/** The names a refusal of `operation` may be about: path parameters, body fields, query parameters. */
function fieldNames(operation: OperationSpec, extra: readonly string[]): string[] {
  return [...requestFieldNames(operation), ...operation.parameters.map(({ name }) => name), ...extra];
}

/**
 * The field a message is about: of the operation's request fields (and `extra`, the paging names),
 * the one it names first. pacu's own messages name the refused field first, so a refusal is keyed by
 * what was refused (an unknown account_id is not an unknown user_id).
 */
export function refusedField(
  operation: OperationSpec | undefined,
  message: string,
  extra: readonly string[] = [],
): string | undefined {
  if (!operation) return undefined;
  let found: string | undefined;
  let at = Number.POSITIVE_INFINITY;
  for (const name of fieldNames(operation, extra)) {
    const match = new RegExp(`(?<![\\w])${quoted(name)}(?![\\w])`).exec(message);
    if (match && match.index < at) {
      at = match.index;
      found = name;
    }
  }
  return found;
}

/**
 * The names a refusal's words may name a field by: every JSON body field and path parameter of the
 * interface, and `extra` (the paging names). The token request's form fields are its own: "scope"
 * in a scope refusal is a word, not the token request's field.
 */
export function interfaceNames(spec: Spec, extra: readonly string[]): string[] {
  const json = spec.operations.filter(
    (operation) => operation.requestBody?.mediaType !== 'application/x-www-form-urlencoded',
  );
  return [...new Set([...json.flatMap((operation) => fieldNames(operation, [])), ...extra])];
}

/** Whether a learned message names a request field (of any operation), so holds for that field only. */
export function namesAField(names: readonly string[], message: string): boolean {
  const bare = message.replace(/\{[A-Za-z0-9_]+\}/g, '');
  return names.some((name) => new RegExp(`(?<![\\w])${quoted(name)}(?![\\w])`).test(bare));
}

/** The recorded message with the request's own values as `{name}`, so another request gets its own. */
export function template(
  exchange: RoutedExchange,
  message: string,
  kind: RefusalKind,
  scopes?: readonly string[],
): string {
  const { operation } = exchange;
  const url = new URL(exchange.entry.request.url);
  const values: Array<[string, unknown]> = [
    ['path', url.pathname],
    ['route', exchange.path.split('?')[0]],
    ...Object.entries(requestFieldsOf(exchange)),
    // The scope a refusal names is the operation's: another operation's names its own.
    [
      'scope',
      kind === 'scope' && operation?.security.kind === 'bearer'
        ? (scopes ?? operation.security.scopes).join(',')
        : undefined,
    ],
  ];
  // Longest first, so a path is taken whole before an id inside it; whole words only, never inside a {name}.
  values.sort(([, a], [, b]) => String(b ?? '').length - String(a ?? '').length);
  let out = message;
  for (const [name, value] of values) {
    if (typeof value !== 'string' || value.length < 3) continue;
    out = out.replace(new RegExp(`(?<![\\w{])${quoted(value)}(?![\\w}])`, 'g'), `{${name}}`);
  }
  return out;
}

/** Refusals pacu's mock makes only once a request's token was taken. */
const AFTER_AUTHENTICATION: ReadonlySet<RefusalKind | undefined> = new Set([
  undefined,
  'content-type',
  'invalid-request',
  'unknown-id-in-path',
  'unknown-id-in-body',
  'not-a-funds-source',
  'reused-reference',
  'out-of-bounds',
]);

/**
 * A 401 or 403 to a request with a token the sandbox issued, which pacu takes or refuses only after
 * taking its token: the sandbox no longer took the token (it expired between issue and use).
 */
export function tokenRefusedLater(exchange: RoutedExchange, reply: MockReply): boolean {
  const status = exchange.entry.response.status;
  if (status !== 401 && status !== 403) return false;
  if (exchange.operation?.security.kind !== 'bearer') return false;
  const issued = exchange.entry.request.headers.some(
    ({ name, value }) =>
      name.toLowerCase() === 'authorization' && readRecordedCredential(value).kind === 'bearer',
  );
  return issued && (reply.status === 200 || AFTER_AUTHENTICATION.has(reply.refusal));
}
