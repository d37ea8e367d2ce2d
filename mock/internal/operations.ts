import type { OperationId } from '../../spec/index.ts';
import { createAccount } from './handlers/accounts.ts';
import type { OperationHandler } from './handlers/handler.ts';
import { usdTransfer, walletPayout } from './handlers/payments.ts';
import {
  getCardTransaction,
  getP2pStatus,
  getPushToCardPayment,
  getVirtualCard,
  listUsers,
} from './handlers/reads.ts';
import { getAccessToken } from './handlers/token.ts';

/** One handler per operation of the spec; the record type makes a missing one a compile error. */
export const OPERATION_HANDLERS: Readonly<Record<OperationId, OperationHandler>> = {
  getAccessToken,
  usdTransfer,
  walletPayout,
  createAccount,
  getCardTransaction,
  getPushToCardPayment,
  getVirtualCard,
  listUsers,
  getP2pStatus,
};
