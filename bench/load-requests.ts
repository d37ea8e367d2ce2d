// The two requests the load runs hammer, and the token they carry: shared by the mock's and the proxy's bench.
import { loadSpec } from '../spec/index.ts';
import type { Target } from './targets.ts';
import type { LoadRequest, LoadResult } from './wrk.ts';

/** The spec's example transfer, sent WIRE with a fresh reference each time. */
export const EXAMPLE_TRANSFER = (await loadSpec()).operation('usdTransfer').requestBody?.examples
  .ach as Record<string, unknown>;

export async function mockToken(target: Pick<Target, 'origin' | 'info'>): Promise<string> {
  const response = await fetch(`${target.origin}/v3/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${target.info.clientId}:${target.info.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=card,us_account',
  });
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

export function requests(
  token: string,
  accountId: string,
): Record<'GET /users' | 'POST /payments/usd/direct', LoadRequest> {
  const headers = { authorization: `Bearer ${token}` };
  const run = Date.now().toString(36);
  return {
    'GET /users': { method: 'GET', path: '/users', headers },
    'POST /payments/usd/direct': {
      method: 'POST',
      path: '/payments/usd/direct',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...EXAMPLE_TRANSFER,
        account_id: accountId,
        transfer_type: 'WIRE',
        reference: `B-${run}-{{n}}`,
      }),
    },
  };
}

/** One printed line of a load run. */
export const row = (name: string, label: string, result: LoadResult): string =>
  `${label.padEnd(28)} ${name.padEnd(24)} ${String(result.requestsPerSecond).padStart(8)} req/s  p50 ${result.p50Ms.toFixed(2).padStart(6)} ms  p99 ${result.p99Ms.toFixed(2).padStart(6)} ms${result.serverCpu === undefined ? '' : `  server CPU ${Math.round(result.serverCpu * 100)}%`}${result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors})` : ''}`;
