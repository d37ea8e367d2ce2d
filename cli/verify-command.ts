import { type Command, Option } from 'commander';
import {
  type BrokerOptions,
  checkPactsAgainstSpec,
  PACU_PACT_DIR,
  pactSpecReport,
  verifyPacts,
} from '../contracts/index.ts';
import { startMock } from '../mock/index.ts';
import { ConfigError, type Profile } from '../spec/index.ts';
import { type Report, readConfigFile, resolveTargetConfig, type TargetConfigInput } from '../suites/index.ts';
import { EXIT_FINDINGS, EXIT_OK } from './exit-codes.ts';
import { collect, wholeNumber } from './option-parsers.ts';
import type { CliIo, CommandOutcome } from './program.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';
import { addTargetOptions } from './target-options.ts';

interface VerifyCommandOptions extends TargetConfigInput {
  config?: string;
  pact?: string[];
  brokerUrl?: string;
  brokerToken?: string;
  providerVersion?: string;
  providerBranch?: string;
  publish?: boolean;
  againstSpec?: boolean;
  profile: Profile;
  reporter?: string[];
  timeout: number;
}

/** The broker flags, checked together: each needs the others, and they replace --pact. */
function brokerOptions(options: VerifyCommandOptions): BrokerOptions | undefined {
  const { brokerUrl, providerVersion, publish, providerBranch } = options;
  if (!brokerUrl) {
    if (providerVersion || publish || providerBranch)
      throw new ConfigError(
        'pacu: --provider-version, --provider-branch and --publish go with --broker-url URL',
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
  const token = options.brokerToken ?? process.env.PACT_BROKER_TOKEN;
  return {
    url: brokerUrl,
    providerVersion,
    publish: publish === true,
    ...(providerBranch ? { providerBranch } : {}),
    ...(token ? { token } : {}),
  };
}

async function verifyAgainstTarget(
  options: VerifyCommandOptions,
  broker: BrokerOptions | undefined,
): Promise<Report> {
  const file = options.config ? await readConfigFile(options.config) : {};
  const flags = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  // Without a target, an embedded mock: its control API sets every provider state up.
  const mock = (options.target ?? file.target) ? undefined : await startMock({ log: () => {} });
  try {
    const embedded: TargetConfigInput = mock ? { target: mock.url, controlUrl: mock.origin } : {};
    const target = resolveTargetConfig(flags as TargetConfigInput, { ...embedded, ...file }, process.env);
    return await verifyPacts({
      target,
      timeoutMs: options.timeout,
      profile: options.profile,
      ...(options.pact ? { pacts: options.pact } : {}),
      ...(broker ? { broker } : {}),
    });
  } finally {
    await mock?.close();
  }
}

/** `pacu verify`: Pact provider verification against any target, or a check of pacts against the spec. */
export function registerVerifyCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  addTargetOptions(program.command('verify'))
    .description(
      "verify Pact contracts against a provider (default: an embedded pacu mock), or against pacu's spec",
    )
    .option(
      '--pact <file|dir>',
      "a pact file or a folder of them (repeatable; default: pacu's own pacts)",
      collect,
    )
    .option('--against-spec', 'check the pacts against spec/openapi.yaml; calls no provider')
    .addOption(
      new Option('--profile <profile>', 'for --against-spec: strict (with pacu decisions) or documented')
        .choices(['documented', 'strict'])
        .default('strict'),
    )
    .option('--broker-url <url>', 'take the pacts from a Pact Broker')
    .option('--broker-token <token>', 'Pact Broker token (env PACT_BROKER_TOKEN)')
    .option('--provider-version <version>', 'the provider version the results are for (with --broker-url)')
    .option('--provider-branch <branch>', 'the provider branch (with --broker-url)')
    .option('--publish', 'publish the verification results to the broker')
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable)',
      collect,
    )
    .option(
      '--timeout <ms>',
      'time one request to the provider may take',
      wholeNumber('--timeout', 100, 600_000, 'number of milliseconds'),
      10_000,
    )
    .action(async (options: VerifyCommandOptions) => {
      const reporters = parseReporterSpecs(options.reporter ?? ['console']);
      const broker = brokerOptions(options);
      let report: Report;
      if (options.againstSpec) {
        if (options.target) throw new ConfigError('pacu: --against-spec calls no provider: drop --target');
        const started = new Date();
        report = pactSpecReport(
          await checkPactsAgainstSpec(options.pact ?? [PACU_PACT_DIR], { profile: options.profile }),
          started,
        );
      } else {
        report = await verifyAgainstTarget(options, broker);
      }
      const { passed, failed, skipped } = report.summary;
      io.stdout(
        `pacu verify: ${report.rules.length} interactions against ${report.target}: ${passed} verified, ${failed} failed, ${skipped} skipped\n`,
      );
      await writeReports(report, reporters, io);
      outcome.exitCode = failed > 0 ? EXIT_FINDINGS : EXIT_OK;
    });
}
