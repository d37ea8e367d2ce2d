import type { Setting, TargetIds, Wording } from '../suites/index.ts';

/** The `pacu` flag that gives each setting a run may ask for (suites name them neutrally). */
export const SETTING_FLAGS: Readonly<Record<Setting, string>> = {
  target: '--target',
  clientId: '--client-id',
  clientSecret: '--client-secret',
  scopes: '--scopes',
  'ids.cardId': '--card-id',
  'ids.cardTransactionId': '--card-transaction-id',
  'ids.pushToCardId': '--push-to-card-id',
  'ids.accountId': '--account-id',
  'ids.userId': '--user-id',
  controlUrl: '--control-url',
  'webhook.receiverUrl': '--webhook-receiver-url',
  'webhook.secret': '--webhook-secret',
  profile: '--profile',
};

/** The CLI's words for a setting: its flag. */
export const flagWording: Wording = (setting) => SETTING_FLAGS[setting];

/** The id each `--…-id` flag gives, for reading a report's rerun flags back. */
export const ID_OF_FLAG: Readonly<Record<string, keyof TargetIds>> = Object.fromEntries(
  Object.entries(SETTING_FLAGS)
    .filter(([setting]) => setting.startsWith('ids.'))
    .map(([setting, flag]) => [flag, setting.slice('ids.'.length) as keyof TargetIds]),
);
