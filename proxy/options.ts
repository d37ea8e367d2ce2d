import { readFileSync } from 'node:fs';
import { FRONT_DOOR_DEFAULTS } from '../http/index.ts';
import { ConfigError } from '../spec/index.ts';
import type { ProxyOptions, ResolvedProxyOptions } from './types.ts';

/** The defaults of {@link ProxyOptions}. */
export const PROXY_DEFAULTS = {
  upstreamTimeoutMs: 30_000,
  port: 0,
  host: '127.0.0.1',
  maxHeaderSize: FRONT_DOOR_DEFAULTS.maxHeaderSize,
  headersTimeoutMs: FRONT_DOOR_DEFAULTS.headersTimeoutMs,
  requestTimeoutMs: FRONT_DOOR_DEFAULTS.requestTimeoutMs,
  profile: 'documented',
  // Every kept exchange is copied by each young-generation collection (decision 101 has the
  // figures). The HAR keeps them all; `--keep-exchanges` keeps more.
  keepExchanges: 25,
  control: true,
  onRecordError: 'serve',
  keepCardData: false,
} as const satisfies Partial<ProxyOptions>;

/** The upstream base URL: http or https, ending in `/v3` (the interface's version segment). */
export function upstreamUrl(text: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`pacu: --upstream "${text}" is not an http(s) URL`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v3'))
    throw new ConfigError(
      `pacu: --upstream ${text} must be the base URL ending in /v3 (the interface's version segment), e.g. ${url.origin}/v3`,
    );
  if (url.search || url.hash)
    throw new ConfigError(`pacu: --upstream ${text} must have no query or fragment`);
  // A credential in the URL would be sent nowhere and could end up in a report: say so instead.
  if (url.username || url.password)
    throw new ConfigError(
      `pacu: --upstream must not carry a user name or password (${url.protocol}//…@${url.host}): the client's own credentials pass through the proxy`,
    );
  url.pathname = path;
  return url;
}

function caOf(value: string): string {
  if (value.includes('-----BEGIN')) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch (cause) {
    throw new ConfigError(
      `pacu: cannot read --upstream-ca ${value}: ${(cause as NodeJS.ErrnoException).code ?? cause}`,
      {
        cause,
      },
    );
  }
}

/** Fill in every default, once, at the boundary; a bad upstream is a usage error. */
export function resolveProxyOptions(options: ProxyOptions): ResolvedProxyOptions {
  return {
    upstream: upstreamUrl(options.upstream),
    upstreamCa: options.upstreamCa === undefined ? undefined : caOf(options.upstreamCa),
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? PROXY_DEFAULTS.upstreamTimeoutMs,
    port: options.port ?? PROXY_DEFAULTS.port,
    host: options.host ?? PROXY_DEFAULTS.host,
    limits: {
      ...FRONT_DOOR_DEFAULTS,
      maxHeaderSize: options.maxHeaderSize ?? PROXY_DEFAULTS.maxHeaderSize,
      headersTimeoutMs: options.headersTimeoutMs ?? PROXY_DEFAULTS.headersTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs ?? PROXY_DEFAULTS.requestTimeoutMs,
    },
    profile: options.profile ?? PROXY_DEFAULTS.profile,
    record: options.record,
    onRecordError: options.onRecordError ?? PROXY_DEFAULTS.onRecordError,
    keepCardData: options.keepCardData ?? PROXY_DEFAULTS.keepCardData,
    clientSecret: options.clientSecret,
    clientId: options.clientId,
    redactHeaders: [...(options.redactHeaders ?? [])],
    redactFields: [...(options.redactFields ?? [])],
    onFinding: options.onFinding,
    observers: [...(options.observers ?? [])],
    keepExchanges: options.keepExchanges ?? PROXY_DEFAULTS.keepExchanges,
    control: options.control ?? PROXY_DEFAULTS.control,
    controlToken: options.controlToken,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}
