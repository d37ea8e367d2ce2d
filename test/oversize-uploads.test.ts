// An upload over the body limit gets the 413 envelope every time, never a reset, from the mock and
// through the proxy. Each server runs in its own process: in one process the client never races
// the server's close.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.ts';
import { startProxyCli } from './helpers/proxy-process.ts';
import { tokenFor } from './mock-helpers.ts';
import { endOf, startCli } from './mock-process.ts';

/** A server process to upload to: its base URL, a bearer it accepts, and how to stop it. */
async function serverOf(
  kind: 'mock' | 'proxy',
): Promise<{ url: string; bearer: string; stop(): Promise<void> }> {
  const stopped = async (child: ChildProcess): Promise<void> => {
    const ended = endOf(child);
    child.kill('SIGTERM');
    await ended;
  };
  if (kind === 'mock') {
    const cli = await startCli([]);
    const url = cli.info.url as string;
    const demoClient = { clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret', scopes: [] };
    return { url, bearer: await tokenFor({ url, demoClient }), stop: () => stopped(cli.child) };
  }
  const upstream = await startMock({ log: () => {} });
  // A pool size given: the process started is the one that serves (no relaunched child).
  const proxy = await startProxyCli(['--upstream', upstream.url], { NODE_OPTIONS: '--v8-pool-size=0' });
  return {
    url: proxy.info.url,
    bearer: 'upload-token',
    async stop() {
      await stopped(proxy.child);
      await upstream.close();
    },
  };
}

describe('oversize uploads', () => {
  it.each(['mock', 'proxy'] as const)(
    'the %s answers 2 MiB and 12 MiB uploads with the 413 envelope every time, never a reset',
    async (kind) => {
      const server = await serverOf(kind);
      try {
        const outcomes: string[] = [];
        for (const mib of [2, 12]) {
          const body = JSON.stringify({ padding: 'x'.repeat(mib * 1024 * 1024) });
          for (let round = 0; round < 8; round++) {
            try {
              const response = await fetch(`${server.url}/payments/usd/direct`, {
                method: 'POST',
                headers: { authorization: `Bearer ${server.bearer}`, 'content-type': 'application/json' },
                body,
              });
              outcomes.push(`${response.status} ${await response.text()}`);
            } catch (error) {
              outcomes.push(`reset: ${String((error as Error).cause ?? error)}`);
            }
          }
        }
        expect(outcomes).toEqual(
          Array(16).fill('413 {"success":false,"message":"request body is over 1048576 bytes"}'),
        );
      } finally {
        await server.stop();
      }
    },
    60_000,
  );
});
