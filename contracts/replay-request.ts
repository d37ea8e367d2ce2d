import type { RoutedExchange } from '../http/index.ts';
import { credentialValue, readRecordedCredential } from '../http/index.ts';
import type { ApiRequest } from '../suites/index.ts';

/** What a replay carries from one exchange to the next. */
export interface ReplayState {
  /** Recorded id → the id the replay's target answered in its place (identity when they agree). */
  readonly ids: Map<string, string>;
  /** The same pairs the other way: the target's id → the recorded id it stands for. */
  readonly recordedIds: Map<string, string>;
  /** Recorded reference → the reference the replay sends instead (`--same-references`: none). */
  readonly references: Map<string, string>;
  /** The last token the replay obtained; recorded tokens are redacted and never sent. */
  token: string | undefined;
}

/** The references `pacu replay` sends in place of recorded ones end so, with the run's tag. */
export const REFERENCE_LIMIT = 64;

/** Headers worth sending again: the body's type and what the client accepts; credentials are fresh. */
const KEPT_HEADERS = new Set(['content-type', 'accept']);

/** `value` with every recorded id the replay knows swapped for the target's. */
function mapped(value: unknown, state: ReplayState, key?: string): unknown {
  if (typeof value === 'string') {
    if (key === 'reference') return state.references.get(value) ?? value;
    return state.ids.get(value) ?? value;
  }
  if (Array.isArray(value)) return value.map((item) => mapped(item, state));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mapped(item, state, name)]));
  return value;
}

function mappedPath(path: string, state: ReplayState): string {
  const [pathname = '', query] = path.split(/\?(.*)/s, 2);
  const segments = pathname.split('/').map((segment) => {
    const decoded = decodeURIComponent(segment);
    const known = state.ids.get(decoded);
    return known === undefined ? segment : encodeURIComponent(known);
  });
  if (!query) return segments.join('/');
  const params = new URLSearchParams(query);
  for (const [name, value] of [...params]) params.set(name, state.ids.get(value) ?? value);
  return `${segments.join('/')}?${params}`;
}

/**
 * A fresh reference for a recorded one, unique to this run so the target never takes the replay for
 * the recorded request: the recorded text (cut to fit the 64 characters pacu allows) plus the tag.
 */
export function freshReference(recorded: string, tag: string): string {
  return `${recorded.slice(0, REFERENCE_LIMIT - tag.length - 1)}-${tag}`;
}

/** The request a recorded exchange becomes when replayed (credentials fresh, ids and references mapped). */
export function replayRequest(
  exchange: RoutedExchange,
  state: ReplayState,
  credentials: { clientId: string; clientSecret: string },
): ApiRequest {
  const { request } = exchange.entry;
  const headers: Record<string, string> = {};
  const isTokenRequest = exchange.operation?.id === 'getAccessToken';
  for (const { name, value } of request.headers) {
    const lower = name.toLowerCase();
    if (KEPT_HEADERS.has(lower)) headers[lower] = value;
    else if (lower === 'authorization') {
      // A redacted credential is the run's own, of the same kind: the client's (or its secret with
      // the suffix a wrong one had), or the replay's fresh token. A token request takes Basic only.
      const recorded = readRecordedCredential(value);
      const kind = isTokenRequest && recorded.kind === 'bearer' ? readRecordedCredential('Basic') : recorded;
      headers.authorization = credentialValue(kind, { ...credentials, token: state.token ?? '' });
    }
  }
  const text = request.postData?.text;
  const body =
    text === undefined
      ? undefined
      : exchange.requestJson === undefined
        ? text
        : JSON.stringify(mapped(exchange.requestJson, state));
  return {
    method: request.method.toUpperCase() as ApiRequest['method'],
    path: mappedPath(exchange.path, state),
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/** Whether the replayed request needs a bearer token from the replay (the recorded one is redacted). */
export function needsFreshToken(exchange: RoutedExchange): boolean {
  if (exchange.operation?.id === 'getAccessToken') return false;
  return exchange.entry.request.headers.some(
    ({ name, value }) =>
      name.toLowerCase() === 'authorization' && readRecordedCredential(value).kind === 'bearer',
  );
}
