import { bearerToken } from '../../http/index.ts';
import type { Profile } from '../../spec/index.ts';
import { faultOf, judgedCheck } from '../rules/catalogue.ts';
import { requestJson } from '../target/api-request.ts';
import { boundedQueue } from './bounded-map.ts';
import type { ExchangeFinding, ObservedExchange } from './exchange-judge.ts';

// The checks only a watcher of many exchanges applies, named in the one registry.
const REPLAY = judgedCheck('state', 'idempotency.same-reference-replay');
const REFUSED_EARLY = judgedCheck('state', 'auth.token-refused-early');
const EXPIRED = judgedCheck('state', 'auth.token-expired');
const SCOPE_ECHO = judgedCheck('state', 'auth.scope-echo');

/** What the state remembers of each: at most this many, oldest forgotten first. */
export const EXCHANGE_STATE_LIMIT = 100_000;

interface IssuedToken {
  readonly issuedAtMs: number;
  readonly lifetimeSeconds: number;
  readonly scopes: readonly string[];
}

export interface ExchangeStateOptions {
  /** The time of an exchange's answer (tests drive it). @default the exchange's startedAt */
  readonly now?: (exchange: ObservedExchange) => number;
  /** How long past its lifetime a token may still be accepted before that is a finding. @default 60 */
  readonly expiryGraceSeconds?: number;
}

/** Observations across exchanges: issued tokens, references and the transactions they made. */
export interface ExchangeState {
  /** The findings this exchange adds to what was seen before it (call in order of completion). */
  observe(operationId: string | undefined, exchange: ObservedExchange): ExchangeFinding[];
  /** The rules applied so far, for the report's passed rows. */
  readonly checked: ReadonlySet<string>;
}

const scopesOf = (text: unknown): string[] =>
  typeof text === 'string'
    ? text
        .split(/[,\s]+/)
        .map((scope) => scope.trim())
        .filter(Boolean)
    : [];

const dataOf = (exchange: ObservedExchange): Record<string, unknown> | undefined => {
  const data = (exchange.response.json as { data?: unknown } | undefined)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
};

const jsonBody = (exchange: ObservedExchange): Record<string, unknown> | undefined => {
  const value = requestJson(exchange.request);
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
};

/**
 * The stateful half of the judge: what only a watcher of many exchanges can see. A reference the
 * provider answered with two transaction ids (Endpoints note 1: the reference is the idempotency
 * key), a token refused before its `expires_in_seconds` ran out or accepted long after, a scope
 * echoed that the token request did not ask for (Authentication 3).
 */
export function createExchangeState(options: ExchangeStateOptions = {}): ExchangeState {
  const now = options.now ?? ((exchange: ObservedExchange) => Date.parse(exchange.startedAt));
  const graceMs = (options.expiryGraceSeconds ?? 60) * 1000;
  const tokens = boundedQueue<string, IssuedToken>(EXCHANGE_STATE_LIMIT);
  const references = boundedQueue<string, string>(EXCHANGE_STATE_LIMIT);
  const checked = new Set<string>();
  const finding = (
    rule: string,
    profile: Profile,
    reason: string,
    operation: string | undefined,
    exchange: ObservedExchange,
  ): ExchangeFinding => ({ side: faultOf(rule), rule, profile, reason, operation, exchange });

  const onToken = (exchange: ObservedExchange): ExchangeFinding[] => {
    const data = dataOf(exchange);
    if (exchange.response.status !== 200 || typeof data?.access_token !== 'string') return [];
    const asked = scopesOf(new URLSearchParams(exchange.request.body ?? '').get('scope'));
    const echoed = scopesOf(data.scope);
    tokens.set(data.access_token, {
      issuedAtMs: now(exchange),
      lifetimeSeconds: typeof data.expires_in_seconds === 'number' ? data.expires_in_seconds : Number.NaN,
      scopes: echoed,
    });
    checked.add(SCOPE_ECHO);
    const extra = asked.length > 0 ? echoed.filter((scope) => !asked.includes(scope)) : [];
    return extra.length > 0
      ? [
          finding(
            SCOPE_ECHO,
            'documented',
            `the token response echoes scope ${extra.join(',')}, which the token request (scope ${asked.join(',')}) did not ask for`,
            'getAccessToken',
            exchange,
          ),
        ]
      : [];
  };

  const onBearer = (operationId: string | undefined, exchange: ObservedExchange): ExchangeFinding[] => {
    const token = bearerToken(exchange.request.headers.authorization);
    const issued = token === undefined ? undefined : tokens.get(token);
    if (!issued || !Number.isFinite(issued.lifetimeSeconds)) return [];
    const ageMs = now(exchange) - issued.issuedAtMs;
    const lifetimeMs = issued.lifetimeSeconds * 1000;
    const status = exchange.response.status;
    const age = `${Math.round(ageMs / 1000)} s`;
    checked.add(REFUSED_EARLY);
    if (status === 401 && ageMs < lifetimeMs)
      return [
        finding(
          REFUSED_EARLY,
          'documented',
          `a token issued ${age} ago with expires_in_seconds ${issued.lifetimeSeconds} was refused with 401`,
          operationId,
          exchange,
        ),
      ];
    checked.add(EXPIRED);
    if (status >= 200 && status < 300 && ageMs > lifetimeMs + graceMs)
      return [
        finding(
          EXPIRED,
          'documented',
          `a token issued ${age} ago with expires_in_seconds ${issued.lifetimeSeconds} was still accepted`,
          operationId,
          exchange,
        ),
      ];
    return [];
  };

  const onTransfer = (exchange: ObservedExchange): ExchangeFinding[] => {
    const data = dataOf(exchange);
    const reference = jsonBody(exchange)?.reference;
    if (exchange.response.status !== 200 || typeof reference !== 'string') return [];
    const transaction = data?.transaction_id;
    if (typeof transaction !== 'string') return [];
    checked.add(REPLAY);
    const before = references.getOrRemember(reference, transaction);
    if (before === undefined) return [];
    return before === transaction
      ? []
      : [
          finding(
            REPLAY,
            'documented',
            `reference ${reference} was answered with transaction ${before} before and ${transaction} now: the reference is the idempotency key`,
            'usdTransfer',
            exchange,
          ),
        ];
  };

  return {
    checked,
    observe(operationId, exchange) {
      if (operationId === 'getAccessToken') return onToken(exchange);
      const found = onBearer(operationId, exchange);
      if (operationId === 'usdTransfer') found.push(...onTransfer(exchange));
      return found;
    },
  };
}
