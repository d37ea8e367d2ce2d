import type { Command } from 'commander';
import { ConfigError } from '../spec/index.ts';
import { checkWebhookReceiver, WEBHOOK_CHECK_DEFAULTS } from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_OK } from './exit-codes.ts';
import { collect, wholeNumber } from './option-parsers.ts';
import { addOutputOptions, type OutputFlags, resolveOutput } from './output-options.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';

interface WebhooksCheckOptions extends OutputFlags {
  receiver: string;
  secret?: string;
  timeout?: number;
  event?: string[];
  reporter?: string[];
}

/** `pacu webhooks check`: judge a merchant's webhook receiver (signatures, timestamps, redeliveries). */
export function registerWebhooksCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  const webhooks = program.command('webhooks').description("test your side of the API's webhooks");
  // Without a subcommand, say which there are (commander would print only its usage line).
  webhooks.action(() => webhooks.help());
  addOutputOptions(webhooks.command('check'))
    .description(
      "send the spec's events to your receiver, signed and mis-signed per Standard Webhooks, and judge its answers",
    )
    .requiredOption('--receiver <url>', 'the URL your receiver takes deliveries on')
    .option('--secret <whsec>', 'the secret it verifies with, whsec_<base64> (env PACU_WEBHOOK_SECRET)')
    .option(
      '--timeout <ms>',
      `time to answer each message (default ${WEBHOOK_CHECK_DEFAULTS.timeoutMs})`,
      wholeNumber('--timeout', 1, 600_000, 'number of milliseconds'),
    )
    .option('--event <type>', 'only this event type (repeatable; default every webhook of the spec)', collect)
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable)',
      collect,
    )
    .action(async (options: WebhooksCheckOptions) => {
      const reporters = parseReporterSpecs(options.reporter ?? ['console']);
      const secret = options.secret ?? process.env.PACU_WEBHOOK_SECRET;
      if (!secret)
        throw new ConfigError('pacu: webhooks check needs --secret whsec_… (or PACU_WEBHOOK_SECRET)');
      const report = await checkWebhookReceiver({
        receiver: options.receiver,
        secret,
        ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}),
        ...(options.event ? { events: options.event } : {}),
      });
      await writeReports(report, reporters, io, resolveOutput(options, reporters, io).console);
      outcome.exitCode = report.summary.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
    });
}
