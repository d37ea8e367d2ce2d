import { type RoutedExchange, readRecordedCredential } from '../../../http/index.ts';
import { dataOf } from './samples.ts';

/**
 * For each exchange that carried a token the sandbox issued, the scopes of that token: the last one
 * issued before it, as the recording reads (tokens are redacted alike, so the last one is the one a
 * client uses). Granted scopes are the answer's `scope` field, else what was asked.
 */
export function tokenScopes(exchanges: readonly RoutedExchange[]): Map<RoutedExchange, readonly string[]> {
  const scopes = new Map<RoutedExchange, readonly string[]>();
  let current: readonly string[] | undefined;
  for (const exchange of exchanges) {
    if (exchange.operation?.id === 'getAccessToken') {
      if (exchange.entry.response.status !== 200) continue;
      const granted = dataOf(exchange)?.scope;
      const asked = new URLSearchParams(exchange.entry.request.postData?.text ?? '').get('scope');
      const text = typeof granted === 'string' ? granted : (asked ?? '');
      current = text.split(/[\s,]+/).filter((name) => name !== '');
      continue;
    }
    const header = exchange.entry.request.headers.find(({ name }) => name.toLowerCase() === 'authorization');
    if (current && header && readRecordedCredential(header.value).kind === 'bearer')
      scopes.set(exchange, current);
  }
  return scopes;
}

/** The scopes a token request asked for, and those its answer granted (when it says). */
export function askedAndGranted(exchange: RoutedExchange): {
  asked: string[];
  granted: string[] | undefined;
} {
  const asked = (new URLSearchParams(exchange.entry.request.postData?.text ?? '').get('scope') ?? '')
    .split(/[\s,]+/)
    .filter((name) => name !== '');
  const scope = dataOf(exchange)?.scope;
  return {
    asked,
    granted: typeof scope === 'string' ? scope.split(/[\s,]+/).filter((name) => name !== '') : undefined,
  };
}
