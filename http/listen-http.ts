// Listening and closing gracefully, for the front door (http/front-door.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A node:http server listening, as the mock and the proxy hand it back. */
export interface ListeningServer {
  /** `http://host:port`, an IPv6 host in brackets. */
  readonly origin: string;
  /** Stop accepting, let requests in flight finish (at most {@link CLOSE_GRACE_MS}), then resolve. */
  close(): Promise<void>;
}

/** After close() starts, requests in flight get this long before their connections are cut. */
export const CLOSE_GRACE_MS = 5000;

/**
 * Listen on `host:port` and give the server's origin and a graceful close: idle keep-alive
 * connections close at once, busy ones when their answer is done, and whatever is still open after
 * the grace period is cut. Rejects with the listen error (the caller words it for its surface).
 */
export function listenHttp(server: Server, host: string, port: number): Promise<ListeningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        origin: `http://${hostPart}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
