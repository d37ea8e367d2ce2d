import { SECRET_STAND_INS } from '../../http/index.ts';
import { SCOPES } from '../../spec/index.ts';
import type { ApiRequest } from './api-request.ts';

const single = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
/** Double quotes, so the shell fills in the `$PACU_*` variables and nothing else. */
const double = (text: string): string => `"${text.replace(/["\\`]/g, '\\$&')}"`;

const BASIC_MARKER = /^Basic <(.*)>$/;

/**
 * A copy-paste `curl` command for a (redacted) request against a base URL, in POSIX shell quoting.
 * Credentials come from the environment: a Basic credential becomes `-u "$PACU_CLIENT_ID:$PACU_CLIENT_SECRET"`,
 * a bearer token `"authorization: Bearer $PACU_TOKEN"` (see {@link CURL_ENVIRONMENT_NOTE}).
 */
export function renderCurl(baseUrl: string, request: ApiRequest): string {
  // A base URL that is a shell variable (`$PACU_TARGET`) is left to the shell to fill in.
  const url = /^\$[A-Z_]+$/.test(baseUrl)
    ? `"${baseUrl}"${single(request.path)}`
    : single(`${baseUrl.replace(/\/+$/, '')}${request.path}`);
  const parts = ['curl', '-i', '-X', request.method, url];
  for (const [name, value] of Object.entries(request.headers)) {
    const basic = name.toLowerCase() === 'authorization' ? BASIC_MARKER.exec(value) : null;
    if (basic?.[1]?.startsWith(`${SECRET_STAND_INS.clientId}:`)) parts.push('-u', double(basic[1]));
    else if (value.includes(SECRET_STAND_INS.token)) parts.push('-H', double(`${name}: ${value}`));
    else parts.push('-H', single(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', single(request.body));
  return parts.join(' ');
}

/** Said beside every curl line: where its credentials come from. */
export const CURL_ENVIRONMENT_NOTE =
  'curl lines read credentials from the environment: set PACU_CLIENT_ID and PACU_CLIENT_SECRET, and PACU_TOKEN to an access token ' +
  `(PACU_TOKEN=$(curl -s -u "$PACU_CLIENT_ID:$PACU_CLIENT_SECRET" -d grant_type=client_credentials -d scope=${SCOPES.join(',')} <target>/auth/token | jq -r .data.access_token))`;
