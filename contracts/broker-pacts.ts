// undici loads with the first request: `pacu diff` without a broker never needs it.
import type { Dispatcher } from 'undici';
import { TargetUnreachableError } from '../spec/index.ts';
import { type PactInteraction, parsePact } from './pact-file.ts';

export interface BrokerAccess {
  readonly url: string;
  readonly token?: string;
}

type Hal = { _links?: Record<string, { href?: string }>; _embedded?: { pacts?: Hal[] } };

/**
 * The pacts a Pact Broker would have `provider` verify (its "pacts for verification" with the
 * default selectors), read as interactions. For `pacu diff --pacts URL`: who uses what, not a
 * verification, so nothing is published. A broker that cannot be read is a usage error, never "no
 * consumers" (that would let `--fail-on used` pass unchecked).
 */
export async function fetchBrokerPacts(
  broker: BrokerAccess,
  provider: string,
  timeoutMs = 10_000,
): Promise<PactInteraction[]> {
  const call = async (url: string, body?: unknown): Promise<Hal> => {
    let response: Dispatcher.ResponseData;
    try {
      const { request } = await import('undici');
      response = await request(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          accept: 'application/hal+json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(broker.token ? { authorization: `Bearer ${broker.token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (cause) {
      const code = (cause as { code?: string }).code ?? (cause as Error).message;
      const reason = code === 'ECONNREFUSED' ? 'connection refused' : code;
      throw new TargetUnreachableError(
        `pacu: cannot reach the Pact Broker at ${broker.url}: ${reason}. Is the --pacts URL right and the broker up?`,
        { cause },
      );
    }
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw new TargetUnreachableError(
        `pacu: the Pact Broker answered HTTP ${response.statusCode} for ${url}`,
      );
    try {
      return JSON.parse(text) as Hal;
    } catch (cause) {
      throw new TargetUnreachableError(
        `pacu: the Pact Broker at ${broker.url} answered ${url} with no JSON`,
        { cause },
      );
    }
  };
  const index = await call(broker.url);
  const template = index._links?.['pb:provider-pacts-for-verification']?.href;
  if (!template)
    throw new TargetUnreachableError(
      `pacu: ${broker.url} is not a Pact Broker (no pb:provider-pacts-for-verification link)`,
    );
  const listed = await call(template.replace('{provider}', encodeURIComponent(provider)), {});
  const links = (listed._embedded?.pacts ?? [])
    .map((pact) => pact._links?.self?.href)
    .filter((href) => href !== undefined);
  const pacts = await Promise.all(links.map(async (href) => parsePact(await call(href), href)));
  return pacts.flat();
}
