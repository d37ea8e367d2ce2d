import { randomBytes } from 'node:crypto';
import {
  type ApiClient,
  type ControlApiClient,
  createControlClient,
  createTokenSource,
  optionWording,
  type TargetConfig,
  type TargetIds,
  type TokenSource,
  type Wording,
} from '../suites/index.ts';
import { KNOWN_PROVIDER_STATES, PROVIDER_STATES } from './provider-state-names.ts';

/** Values a state hands to the verifier, for the pact's `${name}` expressions. */
export type StateValues = Record<string, string>;

/** Sets provider states up on one target; `setup` throws when the state cannot be met. */
export interface ProviderStates {
  setup(name: string, params: Readonly<Record<string, unknown>>): Promise<StateValues>;
}

/** What each state needs from a target that is not a pacu mock (no control API). */
const NEEDS: Record<string, { ids: ReadonlyArray<keyof TargetIds>; client: boolean }> = {
  [PROVIDER_STATES.validClient]: { ids: [], client: true },
  [PROVIDER_STATES.accountExists]: { ids: ['accountId'], client: false },
  [PROVIDER_STATES.userExists]: { ids: ['userId'], client: false },
  [PROVIDER_STATES.virtualCardExists]: { ids: ['cardId'], client: false },
  [PROVIDER_STATES.cardTransactionExists]: { ids: ['cardId', 'cardTransactionId'], client: false },
  [PROVIDER_STATES.pushToCardExists]: { ids: ['pushToCardId'], client: false },
  [PROVIDER_STATES.transferWithReferenceExists]: { ids: ['accountId'], client: true },
};

/**
 * Why a state cannot be met on this target, or undefined when it can. With a control API (a pacu
 * mock) every known state can; elsewhere a state needs the ids and credentials the user gave or
 * pacu found (`why` says why pacu could not find an id).
 */
export function unmetStateReason(
  config: TargetConfig,
  name: string,
  why: Readonly<Partial<Record<keyof TargetIds, string>>> = {},
  word: Wording = optionWording,
): string | undefined {
  const needs = NEEDS[name];
  if (!needs) return `pacu knows no provider state "${name}" (it knows: ${KNOWN_PROVIDER_STATES.join('; ')})`;
  if (config.controlUrl) return undefined;
  const ids = needs.ids.filter((key) => config.ids[key] === undefined);
  const client = needs.client && (!config.clientId || !config.clientSecret);
  if (ids.length === 0 && !client) return undefined;
  // `why` already names the setting ("needs --card-id (no operation creates …)"): said once, not twice.
  const part = (key: keyof TargetIds): string => {
    const setting = word(`ids.${key}`);
    const reason = why[key];
    if (!reason) return setting;
    return reason.startsWith(`needs ${setting}`)
      ? `${setting}${reason.slice(`needs ${setting}`.length)}`
      : `${setting} (${reason})`;
  };
  const missing = [...ids.map(part), ...(client ? [`${word('clientId')} and ${word('clientSecret')}`] : [])];
  // The CLI also reads a config file, whose keys are the settings' own names.
  const keys = [...ids, ...(client ? ['clientId and clientSecret'] : [])];
  const file = word === optionWording ? '' : `, or ${keys.join(', ')} in the config file`;
  return `provider state "${name}" cannot be met on this target: pass ${missing.join(', ')}${file}`;
}

/** The body of the transfer a `transfer with the reference` state creates; pacts send another one. */
function existingTransfer(reference: string, accountId: string): Parameters<ApiClient['usdTransfer']>[0] {
  return {
    account_id: accountId,
    account_number: '000123456789',
    account_type: 'SAVINGS',
    amount: 10,
    routing_number: '021000021',
    transfer_type: 'WIRE',
    reference,
    recipient_email: 'state.setup@example.com',
    recipient_name: 'State Setup',
  };
}

/**
 * Provider states on `config`'s target: through the pacu mock's control API when `controlUrl` is
 * set (a fresh OAuth client per run, so references never collide across runs), otherwise through
 * the ids and credentials of the target config. Ids the user gave win over the mock's seeded ones.
 */
export function createProviderStates(config: TargetConfig, api: ApiClient): ProviderStates {
  const control: ControlApiClient | undefined = config.controlUrl
    ? createControlClient(config.controlUrl)
    : undefined;
  let client: Promise<{ id: string; secret: string; tokens: TokenSource }> | undefined;

  const id = async (key: keyof TargetIds): Promise<string> => {
    const given = config.ids[key];
    if (given !== undefined) return given;
    if (!control) throw new Error(`no ${key} for this target: give ${optionWording(`ids.${key}`)}`);
    const ids = await control.ids();
    return key === 'accountId' ? ids.merchantAccountId : ids[key];
  };

  /** One client per verification; its token is renewed ahead of its lifetime, as `pacu check` renews its own. */
  const validClient = async (): Promise<{ id: string; secret: string; token: string }> => {
    client ??= (async () => {
      const credentials = control
        ? await control.addClient({
            clientId: `pacu-verify-${randomBytes(6).toString('hex')}`,
            clientSecret: randomBytes(18).toString('hex'),
            scopes: [...config.scopes],
          })
        : { clientId: config.clientId ?? '', clientSecret: config.clientSecret ?? '' };
      const tokens = createTokenSource(api, { ...config, ...credentials });
      return { id: credentials.clientId, secret: credentials.clientSecret, tokens };
    })();
    const { id: clientId, secret, tokens } = await client;
    return { id: clientId, secret, token: await tokens.get() };
  };

  const setups: Record<string, (params: Readonly<Record<string, unknown>>) => Promise<StateValues>> = {
    [PROVIDER_STATES.validClient]: async () => {
      const { id: clientId, secret, token } = await validClient();
      return {
        accessToken: token,
        clientCredentials: Buffer.from(`${clientId}:${secret}`).toString('base64'),
      };
    },
    [PROVIDER_STATES.accountExists]: async () => ({
      accountId: await id('accountId'),
      freshReference: `pacu-verify-${randomBytes(8).toString('hex')}`,
    }),
    [PROVIDER_STATES.userExists]: async () => ({ userId: await id('userId') }),
    [PROVIDER_STATES.virtualCardExists]: async () => ({ cardId: await id('cardId') }),
    [PROVIDER_STATES.cardTransactionExists]: async () => ({
      cardId: await id('cardId'),
      cardTransactionId: await id('cardTransactionId'),
    }),
    [PROVIDER_STATES.pushToCardExists]: async () => {
      if (config.ids.pushToCardId !== undefined || !control)
        return { pushToCardId: await id('pushToCardId') };
      return { pushToCardId: (await control.createPushToCard({ amount: 150 })).transaction_id };
    },
    [PROVIDER_STATES.transferWithReferenceExists]: async (params) => {
      const given = String(params.reference ?? '');
      if (!given) throw new Error('the state needs the parameter "reference"');
      // Unique to this verification: verifying twice must not meet the first run's transfer.
      const reference = `${given}-${randomBytes(4).toString('hex')}`;
      const { token } = await validClient();
      const response = await api.usdTransfer(existingTransfer(reference, await id('accountId')), token);
      if (response.status !== 200)
        throw new Error(
          `creating the transfer ${reference} got HTTP ${response.status}: ${response.text.slice(0, 200)}`,
        );
      return { reference };
    },
  };

  return {
    async setup(name, params) {
      const reason = unmetStateReason(config, name);
      if (reason) throw new Error(reason);
      const setup = setups[name];
      if (!setup) throw new Error(`pacu knows no provider state "${name}"`);
      return setup(params);
    },
  };
}
