import { type RoutedExchange, readRecordedCredential } from '../../../http/index.ts';
import {
  type JSONSchema7,
  type OperationId,
  type OperationSpec,
  requestFieldNames,
  schemaForProfile,
} from '../../../spec/index.ts';
import type { Behaviour, LearnedRefusal, RefusalKind } from '../behaviour.ts';
import type { MockReply } from '../http-types.ts';
import type { ReportDraft } from './learned-report.ts';
import { dataOf, entryOf, requestFieldsOf } from './samples.ts';
import type { ScratchMock } from './scratch-mock.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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
};

const ABOUT: Readonly<Record<RefusalKind, string>> = {
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
};

/** Kinds whose learned status holds on every operation; a body that breaks one operation's schema is its own. */
const ANYWHERE: ReadonlySet<RefusalKind> = new Set(
  (Object.keys(PACU_REFUSALS) as RefusalKind[]).filter((kind) => kind !== 'invalid-request'),
);

interface Refused {
  readonly operation: OperationId | undefined;
  readonly kind: RefusalKind;
  readonly status: number;
  readonly message: string | undefined;
  readonly entry: number;
}

const messageOf = (exchange: RoutedExchange): string | undefined => {
  const message = (exchange.responseJson as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
};

/** The recorded message with the request's own values as `{name}`, so another request gets its own. */
function template(exchange: RoutedExchange, message: string, kind: RefusalKind): string | undefined {
  const operation = exchange.operation;
  // A message that names a field says what was wrong with this body: pacu's own says it of the next.
  if (kind === 'invalid-request' && operation)
    for (const name of requestFieldNames(operation))
      if (new RegExp(`\\b${name}\\b`).test(message)) return undefined;
  const url = new URL(exchange.entry.request.url);
  const values: Array<[string, unknown]> = [
    ['path', url.pathname],
    ['route', exchange.path.split('?')[0]],
    ...Object.entries(requestFieldsOf(exchange)),
    // The scope a refusal names is the operation's: another operation's names its own.
    [
      'scope',
      kind === 'scope' && operation?.security.kind === 'bearer'
        ? operation.security.scopes.join(',')
        : undefined,
    ],
  ];
  // Longest first, so a path is taken whole before an id inside it; whole words only, never inside a {name}.
  values.sort(([, a], [, b]) => String(b ?? '').length - String(a ?? '').length);
  let out = message;
  for (const [name, value] of values) {
    if (typeof value !== 'string' || value.length < 3) continue;
    const quoted = value.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![\\w{])${quoted}(?![\\w}])`, 'g'), `{${name}}`);
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
]);

/**
 * A 401 or 403 to a request with a token the sandbox issued, which pacu takes or refuses only after
 * taking its token: the sandbox no longer took the token (it expired between issue and use).
 */
function tokenRefusedLater(exchange: RoutedExchange, reply: MockReply): boolean {
  const status = exchange.entry.response.status;
  if (status !== 401 && status !== 403) return false;
  if (exchange.operation?.security.kind !== 'bearer') return false;
  const issued = exchange.entry.request.headers.some(
    ({ name, value }) =>
      name.toLowerCase() === 'authorization' && readRecordedCredential(value).kind === 'bearer',
  );
  return issued && (reply.status === 200 || AFTER_AUTHENTICATION.has(reply.refusal));
}

function requiredOf(schema: JSONSchema7): string[] {
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((member) => requiredOf(member))];
}

/** The learned refusals and what recorded successes showed pacu's mock to be stricter than the sandbox. */
export interface RefusalFacts {
  refusal(operation: OperationId | undefined, kind: RefusalKind): LearnedRefusal | undefined;
}

/**
 * Send every recorded request to a scratch pacu mock and compare: a refusal of both is learned as
 * the sandbox answered it (status and message, by kind); a success the mock refuses teaches what the
 * sandbox let be (a token, a scope, a content type, a field pacu requires), and a refusal of a
 * request pacu takes is noted. `behaviour` is the scratch mock's own: what is learned of successes
 * goes into it as it is found, so later exchanges meet the sandbox's state.
 */
export function learnRefusals(
  exchanges: readonly RoutedExchange[],
  scratch: ScratchMock,
  behaviour: Mutable<Behaviour> & {
    bearerOptional: Set<OperationId>;
    scopeOptional: Set<OperationId>;
    optionalFields: Partial<Record<OperationId, string[]>>;
  },
  report: ReportDraft,
): RefusalFacts {
  const refused: Refused[] = [];
  /** A transfer reference's first recorded transaction id. */
  const firstIds = new Map<string, unknown>();
  const accepted = (exchange: RoutedExchange, reply: MockReply): boolean => {
    const operation = exchange.operation as OperationSpec;
    const entry = entryOf(exchange);
    switch (reply.refusal) {
      case 'missing-token':
      case 'bad-token':
        if (operation.bearerDocumented) {
          report.contradiction(
            [entry],
            `${operation.id} was answered 200 without a valid bearer token: the description states it takes one`,
          );
          return false;
        }
        behaviour.bearerOptional.add(operation.id);
        report.learned(
          `bearer.${operation.id}`,
          `whether ${operation.id} needs a bearer token`,
          false,
          'not needed',
          [entry],
        );
        return true;
      case 'scope':
        behaviour.scopeOptional.add(operation.id);
        report.learned(`scope.${operation.id}`, `whether ${operation.id} needs a scope`, false, 'any token', [
          entry,
        ]);
        return true;
      case 'content-type':
        behaviour.anyContentType = true;
        report.learned(
          'request.contentType',
          'JSON bodies under another Content-Type',
          true,
          'read as JSON',
          [entry],
        );
        return true;
      case 'invalid-request': {
        const schema = operation.requestBody?.schema;
        const body = exchange.requestJson as Record<string, unknown> | undefined;
        if (!schema || !body || typeof body !== 'object') return false;
        const stated = requiredOf(schemaForProfile(schema, 'documented'));
        const missing = requiredOf(schema).filter((name) => body[name] === undefined);
        const contradicting = missing.filter((name) => stated.includes(name));
        if (contradicting.length > 0) {
          report.contradiction(
            [entry],
            `${operation.id} was answered 200 without ${contradicting.join(', ')}, which the description requires`,
          );
          return false;
        }
        if (missing.length === 0) return false;
        const known = behaviour.optionalFields[operation.id] ?? [];
        behaviour.optionalFields[operation.id] = [...new Set([...known, ...missing])];
        for (const name of missing)
          report.learned(
            `required.${operation.id}.${name}`,
            `whether ${operation.id} requires ${name}`,
            false,
            'not required',
            [entry],
          );
        return true;
      }
      case 'reused-reference': {
        const reference = (exchange.requestJson as { reference?: unknown } | undefined)?.reference;
        const original = typeof reference === 'string' ? firstIds.get(reference) : undefined;
        if (original === undefined || dataOf(exchange)?.transaction_id !== original) {
          report.contradiction(
            [entry],
            `a reference used again with another body made another transaction: the reference is the idempotency key`,
          );
          return false;
        }
        behaviour.reusedReference = 'original-record';
        report.learned(
          'reusedReference',
          ABOUT['reused-reference'],
          'original-record',
          'answered 200 with the original record',
          [entry],
        );
        return true;
      }
      default:
        return false;
    }
  };
  for (const exchange of exchanges) {
    const status = exchange.entry.response.status;
    const entry = entryOf(exchange);
    if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
      report.unlearned(
        [entry],
        `answered ${status || 'nothing'}: no choice of the sandbox's (a server error, or no answer)`,
      );
      continue;
    }
    if (status < 300 && status !== 200 && exchange.operation) {
      report.contradiction([entry], `answered ${status}: the description says every success answer is 200`);
      continue;
    }
    const reference = (exchange.requestJson as { reference?: unknown } | undefined)?.reference;
    const id =
      exchange.operation?.id === 'usdTransfer' && status === 200
        ? dataOf(exchange)?.transaction_id
        : undefined;
    let reply = scratch.answer(exchange);
    if (reply instanceof Error) {
      report.unlearned([entry], `pacu's mock cannot take this request again: ${reply.message}`);
      continue;
    }
    if (status === 200) {
      if (typeof reference === 'string' && !firstIds.has(reference) && id !== undefined)
        firstIds.set(reference, id);
      if (reply.status === 200 || !exchange.operation) continue;
      const why = reply.refusal;
      if (accepted(exchange, reply)) {
        reply = scratch.answer(exchange);
        if (!(reply instanceof Error) && reply.status === 200) continue;
      }
      report.unlearned(
        [entry],
        `the sandbox took it where pacu's mock refuses it (${why ?? 'refused'}: ${String((reply as MockReply).body && ((reply as MockReply).body as { message?: unknown }).message)})`,
      );
      continue;
    }
    // A refusal of the sandbox's.
    const message = messageOf(exchange);
    if (tokenRefusedLater(exchange, reply)) {
      report.unlearned(
        [entry],
        `the sandbox refused a token it had issued (${status}${message ? ` "${message}"` : ''}), where pacu's mock ${reply.status === 200 ? 'takes the request' : `refuses it for another reason (${reply.refusal})`}: it had expired, most likely; not learned`,
      );
      continue;
    }
    if (reply.status === 200) {
      report.unlearned(
        [entry],
        `the sandbox refused it (${status}${message ? ` "${message}"` : ''}) where pacu's mock takes it`,
      );
      continue;
    }
    const kind = reply.refusal ?? 'invalid-request';
    if (
      kind === 'invalid-request' &&
      status !== 400 &&
      exchange.operation?.requestBody?.mediaType === 'application/json'
    ) {
      report.contradiction(
        [entry],
        `a body that breaks the request schema was answered ${status}: the description answers missing fields and invalid values with 400`,
      );
      continue;
    }
    refused.push({
      operation: exchange.operation?.id,
      kind,
      status,
      message: message && template(exchange, message, kind),
      entry,
    });
  }
  return consolidate(refused, report);
}

function consolidate(refused: readonly Refused[], report: ReportDraft): RefusalFacts {
  const byOperation = new Map<string, LearnedRefusal>();
  const anywhere = new Map<RefusalKind, LearnedRefusal>();
  const key = (operation: OperationId | undefined, kind: RefusalKind) => `${operation ?? ''}/${kind}`;
  const grouped = new Map<string, Refused[]>();
  for (const item of refused)
    grouped.set(key(item.operation, item.kind), [
      ...(grouped.get(key(item.operation, item.kind)) ?? []),
      item,
    ]);
  for (const [name, items] of grouped) {
    const [first] = items as [Refused, ...Refused[]];
    const agreeing = items.filter((item) => item.status === first.status);
    if (agreeing.length < items.length)
      report.unlearned(
        items.filter((item) => !agreeing.includes(item)).map((item) => item.entry),
        `${ABOUT[first.kind]} was answered with another status than entry ${first.entry}'s ${first.status}: the first is learned`,
      );
    const messages = new Set(agreeing.map((item) => item.message));
    const message = messages.size === 1 ? first.message : undefined;
    byOperation.set(name, { status: first.status, message });
  }
  for (const kind of Object.keys(PACU_REFUSALS) as RefusalKind[]) {
    const items = refused.filter((item) => item.kind === kind);
    const statuses = new Set(items.map((item) => item.status));
    const entries = items.map((item) => item.entry);
    const where = [...new Set(items.map((item) => item.operation ?? 'any path'))].join(', ');
    if (items.length > 0 && statuses.size === 1 && ANYWHERE.has(kind)) {
      const [first] = items as [Refused];
      const learned = byOperation.get(key(first.operation, kind)) as LearnedRefusal;
      anywhere.set(kind, learned);
      report.learned(
        `refusal.${kind}`,
        ABOUT[kind],
        learned,
        `${learned.status}${learned.message !== undefined ? ` "${learned.message}"` : ''} (seen on ${where})`,
        entries,
      );
    } else if (items.length > 0) {
      for (const item of items) {
        const learned = byOperation.get(key(item.operation, kind)) as LearnedRefusal;
        report.learned(
          `refusal.${item.operation ?? 'any'}.${kind}`,
          `${ABOUT[kind]}, on ${item.operation ?? 'any path'}`,
          learned,
          `${learned.status}${learned.message !== undefined ? ` "${learned.message}"` : ''}`,
          [item.entry],
        );
      }
      if (!ANYWHERE.has(kind))
        report.kept(
          `refusal.${kind}`,
          `${ABOUT[kind]}, elsewhere`,
          PACU_REFUSALS[kind],
          `${PACU_REFUSALS[kind]}`,
        );
    } else report.kept(`refusal.${kind}`, ABOUT[kind], PACU_REFUSALS[kind], `${PACU_REFUSALS[kind]}`);
  }
  return {
    refusal: (operation, kind) => byOperation.get(key(operation, kind)) ?? anywhere.get(kind),
  };
}
