import { randomInt } from 'node:crypto';
import type { Account, AccountCreationRequest } from '../../../spec/index.ts';
import { okReply as ok } from '../envelope.ts';
import { MockHttpError } from '../http-types.ts';
import { railNumbers } from '../seed.ts';
import { after } from '../store/maybe.ts';
import type { OperationHandler } from './handler.ts';
import { said, shaped } from './learned-shape.ts';

const unseeded = (): number => randomInt(0, 2 ** 32) / 2 ** 32;

/** POST /accounts: a new ACTIVE account with balance 0 and numbers per rail. */
export const createAccount: OperationHandler = (context, { body, token, found }) => {
  const request = body as Required<AccountCreationRequest>;
  if (found.user?.user_id !== request.user_id) {
    throw new MockHttpError(
      400,
      `Invalid request: user_id ${request.user_id} names no user`,
      undefined,
      'unknown-id-in-body',
    );
  }
  const record = shaped<Account>(
    context,
    'createAccount',
    {
      account_id: context.behaviour.newId('acct'),
      account_status: 'ACTIVE',
      balance: 0,
      numbers: railNumbers(unseeded),
    },
    body as Record<string, unknown>,
  );
  const stored = {
    record,
    userId: request.user_id,
    holdBalance: request.hold_balance,
    ...(token ? { clientId: token.clientId } : {}),
  };
  return after(
    context.store.records.addAccount(stored),
    ok(said(context, 'createAccount', 'Account created'), record),
  );
};
