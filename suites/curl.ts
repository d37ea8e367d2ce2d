import type { ApiRequest } from './api-request.ts';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A copy-paste `curl` command for a request against a base URL (POSIX shell quoting). */
export function renderCurl(baseUrl: string, request: ApiRequest): string {
  const parts = ['curl', '-i', '-X', request.method, quote(`${baseUrl.replace(/\/+$/, '')}${request.path}`)];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}
