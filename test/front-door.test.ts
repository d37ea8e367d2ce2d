// The front door's case list (front-door.case.ts) against the mock and against the proxy.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { type RunningProxy, startProxy } from '../proxy/index.ts';
import { CASE_LIMITS, FRONT_DOOR_CASES, type Surface } from './front-door.case.ts';
import { tokenFor, transferBody } from './mock-helpers.ts';

const portOf = (origin: string): number => Number(new URL(origin).port);
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

describe.each(['mock', 'proxy'] as const)('the front door of the %s', (kind) => {
  let surface: Surface;
  let stop: () => Promise<void>;
  const received: string[] = [];

  beforeAll(async () => {
    if (kind === 'mock') {
      const mock: RunningMock = await startMock({ ...CASE_LIMITS, log: () => {} });
      const token = await tokenFor(mock);
      surface = {
        port: portOf(mock.origin),
        authorization: `Bearer ${token}`,
        transfer: (reference) => JSON.stringify(transferBody(mock.seeded.merchantAccountId, { reference })),
        received: () => undefined,
        providerFindings: async () => [],
      };
      stop = () => mock.close();
      return;
    }
    // A provider that keeps every target it receives as sent, and answers the reads and transfers
    // as the description has them.
    const upstream: Server = createServer((request, response) => {
      received.push(request.url ?? '');
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const answer = (status: number, value: unknown): void => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(value));
        };
        if (request.method === 'GET' && request.url === '/v3/users')
          return answer(200, {
            success: true,
            message: 'ok',
            data: { items: [], page: 1, total_count: 0, total_pages: 0 },
          });
        if (request.method === 'POST' && request.url === '/v3/payments/usd/direct')
          return answer(200, {
            success: true,
            message: 'ok',
            data: {
              ...JSON.parse(body),
              transaction_date: '2026-01-01T00:00:00Z',
              transaction_id: 'txn_1',
              transaction_status: 'processing',
            },
          });
        answer(404, { success: false, message: 'no such operation' });
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy: RunningProxy = await startProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v3`,
      ...CASE_LIMITS,
      log: () => {},
    });
    surface = {
      port: portOf(proxy.origin),
      authorization: 'Bearer front-door-token-1',
      transfer: (reference) => JSON.stringify(transferBody('acc_1', { reference })),
      received: () => received,
      providerFindings: async () => {
        await settle();
        return proxy
          .findings()
          .filter((finding) => finding.side === 'provider')
          .map((finding) => `${finding.rule}: ${finding.reason}`);
      },
    };
    stop = async () => {
      await proxy.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    };
  });
  afterAll(() => stop?.());
  beforeEach(() => {
    received.length = 0;
  });

  it.each(FRONT_DOOR_CASES.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) =>
    entry.run(surface),
  );
});
