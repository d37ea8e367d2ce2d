import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../http/index.ts';
import { loadSpec } from '../../spec/index.ts';
import type { MockRequest } from './http-types.ts';
import { createRequestJournal } from './request-journal.ts';
import { now } from './store/maybe.ts';

const spec = await loadSpec();

const request = (n: number): MockRequest => ({
  method: 'POST',
  path: '/v3/payments/usd/direct',
  query: new URLSearchParams(n % 3 === 0 ? `n=${n}` : ''),
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ n, client_secret: 's' })),
});

describe('the request journal ring', () => {
  it('keeps the newest `size` requests in order, whatever the number recorded and cleared', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant(-1)), { maxLength: 40 }),
        (size, steps) => {
          const journal = createRequestJournal(spec, size, createRedactor());
          // The model: the last `size` recorded requests (a cleared slot stays taken until it is
          // overwritten), of which those not cleared are shown, oldest first.
          const model: { n: number; client: string; live: boolean }[] = [];
          steps.forEach((step, n) => {
            if (step === -1) {
              journal.clear('c1');
              for (const entry of model) if (entry.client === 'c1') entry.live = false;
              return;
            }
            journal.record({
              request: request(n),
              operationId: 'usdTransfer',
              clientId: `c${step}`,
              status: 200,
              fault: undefined,
            });
            model.push({ n, client: `c${step}`, live: true });
          });
          const kept = now(journal.query(), 'the journal');
          expect(kept.map((shown) => (shown.body as { n: number }).n)).toEqual(
            model
              .slice(-size)
              .filter((entry) => entry.live)
              .map((entry) => entry.n),
          );
          for (const shown of kept) {
            const n = (shown.body as { n: number }).n;
            expect(shown.path).toBe(
              n % 3 === 0 ? `/v3/payments/usd/direct?n=${n}` : '/v3/payments/usd/direct',
            );
            expect((shown.body as { client_secret: string }).client_secret).toBe('[redacted]');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
