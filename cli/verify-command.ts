import { type Command, Option } from 'commander';
import {
  AGAINST_SPEC_CURL_BASE,
  type BrokerOptions,
  checkPactsAgainstSpec,
  pactSpecReport,
  pacuPactDirs,
  VERIFY_DEFAULTS,
  verifyPacts,
} from '../contracts/index.ts';
import { ConfigError, type Profile } from '../spec/index.ts';
import type { Report } from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_OK } from './exit-codes.ts';
import { openTarget, type TargetFlags } from './open-target.ts';
import { collect } from './option-parsers.ts';
import { addOutputOptions, type OutputFlags, resolveOutput } from './output-options.ts';
import { profileOption } from './profile-option.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';
import { flagWording } from './setting-flags.ts';
import { addTargetOptions } from './target-options.ts';

interface VerifyCommandOptions extends TargetFlags, OutputFlags {
  pact?: string[];
  brokerUrl?: string;
  brokerToken?: string;
  providerVersion?: string;
  providerBranch?: string;
  publish?: boolean;
  consumerVersionSelectors?: string;
  enablePending?: boolean;
  includeWipPactsSince?: string;
  againstSpec?: boolean;
  keepMock?: boolean;
  profile: Profile;
  reporter?: string[];
}

/** The broker flags, checked together: each needs the others, and they replace --pact. */
function brokerOptions(options: VerifyCommandOptions): BrokerOptions | undefined {
  const { brokerUrl, providerVersion, publish, providerBranch } = options;
  const { consumerVersionSelectors, enablePending, includeWipPactsSince } = options;
  if (!brokerUrl) {
    if (
      providerVersion ||
      publish ||
      providerBranch ||
      consumerVersionSelectors ||
      enablePending ||
      includeWipPactsSince
    )
      throw new ConfigError(
        'pacu: --provider-version, --provider-version-branch, --publish, --consumer-version-selectors, --enable-pending and --include-wip-pacts-since go with --broker-url URL',
      );
    return undefined;
  }
  if (!/^https?:\/\/[^/]/.test(brokerUrl))
    throw new ConfigError(`pacu: --broker-url "${brokerUrl}" is not an http(s) URL`);
  if (!providerVersion)
    throw new ConfigError(
      'pacu: --broker-url needs --provider-version V (the version of the provider you verify)',
    );
  if (options.pact)
    throw new ConfigError('pacu: take pacts from --pact files or from --broker-url, not both');
  if (options.againstSpec)
    throw new ConfigError('pacu: --against-spec reads --pact files; it does not use a broker');
  if (includeWipPactsSince && (!enablePending || Number.isNaN(Date.parse(includeWipPactsSince))))
    throw new ConfigError(
      'pacu: --include-wip-pacts-since takes a date (e.g. 2024-06-01) and goes with --enable-pending',
    );
  const token = options.brokerToken ?? process.env.PACT_BROKER_TOKEN;
  return {
    url: brokerUrl,
    providerVersion,
    publish: publish === true,
    enablePending: enablePending === true,
    ...(consumerVersionSelectors
      ? { consumerVersionSelectors: parseSelectors(consumerVersionSelectors) }
      : {}),
    ...(includeWipPactsSince ? { includeWipPactsSince } : {}),
    ...(providerBranch ? { providerBranch } : {}),
    ...(token ? { token } : {}),
  };
}

/** `--consumer-version-selectors '[{"mainBranch":true}]'`: a JSON list of the broker's selector objects. */
function parseSelectors(text: string): Array<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item)))
    throw new ConfigError(
      `pacu: --consumer-version-selectors wants JSON selector objects, e.g. '[{"mainBranch":true},{"deployedOrReleased":true}]'`,
    );
  return list as Array<Record<string, unknown>>;
}

/** Wait for Ctrl-C (or SIGTERM), for `--keep-mock`. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function verifyAgainstTarget(
  options: VerifyCommandOptions,
  broker: BrokerOptions | undefined,
  io: CliIo,
  present: (report: Report) => Promise<void>,
): Promise<Report> {
  // Without a target, the same embedded mock as `pacu check`: its control API sets every provider state up.
  const { profile, ...targetFlags } = options;
  const opened = await openTarget(targetFlags);
  const mock = opened.mock;
  if (options.keepMock && !mock)
    throw new ConfigError('pacu: --keep-mock keeps the embedded mock: drop --target');
  let report: Report | undefined;
  try {
    report = await verifyPacts({
      target: opened.target,
      ...(opened.target.timeoutMs !== undefined ? { timeoutMs: opened.target.timeoutMs } : {}),
      profile,
      word: flagWording,
      ...(options.pact ? { pacts: options.pact } : {}),
      ...(broker ? { broker } : {}),
    });
    await present(report);
    return report;
  } finally {
    if (mock && report && report.summary.failed > 0) {
      if (options.keepMock) {
        io.stdout(
          `pacu verify: the embedded mock keeps running at ${mock.url} for the curl lines (PACU_CLIENT_ID=${mock.demoClient.clientId} PACU_CLIENT_SECRET=${mock.demoClient.clientSecret}); Ctrl-C stops it\n`,
        );
        await untilStopped();
      } else
        io.stdout(
          'note: the curl lines point at the embedded pacu mock, which stops with this run: rerun with --keep-mock to replay them\n',
        );
    }
    await opened.close();
  }
}

/** A run that verified nothing is not a pass: say why, in one line. */
function nothingVerified(report: Report): string {
  if (report.rules.length === 0)
    return `pacu: nothing verified: ${report.target} gave no interactions to verify`;
  const reasons = [...new Set(report.rules.flatMap((rule) => (rule.skipReason ? [rule.skipReason] : [])))];
  return `pacu: nothing verified: ${report.rules.length === 1 ? 'the 1 interaction was' : `all ${report.rules.length} interactions were`} skipped (${reasons.slice(0, 2).join('; ')}${reasons.length > 2 ? '; …' : ''})`;
}

/** `pacu verify`: Pact provider verification against any target, or a check of pacts against the spec. */
export function registerVerifyCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  addOutputOptions(addTargetOptions(program.command('verify')))
    .description(
      "verify Pact contracts against a provider (default: an embedded pacu mock), or against pacu's spec",
    )
    .option(
      '--pact <file|dir>',
      "a pact file or a folder of them (repeatable; default: pacu's own pacts)",
      collect,
    )
    .option('--against-spec', 'check the pacts against spec/openapi.yaml; calls no provider')
    .option('--keep-mock', 'after failures, keep the embedded mock running so the curl lines replay')
    .addOption(
      profileOption(
        VERIFY_DEFAULTS.profile,
        "documented: pacu's pacts of what the description states; strict: its decisions too (and --against-spec checks them)",
      ),
    )
    .option('--broker-url <url>', 'take the pacts from a Pact Broker')
    .option('--broker-token <token>', 'Pact Broker token (env PACT_BROKER_TOKEN)')
    .option('--provider-version <version>', 'the provider version the results are for (with --broker-url)')
    .option('--provider-version-branch <branch>', 'the provider branch (with --broker-url)')
    .addOption(new Option('--provider-branch <branch>').hideHelp())
    .option(
      '--consumer-version-selectors <json>',
      'which consumer versions to verify, as broker selectors (default: [{"mainBranch":true},{"deployedOrReleased":true}])',
    )
    .option('--enable-pending', "pending pacts: a new pact's failure does not fail the build")
    .option(
      '--include-wip-pacts-since <date>',
      'also verify work-in-progress pacts since this date (with --enable-pending)',
    )
    .option('--publish', 'publish the verification results to the broker (never without this flag)')
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable)',
      collect,
    )
    .action(async (options: VerifyCommandOptions & { providerVersionBranch?: string }) => {
      if (options.providerVersionBranch) options.providerBranch = options.providerVersionBranch;
      const reporters = parseReporterSpecs(options.reporter ?? ['console']);
      const broker = brokerOptions(options);
      const output = resolveOutput(options, reporters, io);
      const present = async (report: Report): Promise<void> => {
        const { passed, failed, skipped } = report.summary;
        if (output.chatter) {
          io.stdout(
            `pacu verify: ${report.rules.length} interaction${report.rules.length === 1 ? '' : 's'} against ${report.target}: ${passed} verified, ${failed} failed, ${skipped} skipped\n`,
          );
          for (const rule of report.rules)
            for (const note of rule.notes ?? []) io.stdout(`warning: ${rule.title ?? rule.id}: ${note}\n`);
        }
        await writeReports(report, reporters, io, output.console);
      };
      let report: Report;
      if (options.againstSpec) {
        if (options.target) throw new ConfigError('pacu: --against-spec calls no provider: drop --target');
        const started = new Date();
        report = pactSpecReport(
          await checkPactsAgainstSpec(options.pact ?? pacuPactDirs(options.profile), {
            profile: options.profile,
          }),
          started,
        );
        await present(report);
        if (report.summary.failed > 0 && output.chatter)
          io.stdout(
            `note: --against-spec called no provider: the curl lines send to ${AGAINST_SPEC_CURL_BASE}, set to your provider's base URL (a pacu mock's is http://127.0.0.1:4010/v3 after npx pacu-kit mock --port 4010)\n`,
          );
      } else {
        report = await verifyAgainstTarget(options, broker, io, present);
      }
      const { passed, failed } = report.summary;
      if (failed > 0) outcome.exitCode = EXIT_FINDINGS;
      else if (passed === 0) throw new ConfigError(nothingVerified(report));
      else outcome.exitCode = EXIT_OK;
    });
}
