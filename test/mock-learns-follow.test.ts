// Time: `pacu record --follow` reads each transfer the session made again until it is
// final, and the mock made from that recording replays the lifecycle it saw on its own clock (here a
// manual one, so the test moves time instead of waiting for it). Without --follow, time stays pacu's:
// test/record-cli.test.ts pins the report saying so.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { sideClient } from './helpers/side-client.ts';
import { type Taught, teachThroughProxy } from './helpers/teach-recording.ts';
import { type SpaceProvider, startSpaceProvider } from './providers/space/space-provider.ts';

/** Long enough for the follow's reads at 1 s and 2 s; a transfer of this provider settles after 1 s. */
const FOLLOW_MS = 4000;

let folder: string;
let provider: SpaceProvider;
let taught: Taught;
let mock: RunningMock;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-follow-'));
  provider = await startSpaceProvider({
    knobs: { transitions: 'after-one-second', replayAnswer: 'current-status' },
  });
  taught = await teachThroughProxy(
    { url: provider.url, ...provider.client, ids: provider.ids },
    folder,
    'followed.har',
    { followMs: FOLLOW_MS },
  );
  mock = await startMock({ fromRecording: taught.file, clock: 'manual', log: () => {} });
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await provider?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('pacu record --follow teaches the mock the lifecycle it saw', () => {
  it('follows two transfers of each type until they are final, within the budget', () => {
    expect(taught.outcome.follow).toEqual({ followed: 4, finished: 4, ms: FOLLOW_MS });
    expect(taught.outcome.skipped).toEqual([]);
    expect(taught.steps.length).toBeLessThanOrEqual(200);
  });

  it('learns each transfer type’s lifecycle from the transfers followed, with its evidence', () => {
    const choices = new Map(mock.learned?.choices.map((choice) => [choice.choice, choice]));
    for (const type of ['ACH', 'WIRE']) {
      const learned = choices.get(`lifecycle.usd_transfer.${type}`);
      expect(learned).toMatchObject({ from: 'recording' });
      const [step] = (learned?.value ?? []) as Array<{ after: number; status: string }>;
      expect(step?.status).toBe('successful');
      // Settled after 1 s; read at widening intervals, so the estimate is between the reads.
      expect(step?.after).toBeGreaterThan(0.5);
      expect(step?.after).toBeLessThan(3);
      expect(learned?.shown).toMatch(/^successful after \d+\.\d s \(median of 2\)$/);
    }
  });

  it('replays the observed timing on the mock’s manual clock', async () => {
    const side = sideClient(mock.url, mock.demoClient.clientId, mock.demoClient.clientSecret);
    const token = await side.token();
    const body = {
      account_id: mock.seeded.merchantAccountId,
      account_number: '000123456789',
      account_type: 'CHECKING',
      amount: 42,
      routing_number: '021000021',
      transfer_type: 'WIRE',
      reference: 'followed-on-the-mock',
      recipient_email: 'ada@example.com',
      recipient_name: 'Ada Lovelace',
    };
    const status = async () =>
      (await side.send('POST', '/payments/usd/direct', { token, json: body })).json?.data?.transaction_status;
    expect(await status()).toBe('processing');
    const choice = mock.learned?.choices.find((one) => one.choice === 'lifecycle.usd_transfer.WIRE');
    const after = ((choice?.value ?? []) as Array<{ after: number }>)[0]?.after ?? 0;
    await mock.control.advanceClock(after / 2);
    expect(await status()).toBe('processing');
    await mock.control.advanceClock(after);
    expect(await status()).toBe('successful');
  });
});
