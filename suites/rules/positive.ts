import { OPERATION_IDS, type OperationId } from '../../spec/index.ts';
import type { ApiRequest, ApiResponse } from '../api-request.ts';
import { dataOf } from '../envelope-checks.ts';
import { PASS, type Rule, type RuleKit, type RuleOutcome, type Verdict } from '../rule.ts';

const ALL = OPERATION_IDS;

function eachValidRequest(
  kit: RuleKit,
  judge: (request: ApiRequest, response: ApiResponse) => Verdict,
): Promise<RuleOutcome> {
  return kit.check(kit.valid(), async (request) => judge(request, await kit.send(request)));
}

export const acceptedRule: Rule = {
  id: 'positive.accepted',
  category: 'positive',
  title: 'a valid request generated from the schema gets HTTP 200',
  operations: ALL,
  needs: ['client', 'token', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    eachValidRequest(kit, (request, response) =>
      response.status === 200
        ? PASS
        : {
            ok: false,
            reason: `a valid request got HTTP ${response.status}, expected 200`,
            request,
            response,
          },
    ),
};

/** What the record must repeat from the request: body fields, or ids from the path. */
function echoed(operation: OperationId, request: ApiRequest): Record<string, unknown> {
  const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
  const segments = request.path.split('?')[0]?.split('/').map(decodeURIComponent) ?? [];
  switch (operation) {
    case 'usdTransfer': {
      const { account_id: _source, ...rest } = body;
      return rest;
    }
    case 'walletPayout': {
      const { account_id: _source, ...rest } = body;
      return rest;
    }
    case 'getCardTransaction':
      return { card_id: segments[2], transaction_id: segments[4] };
    case 'getPushToCardPayment':
      return { transaction_id: segments[3] };
    case 'getVirtualCard':
      return { card_id: segments[3] };
    default:
      return {};
  }
}

const same = (a: unknown, b: unknown): boolean =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) < 1e-9 : a === b;

export const echoesRequestRule: Rule = {
  id: 'positive.echoes-request',
  category: 'positive',
  title: 'the record repeats what was sent: transfer and payout fields, the ids read',
  operations: ['usdTransfer', 'walletPayout', 'getCardTransaction', 'getPushToCardPayment', 'getVirtualCard'],
  needs: ['client', 'token', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    eachValidRequest(kit, (request, response) => {
      const data = dataOf(response);
      if (response.status !== 200 || !data) return PASS; // other rules report refusals and shapes
      const wrong = Object.entries(echoed(kit.operation, request)).filter(
        ([key, value]) => !same(data[key], value),
      );
      if (wrong.length === 0) return PASS;
      return {
        ok: false,
        reason: wrong
          .map(([key, value]) => `${key} sent ${JSON.stringify(value)}, got ${JSON.stringify(data[key])}`)
          .join('; '),
        request,
        response,
      };
    }),
};

/** The values the description states for a record just created (or, for p2p, shown). */
const CREATION_VALUES: Partial<Record<OperationId, Record<string, unknown>>> = {
  usdTransfer: { transaction_status: 'processing' },
  walletPayout: { transaction_status: 'processing' },
  createAccount: { account_status: 'ACTIVE', balance: 0 },
  getP2pStatus: { status: 'VALIDATED' },
};

export const creationValuesRule: Rule = {
  id: 'positive.creation-values',
  category: 'positive',
  title: 'new payments are processing, new accounts ACTIVE with balance 0, p2p ids VALIDATED',
  operations: ['usdTransfer', 'walletPayout', 'createAccount', 'getP2pStatus'],
  needs: ['client', 'token', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    eachValidRequest(kit, (request, response) => {
      const data = dataOf(response);
      if (response.status !== 200 || !data) return PASS;
      const expected = CREATION_VALUES[kit.operation] ?? {};
      const wrong = Object.entries(expected).filter(([key, value]) => !same(data[key], value));
      if (wrong.length === 0) return PASS;
      return {
        ok: false,
        reason: wrong
          .map(([key, value]) => `${key} is ${JSON.stringify(data[key])}, expected ${JSON.stringify(value)}`)
          .join('; '),
        request,
        response,
      };
    }),
};
