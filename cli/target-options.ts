import type { Command } from 'commander';

/**
 * The flags that say where a target is and which of its records to use, shared by `pacu check` and
 * `pacu verify` so both read a target the same way (and both feed `resolveTargetConfig`).
 */
export function addTargetOptions(command: Command): Command {
  return command
    .option('--target <url>', 'base URL including /v3 (default: start an embedded pacu mock)')
    .option('--client-id <id>', 'OAuth client id (env PACU_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth client secret (env PACU_CLIENT_SECRET)')
    .option('--scopes <list>', 'scopes to ask for, comma-separated (default card,us_account)')
    .option('--card-id <id>', 'a virtual card of the target')
    .option('--card-transaction-id <id>', 'a transaction of that card')
    .option('--push-to-card-id <id>', 'a push-to-card payment of the target')
    .option('--account-id <id>', 'a US account that holds a balance (check: default one pacu creates)')
    .option('--user-id <id>', 'a user of the target (check: default the first of /users)')
    .option('--control-url <url>', "origin of a pacu mock's control API (lifecycle rules, provider states)")
    .option('--config <file>', 'a pacu.config.json (flags win over it)');
}
