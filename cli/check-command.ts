import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ConfigError, jsonProblem, type Profile } from '../spec/index.ts';
import {
  CHECK_DEFAULTS,
  parseFailureId,
  type Report,
  runChecks,
  type TargetConfigInput,
} from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_NOT_REPRODUCED, EXIT_OK } from './exit-codes.ts';
import { openTarget, type TargetFlags } from './open-target.ts';
import { collect, positive, wholeNumber as whole } from './option-parsers.ts';
import { addOutputOptions, type OutputFlags, resolveOutput } from './output-options.ts';
import { profileOption } from './profile-option.ts';
import { notReproducedMessage } from './reporters/replay-line.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';
import { flagWording, ID_OF_FLAG } from './setting-flags.ts';
import { addTargetOptions } from './target-options.ts';

interface CheckCommandOptions extends TargetFlags, OutputFlags {
  profile: Profile;
  reporter: string[];
  seed?: number;
  runs: number;
  concurrency: number;
  rate?: number;
  rule?: string[];
  excludeRule?: string[];
  replay?: string;
  reportFile?: string;
}

/** The failure a report holds under `id`, for `--replay id --report-file report.json`. */
async function replayFromReport(file: string, id: string): Promise<Report> {
  let text: string;
  let report: Report;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    throw new ConfigError(`pacu: cannot read the json report ${file}: ${reason}`, { cause });
  }
  try {
    report = JSON.parse(text) as Report;
  } catch (cause) {
    throw new ConfigError(`pacu: ${file} is not a pacu json report: ${jsonProblem(text, cause)}`, {
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
    ...ID_OF_FLAG,
  };
  const flags = report.rerunFlags ?? [];
  const input: Record<string, string> = {};
  for (let index = 0; index + 1 < flags.length; index += 2) {
    const key = keys[flags[index] ?? ''];
    if (key) input[key] = flags[index + 1] ?? '';
  }
  return input;
}

/** `pacu check`: run the conformance rules against a target (by default, an embedded pacu mock). */
export function registerCheckCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  addOutputOptions(addTargetOptions(program.command('check')))
    .description(
      'check a provider against the rules: envelope, auth, idempotency, errors, positive, lifecycle',
    )
    .option('--webhook-receiver-url <url>', 'where the target delivers webhooks; pacu listens on its port')
    .option('--webhook-secret <secret>', 'the secret the target signs webhooks with')
    .addOption(profileOption(CHECK_DEFAULTS.profile))
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable)',
      collect,
    )
    .option('--seed <n>', 'fast-check seed (default: random, printed)', whole('--seed', 0, 2 ** 31 - 1))
    .option('--runs <n>', 'generated cases per property', whole('--runs', 1, 100_000), CHECK_DEFAULTS.runs)
    .option(
      '--concurrency <n>',
      'requests in flight at most (below it, pacu adapts to the round trip)',
      whole('--concurrency', 1, 256),
      CHECK_DEFAULTS.concurrency,
    )
    .option(
      '--rate <n>',
      'requests per second at most, shared by every rule (default: as fast as the target answers; a 429 slows pacu down)',
      positive('--rate', 10_000),
    )
    .option(
      '--rule <pattern>',
      'only rules with this id, category or id glob, e.g. auth.* (repeatable)',
      collect,
    )
    .option(
      '--exclude-rule <pattern>',
      'leave out rules with this id, category or id glob (repeatable)',
      collect,
    )
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
      // An explicit --profile is never replaced by the report's; the report's wins over the default.
      const profile =
        command.getOptionValueSource('profile') === 'cli'
          ? options.profile
          : ((reportedProfile as Profile | undefined) ?? fromReport?.profile ?? options.profile);
      const output = resolveOutput(options, reporters, io);
      const { profile: _profile, ...targetFlags } = options;
      const opened = await openTarget(targetFlags, reported);
      try {
        const checked = await runChecks({
          target: opened.target,
          profile,
          runs: options.runs,
          concurrency: options.concurrency,
          ...(options.rate !== undefined ? { rate: options.rate } : {}),
          word: flagWording,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.rule ? { rules: options.rule } : {}),
          ...(options.excludeRule ? { excludeRules: options.excludeRule } : {}),
          ...(options.replay ? { replay: options.replay } : {}),
          ...(output.onProgress ? { onProgress: output.onProgress } : {}),
        });
        // A fresh embedded mock is the same mock (seeded data, same ids): its replay line needs no target.
        const report = opened.mock ? { ...checked, rerunFlags: ['--profile', profile] } : checked;
        if (output.chatter)
          io.stdout(`pacu check: seed ${report.seed} (rerun the same cases with --seed ${report.seed})\n`);
        await writeReports(report, reporters, io, output.console);
        outcome.exitCode = report.summary.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
        if (options.replay && report.summary.failed === 0) {
          const before = fromReport?.rules.find((rule) => rule.failure?.id === options.replay)?.failure;
          const now = report.rules.find((rule) => rule.status !== 'skipped') ?? report.rules[0];
          (output.streaming ? io.stderr : io.stdout)(notReproducedMessage(options.replay, now, before));
          outcome.exitCode = EXIT_NOT_REPRODUCED;
        }
      } finally {
        await opened.close();
      }
    });
}
