// Database round trips counted on the wire, apart from what pacu counts itself: a relay between the
// mock and PostgreSQL counts, per connection, each time the client speaks after the server did
// (several statements sent in one write, or pipelined, are one round trip).
import { createServer, type Server, type Socket } from 'node:net';

export interface RoundTripRelay {
  /** The port to give the mock instead of PostgreSQL's. */
  readonly port: number;
  /** Round trips so far, over every connection. */
  count(): number;
  /** Round trips that began between `from` and `to` (performance.now() times). */
  between(from: number, to: number): number;
  close(): Promise<void>;
}

/** A TCP relay on 127.0.0.1 to PostgreSQL at `port`, counting round trips. */
export async function startRoundTripRelay(port: number): Promise<RoundTripRelay> {
  let trips = 0;
  const times: number[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new (client.constructor as typeof Socket)();
    sockets.add(client).add(upstream);
    let serverSpokeLast = true;
    client.on('data', (chunk) => {
      if (serverSpokeLast) {
        trips += 1;
        times.push(performance.now());
      }
      serverSpokeLast = false;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      serverSpokeLast = true;
      client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) socket.on('close', end).on('error', end);
    upstream.connect(port, '127.0.0.1');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    count: () => trips,
    between: (from, to) => times.filter((time) => time >= from && time <= to).length,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
