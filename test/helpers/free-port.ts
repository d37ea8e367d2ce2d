import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port free-port.ts draws from: above the well-known and most registered services. */
const LOWEST = 10_000;

/**
 * The first port of the kernel's ephemeral range, which every `listen(0)` and every outgoing
 * connection takes its port from; undefined where it cannot be read (not Linux).
 */
export function ephemeralStart(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1000 ? low : undefined;
  } catch {
    return undefined;
  }
}

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port free on 127.0.0.1 right now, for a child process that must be told its port (prism, `pacu
 * mock`, PostgreSQL, nginx). Drawn below the ephemeral range where there is one: a port the kernel
 * handed out was free, then taken by one of the run's thousands of connections before the child
 * bound it (`pacu mock` exited with EADDRINUSE in a CI run).
 */
export async function freePort(): Promise<number> {
  const start = ephemeralStart();
  if (start !== undefined)
    for (let attempt = 0; attempt < 100; attempt++) {
      const port = LOWEST + Math.floor(Math.random() * (start - LOWEST));
      if (await bindable(port)) return port;
    }
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
