// The dispatcher keeps the last thousand events, oldest first, whatever the count emitted.
import { expect, it } from 'vitest';
import { MOCK_DEFAULTS } from '../options.ts';
import { createClock } from './clock.ts';
import { createWebhookDispatcher } from './webhooks.ts';

it('keeps the last 1,000 events in the order they came, and none once its history is cleared', async () => {
  const dispatcher = createWebhookDispatcher({
    receivers: () => [],
    putReceiver: () => {},
    clock: createClock('manual', 0),
    retry: MOCK_DEFAULTS.webhookRetry,
    log: () => {},
  });
  const emit = (count: number, from: number): void => {
    for (let index = from; index < from + count; index++)
      dispatcher.emit('usd_transfer.successful', { index });
  };
  const kept = async (): Promise<number[]> =>
    (await dispatcher.events()).map((event) => (JSON.parse(event.body) as { index: number }).index);
  emit(999, 0);
  expect(await kept()).toEqual(Array.from({ length: 999 }, (_, index) => index));
  emit(2_501, 999);
  expect(await kept()).toEqual(Array.from({ length: 1000 }, (_, index) => 2_500 + index));
  await dispatcher.clearHistory();
  emit(3, 0);
  expect(await kept()).toEqual([0, 1, 2]);
  await dispatcher.close();
});
