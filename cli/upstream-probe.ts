import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** How long `pacu proxy` waits at start for the upstream to take a connection, at most. */
export const UPSTREAM_PROBE_MS = 5_000;

const SAID: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was reset',
};

/** A TLS error: the upstream answered, but with a certificate this process does not trust. */
const untrusted = (code: string): boolean => /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code);

/**
 * Why the upstream takes no connection, or undefined when it does: a TCP connection (and, for
 * https, a TLS handshake with the proxy's CA), and no request, so the provider sees nothing of it.
 */
export function upstreamProblem(
  upstream: URL,
  ca: string | undefined,
  timeoutMs: number = UPSTREAM_PROBE_MS,
): Promise<string | undefined> {
  const secure = upstream.protocol === 'https:';
  const host = upstream.hostname.replace(/^\[|\]$/g, '');
  const port = Number(upstream.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const socket = secure
      ? tlsConnect({ host, port, servername: host, ...(ca ? { ca } : {}) })
      : tcpConnect({ host, port });
    const done = (problem: string | undefined): void => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no connection within ${timeoutMs} ms`));
    socket.once(secure ? 'secureConnect' : 'connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      done(
        untrusted(code)
          ? `its certificate is not trusted (${code}): give --upstream-ca with the CA that signed it`
          : (SAID[code] ?? error.message),
      );
    });
  });
}
