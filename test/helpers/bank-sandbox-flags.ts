import type { BankSandbox } from '../providers/independent/index.ts';

/** What `pacu check`, `pacu record` and friends are given for the bank sandbox: its URL, client and records. */
export function bankSandboxFlags(sandbox: BankSandbox): string[] {
  return [
    '--target',
    sandbox.url,
    '--client-id',
    sandbox.clientId,
    '--client-secret',
    sandbox.clientSecret,
    '--card-id',
    sandbox.cardId,
    '--card-transaction-id',
    sandbox.cardTransactionId,
    '--push-to-card-id',
    sandbox.pushToCardId,
  ];
}
