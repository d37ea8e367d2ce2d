import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagWording } from '../cli/setting-flags.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { type ApiClient, createApiClient, resolveTargetConfig } from '../suites/index.ts';
import { PROVIDER_STATES } from './provider-state-names.ts';
import { createProviderStates, unmetStateReason } from './provider-states.ts';

let mock: RunningMock;
let api: ApiClient;
beforeAll(async () => {
  mock = await startMock({ log: () => {} });
  api = createApiClient({ baseUrl: mock.url });
});
afterAll(async () => {
  await api.close();
  await mock.close();
});

describe('unmetStateReason', () => {
  const sandbox = resolveTargetConfig({ target: 'https://sandbox.test/v3', cardId: 'card_1' });

  it('meets every known state on a pacu mock, and none it does not know', () => {
    const withControl = resolveTargetConfig({
      target: 'http://127.0.0.1:1/v3',
      controlUrl: 'http://127.0.0.1:1',
    });
    for (const state of Object.values(PROVIDER_STATES))
      expect(unmetStateReason(withControl, state)).toBeUndefined();
    expect(unmetStateReason(withControl, 'a refund exists')).toMatch(
      /^pacu knows no provider state "a refund exists"/,
    );
  });

  it('names the flags a target without a control API still needs', () => {
    expect(unmetStateReason(sandbox, PROVIDER_STATES.virtualCardExists)).toBeUndefined();
    expect(unmetStateReason(sandbox, PROVIDER_STATES.cardTransactionExists, {}, flagWording)).toContain(
      'pass --card-transaction-id',
    );
    expect(unmetStateReason(sandbox, PROVIDER_STATES.validClient, {}, flagWording)).toContain(
      'pass --client-id and --client-secret',
    );
    expect(unmetStateReason(sandbox, PROVIDER_STATES.transferWithReferenceExists, {}, flagWording)).toContain(
      'pass --account-id, --client-id and --client-secret',
    );
  });

  it('says once what to pass and why, and the config file key that does the same', () => {
    // What pacu check's id resolution says of a card id it cannot find (resolveIds, in flag words).
    const why = { cardId: 'needs --card-id (no operation creates the record it names)' };
    const bare = resolveTargetConfig({ target: 'https://sandbox.test/v3' });
    expect(unmetStateReason(bare, PROVIDER_STATES.virtualCardExists, why, flagWording)).toBe(
      'provider state "a virtual card exists" cannot be met on this target: pass --card-id (no operation creates the record it names), or cardId in the config file',
    );
    expect(unmetStateReason(bare, PROVIDER_STATES.validClient, {}, flagWording)).toBe(
      'provider state "a valid client" cannot be met on this target: pass --client-id and --client-secret, or clientId and clientSecret in the config file',
    );
  });
});

describe('createProviderStates on a pacu mock', () => {
  const states = () =>
    createProviderStates(resolveTargetConfig({ target: mock.url, controlUrl: mock.origin }), api);

  it("hands out the mock's seeded ids and a real token of a fresh client", async () => {
    const provider = states();
    expect(await provider.setup(PROVIDER_STATES.cardTransactionExists, {})).toEqual({
      cardId: mock.seeded.cardId,
      cardTransactionId: mock.seeded.cardTransactionId,
    });
    const { accessToken, clientCredentials } = await provider.setup(PROVIDER_STATES.validClient, {});
    expect(Buffer.from(clientCredentials ?? '', 'base64').toString()).toMatch(/^pacu-verify-[0-9a-f]+:/);
    expect((await api.getVirtualCard(mock.seeded.cardId, accessToken)).status).toBe(200);
  });

  it('creates a new push-to-card payment for each setup', async () => {
    const provider = states();
    const first = await provider.setup(PROVIDER_STATES.pushToCardExists, {});
    const second = await provider.setup(PROVIDER_STATES.pushToCardExists, {});
    expect(first.pushToCardId).not.toBe(second.pushToCardId);
    expect(first.pushToCardId).not.toBe(mock.seeded.pushToCardId);
  });

  it('makes a reference of its own taken, so another body with it gets 409 for the same client', async () => {
    const provider = states();
    const { reference } = await provider.setup(PROVIDER_STATES.transferWithReferenceExists, {
      reference: 'INV-STATE-1',
    });
    // The parameter, made unique to this verification: a second verification never meets this one's.
    expect(reference).toMatch(/^INV-STATE-1-[0-9a-f]{8}$/);
    const { accessToken } = await provider.setup(PROVIDER_STATES.validClient, {});
    const response = await api.usdTransfer(
      {
        account_id: mock.seeded.merchantAccountId,
        account_number: '000123456789',
        account_type: 'CHECKING',
        amount: 99.5,
        routing_number: '021000021',
        transfer_type: 'ACH',
        reference: reference ?? '',
        recipient_email: 'jane.doe@example.com',
        recipient_name: 'Jane Doe',
      },
      accessToken,
    );
    expect(response.status).toBe(409);
  });

  it('prefers the ids the user gave over the seeded ones', async () => {
    const provider = createProviderStates(
      resolveTargetConfig({ target: mock.url, controlUrl: mock.origin, userId: 'usr_given' }),
      api,
    );
    expect(await provider.setup(PROVIDER_STATES.userExists, {})).toEqual({ userId: 'usr_given' });
  });
});

describe('createProviderStates on a provider whose tokens live one second', () => {
  it('hands out a live token after the first one expired, as a long verification needs', async () => {
    const shortLived = await startMock({ log: () => {}, tokenLifetimeSeconds: 1 });
    const shortApi = createApiClient({ baseUrl: shortLived.url });
    try {
      const provider = createProviderStates(
        resolveTargetConfig({ target: shortLived.url, controlUrl: shortLived.origin }),
        shortApi,
      );
      await provider.setup(PROVIDER_STATES.validClient, {});
      // Past the first token's whole life: a cached one is refused now.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const { accessToken } = await provider.setup(PROVIDER_STATES.validClient, {});
      expect((await shortApi.getVirtualCard(shortLived.seeded.cardId, accessToken)).status).toBe(200);
    } finally {
      await shortApi.close();
      await shortLived.close();
    }
  });
});
