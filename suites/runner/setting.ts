/**
 * A setting of a run a skip reason or an error may ask for, by a neutral name: the CLI words it as
 * a flag (`--card-id`), the library as an option (`ids.cardId`).
 */
export type Setting =
  | 'target'
  | 'clientId'
  | 'clientSecret'
  | 'scopes'
  | 'ids.cardId'
  | 'ids.cardTransactionId'
  | 'ids.pushToCardId'
  | 'ids.accountId'
  | 'ids.userId'
  | 'controlUrl'
  | 'webhook.receiverUrl'
  | 'webhook.secret'
  | 'profile';

/** How the surface that asked names a setting. */
export type Wording = (setting: Setting) => string;

/** The library's words: the option of `runChecks` (`target.ids.cardId`…) that gives the setting. */
export const optionWording: Wording = (setting) =>
  setting === 'profile' ? 'profile' : setting === 'target' ? 'target.baseUrl' : `target.${setting}`;
