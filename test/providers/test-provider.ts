import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  compileSchema,
  isAbaRoutingNumber,
  type JSONSchema7,
  loadSpec,
  type OperationSpec,
  schemaForProfile,
} from '../../spec/index.ts';
import { createProviderControl, HttpError, type Payment } from './provider-control.ts';
import type { TestProvider, TestProviderOptions } from './provider-glossary.ts';
import { depthOf, prefixedIds, seedRecords, uuidIds } from './provider-records.ts';
import { createProviderTokens } from './provider-tokens.ts';

export type { ProviderStyle, TestProvider, TestProviderOptions } from './provider-glossary.ts';

const SECRET = 'test-secret';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const spec = await loadSpec();
  const pacu = options.style === 'pacu';
  const broken = [options.breaks ?? []].flat();
  const breaks = (rule: string): boolean => broken.includes(rule);
  const newId = pacu ? prefixedIds() : uuidIds();
  const seed = seedRecords(newId);
  const profile = pacu ? 'strict' : 'documented';
  const checks = new Map(
    spec.operations
      .filter((operation) => operation.requestBody?.mediaType === 'application/json')
      .map((operation) => [
        operation.id,
        compileSchema(schemaForProfile(operation.requestBody?.schema as JSONSchema7, profile)),
      ]),
  );
  // The provider's own clock, moved only by its control API (as a pacu mock's manual clock).
  const clock = { now: Date.UTC(2024, 5, 1) };
  const accounts = new Map<string, { hold: boolean }>([[seed.merchantAccountId, { hold: true }]]);
  const references = new Map<string, { record: Record<string, unknown>; body: string; answered: boolean }>();
  const payments = new Map<string, Payment>();
  const pushToCardId = newId('ptc');
  payments.set(pushToCardId, {
    kind: 'push_to_card',
    dueAt: clock.now,
    final: 'successful',
    record: {
      transaction_id: pushToCardId,
      amount: 50,
      card_number: '411111******1111',
      description: '',
      transaction_date: '2024-06-01T10:00:00Z',
      transaction_status: 'successful',
    },
  });

  // Broken: the whole API under another version segment ("`{base_url}` ends in `/v3`").
  const base = breaks('positive.version-path') ? '/v2' : '/v3';
  const extra = (data: Record<string, unknown>) => (pacu ? data : { ...data, provider_note: 'extra field' });
  const timestamp = () =>
    new Date(clock.now).toISOString().replace(/\.\d+Z$/, options.offsetTimestamps ? '+00:00' : 'Z');
  // A record field the request did not carry may be left out (the record echoes the request's fields).
  const noted = (body: Record<string, unknown>) =>
    options.omitsAbsentDescription || 'description' in body ? {} : { description: '' };

  function jsonBody(
    request: IncomingMessage,
    text: string,
    operation: OperationSpec,
  ): Record<string, unknown> {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (type !== 'application/json' && !options.lenientContentType)
      throw new HttpError(pacu ? 400 : 415, 'Content-Type must be application/json');
    // pacu's decided limits; the other style has none, which the description allows.
    if (pacu && !breaks('errors.limits') && Buffer.byteLength(text) > 1024 * 1024)
      throw new HttpError(413, 'request body is over 1048576 bytes');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (breaks('errors.malformed-request')) throw new HttpError(500, 'crashed parsing the body');
      throw new HttpError(400, 'malformed JSON');
    }
    if (pacu && depthOf(body) > 32) throw new HttpError(400, 'JSON nested deeper than 32 levels');
    const issues = (breaks('errors.invalid-body') ? [] : (checks.get(operation.id)?.(body) ?? [])).filter(
      (issue) =>
        !(
          options.anyRecipientEmail &&
          issue.path === '/recipient_email' &&
          issue.message.includes('format')
        ) && !(options.routingNumberOptional && issue.message.includes('routing_number')),
    );
    const amount = (body as { amount?: unknown } | null)?.amount;
    if (options.amountCap !== undefined && typeof amount === 'number' && amount > options.amountCap)
      throw new HttpError(400, `amount must not exceed ${options.amountCap}`);
    if (issues.length > 0 || !body || typeof body !== 'object')
      throw new HttpError(options.invalidBodyStatus ?? 400, `Invalid request ${issues[0]?.path ?? ''}`);
    return body as Record<string, unknown>;
  }

  function sourceAccount(id: unknown): void {
    if (typeof id !== 'string' || !accounts.get(id)?.hold)
      throw new HttpError(400, `account_id ${String(id)} names no account holding a balance`);
  }

  function unknown(what: string): never {
    if (breaks('errors.unknown-id')) throw new HttpError(500, `crashed looking up ${what}`);
    throw new HttpError(pacu ? 400 : 404, `${what} names no record`);
  }

  function startPayment(kind: string, record: Record<string, unknown>): void {
    payments.set(String(record.transaction_id), {
      kind,
      record,
      dueAt: clock.now + 10_000,
      final: record.amount === 13.13 ? 'failed' : 'successful',
    });
  }

  async function usdTransfer(body: Record<string, unknown>, text: string) {
    if (pacu && !isAbaRoutingNumber(String(body.routing_number)) && !options.routingNumberOptional)
      throw new HttpError(400, 'routing_number fails the ABA checksum');
    const key = String(body.reference);
    const existing = options.sameIds ? undefined : references.get(key);
    if (existing) {
      const same = existing.body === text;
      // Broken for a repeat sent after the first was answered; twins in flight with it still share it.
      const replayBroken = same && breaks('idempotency.same-reference-replay') && existing.answered;
      if (!same && pacu && !breaks('idempotency.same-reference-different-body'))
        throw new HttpError(409, `reference ${key} was already used with a different request body`);
      if (!replayBroken && !(!same && breaks('idempotency.same-reference-different-body')))
        return existing.record;
    }
    sourceAccount(body.account_id);
    const { account_id: _source, ...echo } = body;
    const record = {
      ...noted(body),
      ...echo,
      recipient_name: breaks('positive.echoes-request')
        ? `${String(body.recipient_name).toUpperCase()}X`
        : body.recipient_name,
      transaction_date: timestamp(),
      transaction_id: options.sameIds ? 'txn_7f3e9a2b1c4d5e6f' : newId('txn'),
      transaction_status: 'processing',
    };
    if (breaks('idempotency.concurrent-requests')) await pause(10);
    const stored = { record, body: text, answered: false };
    references.set(key, stored);
    startPayment('usd_transfer', record);
    // The first answer is held a while, so twins sent with it arrive before it, however loaded the host.
    if (breaks('idempotency.same-reference-replay')) await pause(300);
    stored.answered = true;
    return record;
  }

  async function handle(request: IncomingMessage, text: string): Promise<{ status: number; body: unknown }> {
    const url = new URL(request.url ?? '/', 'http://provider');
    const path = url.pathname;
    if (path.startsWith('/__pacu/') && pacu) return control(request.method ?? 'GET', path.slice(7), text);
    if (!path.startsWith(`${base}/`)) throw new HttpError(404, `no operation at ${path}`);
    const route = path.slice(base.length);
    const operation = spec.operations.find(
      (candidate) =>
        new RegExp(`^${candidate.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`).test(route) &&
        candidate.method.toUpperCase() === request.method,
    );
    if (!operation) throw new HttpError(404, `no operation at ${route}`);
    const params = (
      new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`).exec(route)?.slice(1) ?? []
    ).map(decodeURIComponent);
    if (operation.id === 'getAccessToken') return { status: 200, body: token(request, text) };
    bearerToken(request, operation.security.kind === 'bearer' ? operation.security.scopes : []);
    const ok = (message: string, data: Record<string, unknown>) => ({
      status: 200,
      body: { success: true, message, data: extra(data) },
    });
    switch (operation.id) {
      case 'usdTransfer': {
        const body = jsonBody(request, text, operation);
        if (breaks('positive.accepted') && body.description !== undefined)
          throw new HttpError(400, 'description is not supported');
        return ok('Transfer created', await usdTransfer(body, text));
      }
      case 'walletPayout': {
        const body = jsonBody(request, text, operation);
        const listed = Object.keys(operation.requestBody?.schema.properties ?? {});
        const absent = listed.filter((field) => !(field in body));
        if (options.walletRequiresEveryField && absent.length > 0)
          throw new HttpError(400, `${absent.join(', ')} is required`);
        sourceAccount(body.account_id);
        const { account_id: _source, ...echo } = body;
        const record = {
          ...noted(body),
          ...echo,
          transaction_date: timestamp(),
          transaction_id: options.sameIds ? 'wpo_7f3e9a2b1c4d5e6f' : newId('wpo'),
          transaction_status: 'processing',
        };
        startPayment('wallet_payout', record);
        return ok('Wallet payout created', record);
      }
      case 'createAccount': {
        const body = jsonBody(request, text, operation);
        if (body.user_id !== seed.user.user_id)
          throw new HttpError(400, `user_id ${String(body.user_id)} names no user`);
        const accountId = newId('acct');
        accounts.set(accountId, { hold: body.hold_balance === true });
        const rail = { account_number: '912345678901', routing_number: '021000021' };
        return ok('Account created', {
          account_id: accountId,
          account_status: 'ACTIVE',
          balance: breaks('positive.creation-values') ? 100 : 0,
          numbers: { ACH: rail, RTP: rail, WIRE: rail },
        });
      }
      case 'getVirtualCard':
        return params[0] === seed.card.card_id
          ? ok('Card found', seed.card)
          : unknown(`card_id ${params[0]}`);
      case 'getCardTransaction':
        if (params[0] !== seed.card.card_id) unknown(`card_id ${params[0]}`);
        return params[1] === seed.cardTransaction.transaction_id
          ? ok('Transaction found', seed.cardTransaction)
          : unknown(`transaction_id ${params[1]}`);
      case 'getPushToCardPayment': {
        const payment = payments.get(params[0] ?? '');
        return payment?.kind === 'push_to_card'
          ? ok('Payment found', payment.record)
          : unknown(`transaction_id ${params[0]}`);
      }
      case 'listUsers':
        if (options.refusesQuery && url.search !== '') throw new HttpError(400, 'unknown query parameter');
        return ok('Users listed', {
          items: options.noUsers ? [] : [seed.user],
          page: Number(url.searchParams.get('page') ?? 1),
          total_count: options.noUsers ? 0 : 1,
          // Broken: one page more than one user fills.
          total_pages: breaks('envelope.related-fields') ? 2 : 1,
        });
      case 'getP2pStatus':
        return params[0] === seed.user.user_id
          ? ok(
              breaks('positive.message-states')
                ? 'Validation status read'
                : 'Validation status is delivered through a webhook',
              {
                p2p_id: seed.user.email,
                status: 'VALIDATED',
              },
            )
          : unknown(`user_id ${params[0]}`);
    }
  }

  const auth = createProviderTokens({ clock, pacu, breaks, newId, extra, secret: SECRET, options });
  const token = auth.issue;
  const bearerToken = auth.authorize;

  const control = createProviderControl({
    clock,
    payments,
    newId,
    timestamp,
    breaks,
    startPayment,
    ids: {
      cardId: seed.card.card_id,
      cardTransactionId: seed.cardTransaction.transaction_id,
      pushToCardId,
      merchantAccountId: seed.merchantAccountId,
      userId: seed.user.user_id,
      clientId: 'client',
      clientSecret: SECRET,
      scopes: ['card', 'us_account'],
    },
  });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      let reply: { status: number; body: unknown };
      try {
        reply = await handle(request, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        const message = (error as Error).message;
        reply = {
          status,
          body:
            breaks('envelope.error-shape') || options.brokenErrorStatuses?.includes(status)
              ? { success: false, error: message }
              : { success: false, message, ...(options.errorExtraField ? { data: null } : {}) },
        };
      }
      if (breaks('envelope.success-shape') && reply.status === 200)
        delete (reply.body as { message?: string }).message;
      const type = breaks('envelope.content-type')
        ? 'text/plain'
        : pacu
          ? 'application/json'
          : 'application/json; charset=utf-8';
      response.writeHead(reply.status, { 'content-type': type }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${base}`,
    origin,
    ids: {
      cardId: seed.card.card_id,
      cardTransactionId: seed.cardTransaction.transaction_id,
      pushToCardId,
      accountId: seed.merchantAccountId,
      userId: seed.user.user_id,
    },
    client: { clientId: 'client', clientSecret: SECRET },
    issuedTokens: auth.issued,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
