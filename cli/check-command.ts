import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { type RunningMock, startMock } from '../mock/index.ts';
import { ConfigError, type Profile } from '../spec/index.ts';
import {
  type ProgressEvent,
  parseFailureId,
  type Report,
  readConfigFile,
  resolveTargetConfig,
  runChecks,
  TARGET_ID_FLAGS,
  type TargetConfigInput,
  type TargetIds,
} from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_OK } from './exit-codes.ts';
import { collect, wholeNumber as whole } from './option-parsers.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';
import { addTargetOptions } from './target-options.ts';

interface CheckCommandOptions extends TargetConfigInput {
  config?: string;
  profile: Profile;
  reporter: string[];
  seed?: number;
  runs: number;
  concurrency: number;
  rule: string[];
  replay?: string;
  reportFile?: string;
}

/**
 * On a TTY one line rewritten in place; otherwise one plain line per finished check (CI logs).
 * On stdout: the CLI's stderr is reserved for the one-line usage errors.
 */
function progressPrinter(io: CliIo): (event: ProgressEvent) => void {
  const live = process.stdout.isTTY === true;
  return (event) => {
    if (event.kind === 'start') {
      if (live) io.stdout(`\r\u001b[2K[${event.index + 1}/${event.total}] ${event.rule} ${event.operation}…`);
      return;
    }
    const { result } = event;
    const line = `${result.status.padEnd(7)} ${result.id} ${result.operation}${result.status === 'skipped' ? ` (${result.skipReason})` : ` (${result.runs} runs)`}`;
    io.stdout(live ? `\r\u001b[2K[${event.index + 1}/${event.total}] ${line}` : `${line}\n`);
    if (live && event.index + 1 === event.total) io.stdout('\r\u001b[2K');
  };
}

/** The failure a report holds under `id`, for `--replay id --report-file report.json`. */
async function replayFromReport(file: string, id: string): Promise<Report> {
  let report: Report;
  try {
    report = JSON.parse(await readFile(file, 'utf8')) as Report;
  } catch (cause) {
    throw new ConfigError(`pacu: cannot read the json report ${file}: ${(cause as Error).message}`, {
      cause,
    });
  }
  if (!Array.isArray(report.rules) || !report.rules.some((rule) => rule.failure?.id === id))
    throw new ConfigError(`pacu: the report ${file} has no failure ${id}`);
  return report;
}

/** The report's rerun flags as target configuration, for `--replay id --report-file report.json`. */
function reportedTarget(report: Report): TargetConfigInput & { profile?: Profile } {
  const keys: Record<string, keyof TargetConfigInput | 'profile'> = {
    '--target': 'target',
    '--profile': 'profile',
    '--scopes': 'scopes',
    '--control-url': 'controlUrl',
    '--webhook-receiver-url': 'webhookReceiverUrl',
    ...Object.fromEntries(
      Object.entries(TARGET_ID_FLAGS).map(([key, flag]) => [flag, key as keyof TargetIds]),
    ),
  };
  const flags = report.rerunFlags ?? [];
  const input: Record<string, string> = {};
  for (let index = 0; index + 1 < flags.length; index += 2) {
    const key = keys[flags[index] ?? ''];
    if (key) input[key] = flags[index + 1] ?? '';
  }
  return input;
}

/** What an embedded pacu mock tells `pacu check`: its URL, demo client, seeded ids and control API. */
export function embeddedMockTarget(mock: RunningMock): TargetConfigInput {
  return {
    target: mock.url,
    clientId: mock.demoClient.clientId,
    clientSecret: mock.demoClient.clientSecret,
    cardId: mock.seeded.cardId,
    cardTransactionId: mock.seeded.cardTransactionId,
    pushToCardId: mock.seeded.pushToCardId,
    accountId: mock.seeded.merchantAccountId,
    userId: mock.seeded.userId,
    controlUrl: mock.origin,
  };
}

/** `pacu check`: run the conformance rules against a target (by default, an embedded pacu mock). */
export function registerCheckCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  addTargetOptions(program.command('check'))
    .description(
      'check a provider against the rules: envelope, auth, idempotency, errors, positive, lifecycle',
    )
    .option('--webhook-receiver-url <url>', 'where the target delivers webhooks; pacu listens on its port')
    .option('--webhook-secret <secret>', 'the secret the target signs webhooks with')
    .addOption(
      new Option('--profile <profile>', 'documented: the description only; strict: pacu decisions too')
        .choices(['documented', 'strict'])
        .default('documented'),
    )
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable)',
      collect,
    )
    .option('--seed <n>', 'fast-check seed (default: random, printed)', whole('--seed', 0, 2 ** 31 - 1))
    .option('--runs <n>', 'generated cases per property', whole('--runs', 1, 100_000), 100)
    .option('--concurrency <n>', 'checks in flight at once', whole('--concurrency', 1, 64), 4)
    .option('--rule <id>', 'only this rule (repeatable)', collect)
    .option('--replay <failure-id>', 'rerun exactly the case of a failure id from a report')
    .option('--report-file <file>', 'the json report --replay takes the failure from')
    .action(async (options: CheckCommandOptions, command: Command) => {
      const reporters = parseReporterSpecs(options.reporter ?? ['console']);
      if (options.reportFile && !options.replay)
        throw new ConfigError('pacu: --report-file goes with --replay <failure-id>');
      if (options.replay) parseFailureId(options.replay);
      const fromReport =
        options.replay && options.reportFile
          ? await replayFromReport(options.reportFile, options.replay)
          : undefined;
      // Flags win over the report, the report over the config file: the replay reruns the reported target.
      const { profile: reportedProfile, ...reported } = fromReport ? reportedTarget(fromReport) : {};
      const file = { ...(options.config ? await readConfigFile(options.config) : {}), ...reported };
      // An explicit --profile is never replaced by the report's; the report's wins over the default.
      const profile =
        command.getOptionValueSource('profile') === 'cli'
          ? options.profile
          : ((reportedProfile as Profile | undefined) ?? fromReport?.profile ?? options.profile);
      const flags: TargetConfigInput = { ...options };
      const mock =
        (flags.target ?? file.target) ? undefined : await startMock({ clock: 'manual', log: () => {} });
      try {
        const embedded: TargetConfigInput = mock ? embeddedMockTarget(mock) : {};
        const target = resolveTargetConfig(
          Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)),
          { ...embedded, ...file },
          process.env,
        );
        const checked = await runChecks({
          target,
          profile,
          runs: options.runs,
          concurrency: options.concurrency,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.rule ? { rules: options.rule } : {}),
          ...(options.replay ? { replay: options.replay } : {}),
          onProgress: progressPrinter(io),
        });
        // A fresh embedded mock is the same mock (seeded data, same ids): its replay line needs no target.
        const report = mock ? { ...checked, rerunFlags: ['--profile', profile] } : checked;
        io.stdout(`pacu check: seed ${report.seed} (rerun the same cases with --seed ${report.seed})\n`);
        await writeReports(report, reporters, io);
        outcome.exitCode = report.summary.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
      } finally {
        await mock?.close();
      }
    });
}
