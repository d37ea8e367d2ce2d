import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookSignatureProblem } from '../../http/index.ts';
import { ConfigError } from '../../spec/index.ts';

/** One delivery as the receiver got it. */
export interface Delivery {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: readonly Delivery[];
  close(): Promise<void>;
}

/** Listen for webhook deliveries (answering 204) on `host:port`; port 0 picks a free one. */
export async function startWebhookReceiver(
  port = 0,
  host = '127.0.0.1',
  where = 'the receiver URL',
): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string') headers[name] = value;
      deliveries.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is taken'
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? 'the host is not an address of this machine'
            : (error.code ?? error.message);
      reject(
        new ConfigError(
          `pacu: cannot listen for webhooks on ${host}:${port}: ${why}. Pick a free port of this machine in ${where}`,
          { cause: error },
        ),
      );
    });
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/webhooks`,
    deliveries,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Why a delivery's Standard Webhooks signature does not hold, or undefined when one of the
 * `v1,<base64>` signatures is the HMAC-SHA256 of `id.timestamp.body` under the secret.
 */
export function signatureProblem(delivery: Delivery, secret: string): string | undefined {
  return webhookSignatureProblem(delivery.headers, delivery.body, secret);
}
