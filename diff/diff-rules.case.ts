import type { CheckId } from './checks.ts';
import type { Origin } from './glossary.ts';

// One small edit of spec/openapi.yaml per rule, as hono's router/common.case.test.ts lists its cases:
// the table is data, diff-specs.test.ts runs it. `before` edits the old side when a rule needs a
// starting point the description does not have (a deprecated operation, a closed object).

// biome-ignore lint/suspicious/noExplicitAny: the cases edit a parsed YAML document freely.
export type Doc = any;
type Edit = (doc: Doc) => void;

export interface RuleCase {
  readonly check: CheckId;
  readonly origin: Origin;
  readonly after: Edit;
  readonly before?: Edit;
}

const S = (doc: Doc): Doc => doc.components.schemas;
const users = (doc: Doc): Doc => doc.paths['/users'].get;
const usd = (doc: Doc): Doc => doc.paths['/payments/usd/direct'].post;
const wallet = (doc: Doc): Doc => doc.paths['/payments/wallet'].post;
const token = (doc: Doc): Doc => doc.paths['/auth/token'].post;
const scopes = (doc: Doc): Doc => doc.components.securitySchemes.bearerAuth.flows.clientCredentials.scopes;
const param = (doc: Doc, name: string): Doc => users(doc).parameters.find((p: Doc) => p.name === name);
const drop = (list: string[], name: string): string[] => list.filter((item) => item !== name);
const json = (schema: Doc): Doc => ({ 'application/json': { schema } });

export const RULE_CASES: readonly RuleCase[] = [
  { check: 'operation-removed', origin: 'description', after: (d) => delete d.paths['/users'] },
  {
    check: 'deprecated-operation-removed',
    origin: 'description',
    before: (d) => {
      users(d).deprecated = true;
    },
    after: (d) => delete d.paths['/users'],
  },
  {
    check: 'operation-added',
    origin: 'description',
    after: (d) => {
      d.paths['/refunds'] = {
        post: { operationId: 'createRefund', responses: { 200: { description: 'ok' } } },
      };
    },
  },
  {
    check: 'operation-id-changed',
    origin: 'description',
    after: (d) => {
      users(d).operationId = 'getUsers';
    },
  },
  {
    check: 'operation-deprecated',
    origin: 'description',
    after: (d) => {
      users(d).deprecated = true;
    },
  },

  {
    check: 'server-base-path-changed',
    origin: 'description',
    after: (d) => {
      d.servers[0].url = 'https://sandbox.payments.test/v4';
    },
  },
  {
    check: 'new-required-request-parameter',
    origin: 'description',
    after: (d) =>
      users(d).parameters.push({
        name: 'merchant_id',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
  },
  {
    check: 'new-optional-request-parameter',
    origin: 'description',
    after: (d) => users(d).parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }),
  },
  {
    check: 'request-parameter-removed',
    origin: 'decision',
    after: (d) => {
      users(d).parameters = users(d).parameters.filter((p: Doc) => p.name !== 'per_page');
    },
  },
  {
    check: 'request-parameter-became-required',
    origin: 'decision',
    after: (d) => {
      param(d, 'page').required = true;
    },
  },
  {
    check: 'request-parameter-became-optional',
    origin: 'description',
    after: (d) => {
      d.paths['/p2p/status/{user_id}'].get.parameters[0].required = false;
    },
  },
  {
    check: 'request-parameter-location-changed',
    origin: 'decision',
    after: (d) => {
      param(d, 'page').in = 'header';
    },
  },

  {
    check: 'request-body-added-required',
    origin: 'description',
    after: (d) => {
      users(d).requestBody = { required: true, content: json({ type: 'object' }) };
    },
  },
  {
    check: 'request-body-added-optional',
    origin: 'description',
    after: (d) => {
      users(d).requestBody = { content: json({ type: 'object' }) };
    },
  },
  {
    check: 'request-body-became-required',
    origin: 'description',
    before: (d) => {
      usd(d).requestBody.required = false;
    },
    after: () => {},
  },
  {
    check: 'request-body-became-optional',
    origin: 'description',
    after: (d) => {
      usd(d).requestBody.required = false;
    },
  },
  { check: 'request-body-removed', origin: 'description', after: (d) => delete wallet(d).requestBody },
  {
    check: 'request-media-type-removed',
    origin: 'description',
    after: (d) => {
      const content = token(d).requestBody.content;
      token(d).requestBody.content = { 'application/json': content['application/x-www-form-urlencoded'] };
    },
  },
  {
    check: 'request-media-type-added',
    origin: 'description',
    after: (d) => {
      token(d).requestBody.content['application/json'] = { schema: { type: 'object' } };
    },
  },
  {
    check: 'response-media-type-removed',
    origin: 'description',
    after: (d) => {
      users(d).responses['200'].content = {
        'application/xml': users(d).responses['200'].content['application/json'],
      };
    },
  },
  {
    check: 'response-media-type-added',
    origin: 'description',
    after: (d) => {
      users(d).responses['200'].content['text/csv'] = { schema: { type: 'string' } };
    },
  },

  {
    check: 'response-success-status-removed',
    origin: 'description',
    after: (d) => delete users(d).responses['200'],
  },
  {
    check: 'response-non-success-status-removed',
    origin: 'description',
    after: (d) => delete users(d).responses['400'],
  },
  {
    check: 'response-status-added',
    origin: 'description',
    after: (d) => {
      users(d).responses['429'] = { description: 'Slow down.' };
    },
  },

  {
    check: 'response-required-header-removed',
    origin: 'description',
    before: (d) => {
      users(d).responses['200'].headers = {
        'x-total-count': { required: true, schema: { type: 'integer' } },
      };
    },
    after: () => {},
  },
  {
    check: 'response-optional-header-removed',
    origin: 'description',
    before: (d) => {
      users(d).responses['200'].headers = { 'x-request-id': { schema: { type: 'string' } } };
    },
    after: () => {},
  },
  {
    check: 'response-header-added',
    origin: 'description',
    after: (d) => {
      users(d).responses['200'].headers = { 'x-request-id': { schema: { type: 'string' } } };
    },
  },
  {
    check: 'new-required-request-property',
    origin: 'description',
    after: (d) => {
      S(d).UsdTransferRequest.properties.purpose = { type: 'string' };
      S(d).UsdTransferRequest.required.push('purpose');
    },
  },
  {
    check: 'new-optional-request-property',
    origin: 'description',
    after: (d) => {
      S(d).UsdTransferRequest.properties.purpose = { type: 'string' };
    },
  },
  {
    check: 'request-property-removed',
    origin: 'description',
    after: (d) => delete S(d).UsdTransferRequest.properties.description,
  },
  {
    check: 'request-property-removed-closed',
    origin: 'description',
    before: (d) => {
      S(d).UsdTransferRequest.additionalProperties = false;
    },
    after: (d) => {
      S(d).UsdTransferRequest.additionalProperties = false;
      delete S(d).UsdTransferRequest.properties.description;
    },
  },
  {
    check: 'request-property-became-required',
    origin: 'description',
    after: (d) => S(d).UsdTransferRequest.required.push('description'),
  },
  {
    check: 'request-property-became-optional',
    origin: 'description',
    after: (d) => {
      S(d).UsdTransferRequest.required = drop(S(d).UsdTransferRequest.required, 'recipient_email');
    },
  },
  {
    check: 'request-property-type-changed',
    origin: 'description',
    after: (d) => {
      S(d).AccountCreationRequest.properties.hold_balance.type = 'string';
    },
  },
  {
    check: 'request-property-type-generalized',
    origin: 'description',
    after: (d) => {
      S(d).AccountCreationRequest.properties.hold_balance.type = ['boolean', 'string'];
    },
  },
  {
    check: 'request-property-format-changed',
    origin: 'description',
    after: (d) => {
      S(d).WalletPayoutRequest.properties.wallet_id.format = 'uri';
    },
  },
  {
    check: 'request-property-format-removed',
    origin: 'description',
    after: (d) => delete S(d).WalletPayoutRequest.properties.wallet_id.format,
  },
  {
    check: 'request-property-enum-value-removed',
    origin: 'description',
    after: (d) => {
      S(d).AccountType.enum = ['CHECKING', 'SAVINGS'];
    },
  },
  {
    check: 'request-property-enum-value-added',
    origin: 'description',
    after: (d) => S(d).TransferType.enum.push('RTP'),
  },
  {
    check: 'request-property-became-enum',
    origin: 'description',
    after: (d) => {
      S(d).WalletPayoutRequest.properties.recipient_name.enum = ['Sam Lee'];
    },
  },
  {
    check: 'request-property-enum-dropped',
    origin: 'description',
    after: (d) => delete S(d).TokenRequest.properties.grant_type.enum,
  },
  {
    check: 'request-property-pattern-added',
    origin: 'description',
    after: (d) => {
      S(d).WalletPayoutRequest.properties.description.pattern = '^[ -~]*$';
    },
  },
  {
    check: 'request-property-pattern-changed',
    origin: 'description',
    before: (d) => {
      S(d).WalletPayoutRequest.properties.description.pattern = '^[ -~]*$';
    },
    after: (d) => {
      S(d).WalletPayoutRequest.properties.description.pattern = '^[A-Za-z ]*$';
    },
  },
  {
    check: 'request-property-pattern-removed',
    origin: 'decision',
    after: (d) => delete S(d).TokenRequest.properties.scope.pattern,
  },
  {
    check: 'request-property-bound-tightened',
    origin: 'decision',
    after: (d) => {
      S(d).UsdTransferRequest.properties.reference.allOf[1].maxLength = 32;
    },
  },
  {
    check: 'request-property-bound-set',
    origin: 'description',
    after: (d) => {
      S(d).WalletPayoutRequest.properties.description.minLength = 1;
    },
  },
  {
    check: 'request-property-bound-relaxed',
    origin: 'decision',
    after: (d) => {
      S(d).UsdTransferRequest.properties.reference.allOf[1].maxLength = 128;
    },
  },
  {
    check: 'request-property-closed',
    origin: 'description',
    after: (d) => {
      S(d).AccountCreationRequest.additionalProperties = false;
    },
  },
  {
    check: 'request-property-opened',
    origin: 'description',
    before: (d) => {
      S(d).AccountCreationRequest.additionalProperties = false;
    },
    after: () => {},
  },
  {
    check: 'property-multiple-of-changed',
    origin: 'description',
    after: (d) => {
      S(d).Amount.multipleOf = 0.01;
    },
  },

  {
    check: 'response-required-property-removed',
    origin: 'description',
    // "The response ... adds transaction_date, transaction_id and transaction_status": stated, so required.
    after: (d) => {
      delete S(d).UsdTransfer.properties.transaction_id;
      for (const member of S(d).UsdTransfer.allOf)
        if (member.required) member.required = drop(member.required, 'transaction_id');
    },
  },
  {
    check: 'response-optional-property-removed',
    origin: 'description',
    before: (d) => {
      S(d).Account.properties.memo = { type: 'string' };
    },
    after: () => {},
  },
  {
    check: 'response-required-property-added',
    origin: 'description',
    after: (d) => {
      S(d).Account.properties.created_at = { type: 'string' };
      S(d).Account.required.push('created_at');
    },
  },
  {
    check: 'response-optional-property-added',
    origin: 'description',
    after: (d) => {
      S(d).Account.properties.nickname = { type: 'string' };
    },
  },
  {
    check: 'response-property-became-optional',
    origin: 'description',
    after: (d) => {
      S(d).Account.required = drop(S(d).Account.required, 'balance');
    },
  },
  {
    check: 'response-property-became-required',
    origin: 'description',
    before: (d) => {
      S(d).Account.required = drop(S(d).Account.required, 'balance');
    },
    after: () => {},
  },
  {
    check: 'response-property-type-changed',
    origin: 'description',
    after: (d) => {
      S(d).VirtualCard.properties.card_name.type = 'integer';
    },
  },
  {
    check: 'response-property-type-narrowed',
    origin: 'description',
    before: (d) => {
      S(d).VirtualCard.properties.card_name.type = ['string', 'null'];
    },
    after: () => {},
  },
  {
    check: 'response-property-format-changed',
    origin: 'description',
    after: (d) => {
      S(d).P2pStatus.properties.p2p_id.format = 'uri';
    },
  },
  {
    check: 'response-property-format-added',
    origin: 'description',
    after: (d) => {
      S(d).VirtualCard.properties.card_name.format = 'uuid';
    },
  },
  {
    check: 'response-property-enum-value-added',
    origin: 'description',
    after: (d) => S(d).AccountType.enum.push('MONEY_MARKET'),
  },
  {
    check: 'response-property-enum-value-removed',
    origin: 'description',
    after: (d) => {
      S(d).AccountType.enum = ['CHECKING', 'SAVINGS'];
    },
  },
  {
    check: 'response-property-became-enum',
    origin: 'description',
    after: (d) => {
      S(d).VirtualCard.properties.currency.enum = ['USD'];
    },
  },
  {
    check: 'response-property-enum-dropped',
    origin: 'description',
    after: (d) => delete S(d).AccountType.enum,
  },
  {
    check: 'response-property-pattern-changed',
    origin: 'description',
    after: (d) => {
      S(d).VirtualCard.properties.expiration.pattern = '^[0-9]{2}/[0-9]{4}$';
    },
  },
  {
    check: 'response-property-bound-relaxed',
    origin: 'description',
    before: (d) => {
      S(d).VirtualCard.properties.card_name.maxLength = 50;
    },
    after: () => {},
  },
  {
    check: 'response-property-bound-tightened',
    origin: 'description',
    after: (d) => {
      S(d).VirtualCard.properties.card_name.maxLength = 50;
    },
  },
  {
    check: 'response-property-opened',
    origin: 'description',
    before: (d) => {
      S(d).Account.additionalProperties = false;
    },
    after: () => {},
  },
  {
    check: 'response-property-closed',
    origin: 'description',
    after: (d) => {
      S(d).Account.additionalProperties = false;
    },
  },

  {
    check: 'security-scheme-removed',
    origin: 'description',
    after: (d) => delete d.components.securitySchemes.clientBasic,
  },
  {
    check: 'security-scheme-added',
    origin: 'description',
    after: (d) => {
      d.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'x-api-key' };
    },
  },
  {
    check: 'security-scheme-changed',
    origin: 'description',
    after: (d) => {
      d.components.securitySchemes.bearerAuth.flows.clientCredentials.tokenUrl =
        'https://sandbox.payments.test/v4/auth/token';
    },
  },
  { check: 'token-scope-removed', origin: 'description', after: (d) => delete scopes(d).card },
  {
    check: 'token-scope-renamed',
    origin: 'description',
    after: (d) => {
      scopes(d).usd_account = scopes(d).us_account;
      delete scopes(d).us_account;
    },
  },
  {
    check: 'token-scope-added',
    origin: 'description',
    after: (d) => {
      scopes(d).admin = 'Everything.';
    },
  },
  {
    check: 'operation-security-added',
    origin: 'description',
    before: (d) => delete usd(d).security,
    after: () => {},
  },
  { check: 'operation-security-removed', origin: 'description', after: (d) => delete usd(d).security },
  {
    check: 'operation-security-scope-added',
    origin: 'decision',
    after: (d) => {
      users(d).security = [{ bearerAuth: ['card'] }];
    },
  },
  {
    check: 'operation-security-scope-removed',
    origin: 'decision',
    after: (d) => {
      d.paths['/cards/virtual/{card_id}'].get.security = [{ bearerAuth: [] }];
    },
  },

  { check: 'webhook-removed', origin: 'decision', after: (d) => delete d.webhooks['p2p.validated'] },
  {
    check: 'webhook-added',
    origin: 'decision',
    after: (d) => {
      d.webhooks['account.frozen'] = structuredClone(d.webhooks['p2p.validated']);
    },
  },

  {
    check: 'webhook-required-header-removed',
    origin: 'decision',
    after: (d) => {
      d.webhooks['p2p.validated'].post.parameters = d.webhooks['p2p.validated'].post.parameters.slice(0, 2);
    },
  },
  {
    check: 'webhook-optional-header-removed',
    origin: 'decision',
    before: (d) => {
      d.webhooks['p2p.validated'].post.parameters = [
        ...d.webhooks['p2p.validated'].post.parameters,
        { name: 'webhook-attempt', in: 'header', schema: { type: 'integer' } },
      ];
    },
    after: () => {},
  },
  {
    check: 'webhook-header-added',
    origin: 'decision',
    after: (d) => {
      d.webhooks['p2p.validated'].post.parameters = [
        ...d.webhooks['p2p.validated'].post.parameters,
        { name: 'webhook-attempt', in: 'header', schema: { type: 'integer' } },
      ];
    },
  },
  {
    check: 'idempotency-key-removed',
    origin: 'description',
    after: (d) => {
      delete S(d).UsdTransferRequest.properties.reference;
      S(d).UsdTransferRequest.required = drop(S(d).UsdTransferRequest.required, 'reference');
    },
  },
  {
    check: 'idempotency-key-renamed',
    origin: 'description',
    after: (d) => {
      const request = S(d).UsdTransferRequest;
      request.properties.idempotency_key = request.properties.reference;
      delete request.properties.reference;
      request.required = request.required.map((name: string) =>
        name === 'reference' ? 'idempotency_key' : name,
      );
    },
  },
  {
    check: 'idempotency-key-optional',
    origin: 'description',
    after: (d) => {
      S(d).UsdTransferRequest.required = drop(S(d).UsdTransferRequest.required, 'reference');
    },
  },
  {
    check: 'transaction-status-added',
    origin: 'description',
    after: (d) => S(d).TransactionStatus.enum.push('returned'),
  },
  {
    check: 'transaction-status-removed',
    origin: 'description',
    after: (d) => {
      S(d).TransactionStatus.enum = ['processing', 'successful'];
    },
  },
  {
    check: 'amount-type-changed',
    origin: 'description',
    after: (d) => {
      S(d).UsdTransfer.properties.amount.type = 'string';
    },
  },

  {
    check: 'decision-added',
    origin: 'decision',
    after: (d) => {
      S(d).Account.properties.balance['x-pacu-decision'] = 'pacu reports balances in USD.';
    },
  },
  { check: 'decision-removed', origin: 'decision', after: (d) => delete d['x-pacu-decisions'].balances },
  {
    check: 'decision-changed',
    origin: 'decision',
    after: (d) => {
      d['x-pacu-decisions'].versioning = 'Breaking changes get /v4.';
    },
  },
  {
    check: 'decided-limit-lowered',
    origin: 'decision',
    after: (d) => {
      d['x-pacu-limits'].maxBodyBytes = 65536;
    },
  },
  {
    check: 'decided-limit-raised',
    origin: 'decision',
    after: (d) => {
      d['x-pacu-limits'].maxJsonDepth = 64;
    },
  },
];

/** An echoed required request field, and the operation whose record echoes it. */
export interface EchoCase {
  readonly operation: string;
  readonly field: string;
  readonly after: Edit;
}

// "The response echoes the request fields": each required field of the USD transfer request is in
// its record by the description's own words, so its removal from the record is breaking under
// `documented` (decision 180). One case per field; diff-specs.test.ts holds the list to echoOf().
const unechoed =
  (field: string): Edit =>
  (d) => {
    const record = S(d).UsdTransfer;
    delete record.properties[field];
    for (const member of record.allOf ?? [])
      if (member.required) member.required = drop(member.required, field);
  };

export const ECHO_CASES: readonly EchoCase[] = [
  'account_number',
  'account_type',
  'amount',
  'reference',
  'recipient_email',
  'recipient_name',
  'routing_number',
  'transfer_type',
].map((field) => ({ operation: 'usdTransfer', field, after: unechoed(field) }));
