import type { Command } from 'commander';
import { API_CLIENT_DEFAULTS, DEFAULT_SCOPES } from '../suites/index.ts';
import { header, wholeNumber } from './option-parsers.ts';
import { addRedactionOptions } from './redaction-options.ts';

/**
 * The flags that say where a target is and how to reach it, shared by `pacu check`, `pacu verify` and
 * `pacu replay` so all read a target the same way (and all go through `openTarget()`), with the
 * names of the target's own credentials their reports redact.
 */
export function addTargetOptions(command: Command): Command {
  return addRedactionOptions(command)
    .option('--target <url>', 'base URL including /v3 (env PACU_TARGET; default: an embedded pacu mock)')
    .option('--client-id <id>', 'OAuth client id (env PACU_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth client secret (env PACU_CLIENT_SECRET)')
    .option('--scopes <list>', `scopes to ask for, comma-separated (default ${DEFAULT_SCOPES.join(',')})`)
    .option('--card-id <id>', 'a virtual card of the target')
    .option('--card-transaction-id <id>', 'a transaction of that card')
    .option('--push-to-card-id <id>', 'a push-to-card payment of the target')
    .option('--account-id <id>', 'a US account that holds a balance (check: default one pacu creates)')
    .option('--user-id <id>', 'a user of the target (check: default the first of /users)')
    .option('--control-url <url>', "origin of a pacu mock's control API (lifecycle rules, provider states)")
    .option(
      '--header <name:value>',
      'send this header with every request, e.g. an API key (repeatable)',
      header,
    )
    .option(
      '--timeout <ms>',
      'time one request to the target may take',
      wholeNumber('--timeout', 100, 600_000, 'number of milliseconds'),
      API_CLIENT_DEFAULTS.timeoutMs,
    )
    .option(
      '--config <file>',
      'a JSON config file (default: ./pacu.config.json when there is one; flags win)',
    );
}
