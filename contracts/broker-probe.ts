// undici loads with the first request: `pacu diff` without a broker never needs it.
import type { Dispatcher } from 'undici';
import { TargetUnreachableError } from '../spec/index.ts';

interface BrokerAccess {
  readonly url: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

/** The broker's auth header: a bearer token, or Basic credentials. */
function brokerAuthorization(broker: BrokerAccess): Record<string, string> {
  if (broker.token) return { authorization: `Bearer ${broker.token}` };
  if (broker.username)
    return {
      authorization: `Basic ${Buffer.from(`${broker.username}:${broker.password ?? ''}`).toString('base64')}`,
    };
  return {};
}

/**
 * Ask the broker for its HAL index before the verifier runs: the verifier treats a broker it cannot
 * read as "no pacts", which would look like a clean run. Nothing listening, an error status or an
 * answer that is not a HAL index (an HTML page) is a usage error naming the URL.
 */
export async function assertBrokerReachable(broker: BrokerAccess, timeoutMs: number): Promise<void> {
  let response: Dispatcher.ResponseData;
  try {
    // undici, not fetch: fetch refuses some ports outright, which would hide the real reason.
    const { request } = await import('undici');
    response = await request(broker.url, {
      headers: { accept: 'application/hal+json', ...brokerAuthorization(broker) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    const reason =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'UND_ERR_HEADERS_TIMEOUT'
          ? `no answer within ${timeoutMs} ms`
          : (code ?? (cause as Error).message);
    throw new TargetUnreachableError(
      `pacu: cannot reach the Pact Broker at ${broker.url}: ${reason}. Is --broker-url right and the broker up?`,
      { cause },
    );
  }
  const text = await response.body.text();
  const status = response.statusCode;
  if (status < 200 || status >= 300)
    throw new TargetUnreachableError(
      `pacu: the Pact Broker at ${broker.url} answered HTTP ${status}${status === 401 || status === 403 ? ': check --broker-token (or PACT_BROKER_TOKEN)' : ''}`,
    );
  let index: { _links?: unknown } | undefined;
  try {
    index = JSON.parse(text) as { _links?: unknown };
  } catch {
    index = undefined;
  }
  if (!index || typeof index._links !== 'object' || index._links === null)
    throw new TargetUnreachableError(
      `pacu: ${broker.url} is not a Pact Broker: it answered ${String(response.headers['content-type'] ?? 'no content type')}, not a HAL index with _links`,
    );
}
