import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationId } from '../../../spec/index.ts';
import { type NetworkOptions, startNetworkFront } from '../network/network-front.ts';
import { KNOB_DEFAULTS, type Knobs } from './knobs.ts';
import type { Behaviour, Mutation } from './mutants.ts';
import { Refusal } from './refusal.ts';
import { CLIENT_ID, clientSecretOf, createSpaceAuth } from './space-auth.ts';
import { readJsonBody, validateBody } from './space-bodies.ts';
import { listUsers } from './space-paging.ts';
import { createSpacePayments } from './space-payments.ts';
import { idMaker, seedRecords, timestampWriter } from './space-records.ts';

export interface SpaceProviderOptions {
  /** Choices where the description is silent. @default KNOB_DEFAULTS */
  readonly knobs?: Partial<Knobs>;
  /** The one stated sentence this provider breaks. @default none */
  readonly mutation?: Mutation;
}

export interface SpaceProvider {
  /** Base URL, ending in `/v3`. */
  readonly url: string;
  readonly knobs: Knobs;
  readonly client: { readonly clientId: string; readonly clientSecret: string };
  /** Records no operation creates, for `--card-id` and friends. */
  readonly ids: {
    readonly cardId: string;
    readonly cardTransactionId: string;
    readonly pushToCardId: string;
  };
  close(): Promise<void>;
}

/** The description's nine paths (relative to the base URL) as patterns. */
const ROUTES: ReadonlyArray<readonly [OperationId, string, RegExp]> = [
  ['getAccessToken', 'POST', /^\/auth\/token$/],
  ['usdTransfer', 'POST', /^\/payments\/usd\/direct$/],
  ['walletPayout', 'POST', /^\/payments\/wallet$/],
  ['createAccount', 'POST', /^\/accounts$/],
  ['getCardTransaction', 'GET', /^\/cards\/([^/]+)\/transactions\/([^/]+)$/],
  ['getPushToCardPayment', 'GET', /^\/payments\/card\/([^/]+)$/],
  ['getVirtualCard', 'GET', /^\/cards\/virtual\/([^/]+)$/],
  ['getP2pStatus', 'GET', /^\/p2p\/status\/([^/]+)$/],
  ['listUsers', 'GET', /^\/users$/],
];

const TOKEN_MESSAGE = 'Access token issued';

interface Answer {
  readonly status: number;
  readonly message: string;
  readonly data: Record<string, unknown>;
}

function setAt(data: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let node: Record<string, unknown> = data;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  node[last] = value;
}

/**
 * A sandbox of the space of legal providers, over real HTTP on 127.0.0.1: correct on every stated
 * sentence whatever its knobs, and wrong on exactly one when given a mutation.
 */
export async function startSpaceProvider(options: SpaceProviderOptions = {}): Promise<SpaceProvider> {
  const knobs: Knobs = { ...KNOB_DEFAULTS, ...options.knobs };
  const { mutation } = options;
  const mutated = (name: Behaviour): boolean => mutation?.kind === 'behaviour' && mutation.name === name;
  const newId = idMaker(knobs.idFormat);
  const stamp = timestampWriter(knobs.timestampForm);
  const seed = seedRecords(knobs, newId, stamp);
  const accounts = new Map<string, { hold: boolean }>([[seed.merchantAccountId, { hold: true }]]);
  const auth = createSpaceAuth(knobs, mutated, () => newId('tok'));

  function unknown(what: string): never {
    throw new Refusal(mutated('unknown-id-500') ? 500 : knobs.unknownIdStatus, `${what} names no record`);
  }
  /** The record when `found`; an unknown id is refused (or, broken, answered with the record anyway). */
  const known = <T>(found: boolean, record: T, what: string): T =>
    found || mutated('unknown-id-accepted') ? record : unknown(what);

  /** Broken (a request mutant of an id field): a missing or unusable id falls back to a default. */
  const unchecked = (operation: OperationId, field: string): boolean =>
    mutation?.kind === 'request' && mutation.operation === operation && mutation.field === field;

  const payments = createSpacePayments({
    knobs,
    mutated,
    newId,
    stamp,
    fundsSource(operation, given) {
      const fallback =
        unchecked(operation, 'account_id') && !(typeof given === 'string' && accounts.has(given));
      const id = fallback ? seed.merchantAccountId : given;
      const account = typeof id === 'string' ? accounts.get(id) : undefined;
      if (!account && !mutated('unknown-id-accepted')) unknown(`account_id ${String(id)}`);
      if (account && !account.hold)
        throw new Refusal(400, "this account holds no balance: pass the merchant's own account_id");
    },
  });

  async function operate(
    operation: OperationId,
    params: readonly string[],
    request: IncomingMessage,
    text: string,
    query: URLSearchParams,
  ): Promise<Answer> {
    if (operation === 'getAccessToken')
      return { status: 200, message: TOKEN_MESSAGE, data: auth.issue(request, text) };
    auth.authorize(request, operation);
    const body = (): Record<string, unknown> => {
      const parsed = readJsonBody(request, text, knobs, mutation);
      validateBody(operation, parsed, knobs, mutation);
      return parsed;
    };
    const [first = '', second = ''] = params;
    switch (operation) {
      case 'usdTransfer':
        return { status: 200, message: 'Transfer created', data: await payments.usdTransfer(body()) };
      case 'walletPayout':
        return {
          status: 200,
          message: 'Wallet payout created',
          data: payments.walletPayout(body(), seed.merchantAccountId),
        };
      case 'createAccount': {
        const sent = body();
        known(
          seed.users.some((user) => user.user_id === sent.user_id) || unchecked('createAccount', 'user_id'),
          sent,
          `user_id ${String(sent.user_id)}`,
        );
        const accountId = newId('acct');
        accounts.set(accountId, { hold: sent.hold_balance !== false });
        const rail = (routing: string) => ({ account_number: '9100000012345678', routing_number: routing });
        const numbers: Record<string, unknown> = {
          ACH: rail('021000021'),
          RTP: rail('021000021'),
          WIRE: rail('026009593'),
        };
        if (mutated('numbers-without-rtp')) delete numbers.RTP;
        return {
          status: mutated('account-created-201') ? 201 : 200,
          message: 'Account created',
          data: {
            account_id: accountId,
            account_status: mutated('account-created-pending') ? 'PENDING' : 'ACTIVE',
            balance: mutated('account-balance-nonzero') ? 100 : 0,
            numbers,
          },
        };
      }
      case 'getVirtualCard':
        return {
          status: 200,
          message: 'Virtual card found',
          data: known(first === seed.card.card_id, { ...seed.card }, `card_id ${first}`),
        };
      case 'getCardTransaction':
        known(first === seed.card.card_id, seed.card, `card_id ${first}`);
        return {
          status: 200,
          message: 'Card transaction found',
          data: known(
            second === seed.cardTransaction.transaction_id,
            { ...seed.cardTransaction },
            `transaction_id ${second}`,
          ),
        };
      case 'getPushToCardPayment':
        return {
          status: 200,
          message: 'Push-to-card payment found',
          data: known(
            first === seed.pushToCard.transaction_id,
            { ...seed.pushToCard },
            `transaction_id ${first}`,
          ),
        };
      case 'listUsers': {
        const { page, total_count, total_pages, ...items } = listUsers(seed.users, query, knobs);
        // Broken: one page more than total_count users at this page size fill.
        const pages = mutated('users-total-pages-off-by-one') ? Number(total_pages) + 1 : total_pages;
        const paging = mutated('users-without-paging') ? {} : { page, total_count, total_pages: pages };
        return { status: 200, message: 'Users listed', data: { ...items, ...paging } };
      }
      case 'getP2pStatus': {
        const user = seed.users.find((candidate) => candidate.user_id === first);
        return {
          status: 200,
          message: mutated('p2p-message-without-webhook') ? 'Validation status read' : knobs.webhookWording,
          data: {
            p2p_id: known(user !== undefined, user?.email ?? 'unknown@example.com', `user_id ${first}`),
            status: 'VALIDATED',
          },
        };
      }
    }
  }

  async function handle(request: IncomingMessage, text: string): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://space.invalid');
    // Broken: reads are served at the origin's root instead of under the base URL.
    const base = mutated('reads-outside-base') && request.method === 'GET' ? '' : knobs.basePath;
    if (!url.pathname.startsWith(`${base}/`))
      throw new Refusal(knobs.unknownPathStatus, `no resource at ${url.pathname}`);
    const asSent = url.pathname.slice(base.length);
    const route = knobs.pathVariants !== 'exact' && asSent.length > 1 ? asSent.replace(/\/$/, '') : asSent;
    for (const [operation, method, exact] of ROUTES) {
      const pattern =
        knobs.pathVariants === 'trailing-slash-and-case' ? new RegExp(exact.source, 'i') : exact;
      const match = pattern.exec(route);
      if (!match || method !== request.method) continue;
      if (mutation?.kind === 'moved' && mutation.operation === operation) break;
      const params = match.slice(1).map((segment) => decodeURIComponent(segment));
      const answer = await operate(operation, params, request, text, url.searchParams);
      if (mutation?.kind === 'record' && mutation.operation === operation) {
        const data = structuredClone(answer.data);
        setAt(data, mutation.field, mutation.value);
        return { ...answer, data };
      }
      return answer;
    }
    throw new Refusal(knobs.unknownPathStatus, `no operation at ${request.method} ${route}`);
  }

  function envelope(answer: Answer): Record<string, unknown> {
    const data = knobs.extraDataFields ? { ...answer.data, environment: 'sandbox' } : answer.data;
    return {
      success: !mutated('success-flag-false'),
      message: mutated('success-message-not-a-string') ? 7 : answer.message,
      // The token answer keeps its data: without a token pacu could judge nothing (exit 2, not a finding).
      ...(mutated('success-without-data') && answer.message !== TOKEN_MESSAGE ? {} : { data }),
    };
  }

  function errorEnvelope(status: number, detail: string): Record<string, unknown> {
    const message = knobs.errorMessages === 'detailed' || status >= 500 ? detail : 'Invalid request';
    if (mutated('error-without-message')) return { success: false, error: message };
    return {
      success: mutated('error-success-true'),
      message,
      ...(mutated('error-extra-data') ? { data: null } : {}),
    };
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      let status: number;
      let body: Record<string, unknown>;
      try {
        const answer = await handle(request, Buffer.concat(chunks).toString('utf8'));
        status = answer.status;
        body = envelope(answer);
      } catch (error) {
        status = error instanceof Refusal ? error.status : 500;
        body = errorEnvelope(status, (error as Error).message);
      }
      const type = mutated('text-plain-answers') ? 'text/plain' : knobs.responseContentType;
      response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The network a remote sandbox has, when the knobs ask for one: pacu sees the front, not the server.
  const front = networked(knobs)
    ? await startNetworkFront(`${origin}${knobs.basePath}`, networkOf(knobs))
    : undefined;
  return {
    url: front?.url ?? `${origin}${knobs.basePath}`,
    knobs,
    client: { clientId: CLIENT_ID, clientSecret: clientSecretOf(knobs) },
    ids: {
      cardId: seed.card.card_id,
      cardTransactionId: seed.cardTransaction.transaction_id,
      pushToCardId: seed.pushToCard.transaction_id,
    },
    close: async () => {
      await front?.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

const networked = (knobs: Knobs): boolean =>
  knobs.latencyMs > 0 ||
  knobs.rateLimit !== 'none' ||
  knobs.maintenance !== 'none' ||
  knobs.resets !== 'none';

/** The front's settings for the network knobs. */
function networkOf(knobs: Knobs): NetworkOptions {
  const limits = {
    none: undefined,
    '25-per-second': { burst: 25, perSecond: 25 },
    'bursts-of-100-then-25': { burst: 100, perSecond: 25 },
    '20-per-second-bursts-of-40': { burst: 40, perSecond: 20 },
  } as const;
  const bucket = limits[knobs.rateLimit];
  const rateLimit = bucket && { ...bucket, retryAfter: knobs.retryAfter };
  return {
    latencyMs: knobs.latencyMs,
    jitterMs: knobs.latencyMs / 10,
    ...(rateLimit ? { rateLimit } : {}),
    ...(knobs.maintenance === 'windows'
      ? { maintenance: { everyMs: 20_000, forMs: 2_000, firstAtMs: 3_000, retryAfter: knobs.retryAfter } }
      : {}),
    ...(knobs.resets === 'one-in-a-hundred' ? { resetShare: 0.01 } : {}),
    ...(knobs.resets === 'one-get-in-200' ? { resetShare: 1 / 200, resetMethods: ['GET'] } : {}),
  };
}
