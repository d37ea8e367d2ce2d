import type { Scenario } from './types.ts';

/**
 * The scenario the mock runs when none is given. Magic amounts: 13.13 fails (the spec's failure
 * examples use it), 13.14 stays processing for ever; otherwise WIRE settles in 10 s, ACH in 120 s.
 */
export const DEFAULT_SCENARIO: Scenario = {
  rules: [
    { name: 'amount 13.13 fails', match: { amount: 13.13 }, steps: [{ after: 5, status: 'failed' }] },
    { name: 'amount 13.14 stays processing', match: { amount: 13.14 }, steps: [] },
    {
      name: 'WIRE settles in 10 s',
      match: { kind: 'usd_transfer', transfer_type: 'WIRE' },
      steps: [{ after: 10, status: 'successful' }],
    },
    {
      name: 'ACH settles in 120 s',
      match: { kind: 'usd_transfer', transfer_type: 'ACH' },
      steps: [{ after: 120, status: 'successful' }],
    },
    {
      name: 'wallet payouts settle in 10 s',
      match: { kind: 'wallet_payout' },
      steps: [{ after: 10, status: 'successful' }],
    },
    {
      name: 'push-to-card settles in 5 s',
      match: { kind: 'push_to_card' },
      steps: [{ after: 5, status: 'successful' }],
    },
  ],
};
