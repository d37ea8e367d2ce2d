import { STATUS_CODES } from 'node:http';
import { Pool } from 'undici';
import type { ResolvedProxyOptions } from './types.ts';

/** Headers that belong to one connection, not to the message (RFC 9110 7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

type Headers = Record<string, string | string[] | undefined>;

/** The end-to-end headers of a message: hop-by-hop ones and those its Connection header names dropped. */
export function endToEnd(headers: Headers, drop: readonly string[] = []): Record<string, string | string[]> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || named.includes(lower) || drop.includes(lower))
      continue;
    out[lower] = value;
  }
  return out;
}

/** Why the upstream gave no answer, as the status the client gets and a message naming the upstream. */
export function noAnswer(
  error: unknown,
  upstream: string,
  timeoutMs: number,
): { status: 502 | 504; message: string } {
  const code = (error as { code?: string })?.code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return {
      status: 504,
      message: `pacu proxy: the upstream ${upstream} did not answer within ${timeoutMs} ms`,
    };
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  const why =
    code === 'ECONNREFUSED' || cause === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'UND_ERR_SOCKET' || code === 'ECONNRESET'
        ? 'the connection was reset before an answer'
        : ((error as Error)?.message ?? String(error));
  return { status: 502, message: `pacu proxy: cannot reach the upstream ${upstream}: ${why}` };
}

export const statusText = (status: number): string => STATUS_CODES[status] ?? '';

/** One connection pool to the upstream, with its CA and time limits. */
export function createUpstream(options: ResolvedProxyOptions): Pool {
  return new Pool(options.upstream.origin, {
    headersTimeout: options.upstreamTimeoutMs,
    bodyTimeout: options.upstreamTimeoutMs,
    connectTimeout: options.upstreamTimeoutMs,
    ...(options.upstreamCa ? { connect: { ca: options.upstreamCa } } : {}),
  });
}
