// Record types of the interface, taken from the generated types so they can never drift from the spec.
import type { components } from './generated/api-types.ts';

type Schemas = components['schemas'];

export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type TokenRequest = Schemas['TokenRequest'];
export type AccessToken = Schemas['AccessToken'];
export type UsdTransferRequest = Schemas['UsdTransferRequest'];
export type UsdTransfer = Schemas['UsdTransfer'];
export type WalletPayoutRequest = Schemas['WalletPayoutRequest'];
export type WalletPayout = Schemas['WalletPayout'];
export type AccountCreationRequest = Schemas['AccountCreationRequest'];
export type Account = Schemas['Account'];
export type VirtualCard = Schemas['VirtualCard'];
export type CardTransaction = Schemas['CardTransaction'];
export type PushToCardPayment = Schemas['PushToCardPayment'];
export type User = Schemas['User'];
export type UserList = Schemas['UserList'];
export type P2pStatus = Schemas['P2pStatus'];
/** Any webhook event pacu emits: `{ type, timestamp, data }`. */
export type WebhookEvent =
  | Schemas['UsdTransferEvent']
  | Schemas['WalletPayoutEvent']
  | Schemas['PushToCardEvent']
  | Schemas['P2pValidatedEvent'];
