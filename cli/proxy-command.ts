import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { readHar } from '../http/index.ts';
import { createCoverageObserver } from '../mock/index.ts';
import {
  PROXY_DEFAULTS,
  type ProxyOptions,
  type RunningProxy,
  resolveProxyOptions,
  startProxy,
  upstreamUrl,
} from '../proxy/index.ts';
import { ConfigError, loadSpec, type Profile, TargetUnreachableError } from '../spec/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { findingLine } from './finding-line.ts';
import { collect, wholeNumber as integer } from './option-parsers.ts';
import { wantsColour } from './output-options.ts';
import { profileOption } from './profile-option.ts';
import {
  addCardDataOption,
  addRedactionOptions,
  type RedactionNames,
  redactionOf,
} from './redaction-options.ts';
import { coverageFormat, writeCoverageReport } from './reporters/coverage-report.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';
import { serveUntilStopped } from './serve-until-stopped.ts';
import { upstreamProblem } from './upstream-probe.ts';

interface ProxyCommandOptions extends RedactionNames {
  upstream: string;
  upstreamCa?: string;
  upstreamTimeout: number;
  keepExchanges: number;
  port: number;
  host: string;
  json?: boolean;
  profile: Profile;
  record?: string;
  onRecordError: 'serve' | 'stop';
  reporter?: string[];
  failOn: 'provider' | 'client';
  pactOut?: string;
  consumer?: string;
  provider?: string;
  clientId?: string;
  clientSecret?: string;
  control: boolean;
  controlToken?: string;
  coverageReport?: string;
  requireUpstream?: boolean;
}

/** The pact writer of contracts/, loaded only when `--pact-out` asks for it (Pact's FFI is heavy). */
async function pactWriter(): Promise<typeof import('../contracts/index.ts').writePactFromHar> {
  return (await import('../contracts/index.ts')).writePactFromHar;
}

/** The ready line (or the one JSON line) of a proxy that listens. */
function announce(io: CliIo, proxy: RunningProxy, options: ProxyCommandOptions): RunningProxy {
  const summary = {
    url: proxy.url,
    upstream: proxy.upstream,
    // The process that serves and records (a launcher may stand in front of it).
    pid: process.pid,
    control: `${proxy.origin}/__pacu`,
    profile: options.profile,
    ...(options.record ? { record: options.record } : {}),
    ...(proxy.controlToken ? { controlToken: proxy.controlToken } : {}),
  };
  if (options.json) io.stdout(`${JSON.stringify(summary)}\n`);
  else {
    io.stdout(`pacu proxy listening on ${proxy.url} → ${proxy.upstream}\n`);
    for (const [key, value] of Object.entries(summary).slice(2)) io.stdout(`  ${key.padEnd(10)} ${value}\n`);
    io.stdout('Stop with Ctrl-C: the reports are written then.\n');
  }
  return proxy;
}

/** `pacu proxy`: stand between a client and the provider, judge and record every exchange, until a signal. */
export function registerProxyCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  const command = program
    .command('proxy')
    .description(
      'forward a client to the provider, judge every exchange against the description and record it; reports at Ctrl-C',
    )
    .requiredOption('--upstream <url>', "the provider's base URL, http or https, ending in /v3")
    .option('--upstream-ca <file>', "PEM file of a private CA that signed the upstream's certificate")
    .option(
      '--upstream-timeout <ms>',
      'time the upstream may take to start its answer (then 504)',
      integer('--upstream-timeout', 100, 600_000, 'number of milliseconds'),
      PROXY_DEFAULTS.upstreamTimeoutMs,
    )
    .option(
      '--port <port>',
      'port to listen on (0: a free one)',
      integer('--port', 0, 65535),
      PROXY_DEFAULTS.port,
    )
    .option('--host <host>', 'address to listen on', PROXY_DEFAULTS.host)
    .option('--json', 'print one JSON line (url, upstream, …) instead of text')
    .addOption(profileOption(PROXY_DEFAULTS.profile))
    .option(
      '--record <file.har>',
      'record every exchange as HAR 1.2, each before its answer leaves (0600, credentials redacted; a pacu recording is continued)',
    )
    .addOption(
      new Option(
        '--on-record-error <what>',
        'when --record cannot be written (a full disk): serve on and record what can be, saying so once a second; or stop (the failed turn is cut, exit 2)',
      )
        .choices(['serve', 'stop'])
        .default(PROXY_DEFAULTS.onRecordError),
    )
    .option(
      '--reporter <spec>',
      'at shutdown: console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable; default console)',
      collect,
    )
    .addOption(
      new Option('--fail-on <side>', 'exit 1 on provider findings only, or on client findings too')
        .choices(['provider', 'client'])
        .default('provider'),
    )
    .option('--pact-out <dir>', 'at shutdown, write the recorded interactions as a Pact V4 file here')
    .option('--consumer <name>', 'consumer name of the pact (with --pact-out)')
    .option('--provider <name>', 'provider name of the pact (with --pact-out)')
    .option('--client-id <id>', 'OAuth client id, shown by name in redacted credentials (env PACU_CLIENT_ID)')
    .option(
      '--client-secret <secret>',
      'OAuth client secret, redacted wherever it shows up (env PACU_CLIENT_SECRET)',
    )
    .option(
      '--keep-exchanges <n>',
      'how many of the last exchanges GET /__pacu/exchanges shows (the recording keeps them all)',
      integer('--keep-exchanges', 0, 100_000, 'number of exchanges'),
      PROXY_DEFAULTS.keepExchanges,
    )
    .option('--no-control', 'do not serve GET /__pacu/exchanges and /__pacu/findings')
    .option('--control-token <token>', 'require this x-pacu-control-token on /__pacu')
    .option(
      '--coverage-report <file>',
      'on shutdown, write which operations and statuses the traffic reached (.json, .md or .html)',
    )
    .option(
      '--require-upstream',
      'refuse to start when the upstream takes no connection (without it: one warning line, then 502s until it does)',
    );
  addCardDataOption(addRedactionOptions(command)).action(async (options: ProxyCommandOptions) => {
    // Usage errors first, each one line: nothing listens before the flags are sound.
    upstreamUrl(options.upstream);
    const reporters = parseReporterSpecs(options.reporter ?? ['console']);
    if (options.pactOut && (!options.consumer || !options.provider))
      throw new ConfigError('pacu: --pact-out needs --consumer NAME and --provider NAME');
    const writePact = options.pactOut ? await pactWriter() : undefined;
    if (options.coverageReport) coverageFormat(options.coverageReport);
    // The mock's coverage, fed by the proxy's request events (decision 081).
    const coverage = options.coverageReport ? createCoverageObserver(await loadSpec()) : undefined;
    // A pact needs the recording: without --record, one is kept in a private folder until the end.
    const scratch =
      options.pactOut && !options.record ? mkdtempSync(path.join(tmpdir(), 'pacu-proxy-')) : undefined;
    const record = options.record ?? (scratch ? path.join(scratch, 'recording.har') : undefined);
    const clientId = options.clientId ?? process.env.PACU_CLIENT_ID;
    const clientSecret = options.clientSecret ?? process.env.PACU_CLIENT_SECRET;
    const proxyOptions: ProxyOptions = {
      upstream: options.upstream,
      upstreamTimeoutMs: options.upstreamTimeout,
      keepExchanges: options.keepExchanges,
      port: options.port,
      host: options.host,
      profile: options.profile,
      control: options.control,
      ...(options.upstreamCa ? { upstreamCa: options.upstreamCa } : {}),
      ...(record ? { record, onRecordError: options.onRecordError } : {}),
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(options.controlToken ? { controlToken: options.controlToken } : {}),
      ...(coverage ? { observers: [coverage] } : {}),
      ...redactionOf(options),
      onFinding: (finding) => io.stderr(`${findingLine(finding)}\n`),
      log: (line) => io.stderr(`${line}\n`),
    };
    // The upstream is probed once (a connection, no request): a wrong URL is said now, not as 502s.
    const { upstream, upstreamCa } = resolveProxyOptions(proxyOptions);
    const unreachable = await upstreamProblem(upstream, upstreamCa);
    if (unreachable && options.requireUpstream)
      throw new TargetUnreachableError(
        `pacu: cannot reach the upstream ${options.upstream}: ${unreachable}. Is --upstream right and the sandbox up?`,
      );
    if (unreachable)
      io.stderr(
        `pacu proxy: warning: cannot reach the upstream ${options.upstream}: ${unreachable}; requests get 502 until it answers (--require-upstream refuses to start instead)\n`,
      );
    await serveUntilStopped(
      {
        name: 'proxy',
        start: async () => announce(io, await startProxy(proxyOptions), options),
        halted: async (proxy) => {
          const error = await proxy.halted;
          outcome.exitCode = EXIT_USAGE;
          return `cannot write the recording ${record} (${(error as NodeJS.ErrnoException).code ?? error.message}) and --on-record-error is stop`;
        },
        stop: async (proxy) => {
          await proxy.close();
          try {
            const report = proxy.report();
            await writeReports(report, reporters, io, {
              colour: wantsColour(process.env, process.stdout.isTTY === true),
              clientFails: options.failOn === 'client',
            });
            if (writePact && record && options.pactOut) {
              const file = await writePact(await readHar(record), {
                consumer: options.consumer as string,
                provider: options.provider as string,
                dir: options.pactOut,
              });
              io.stderr(`pacu proxy: pact written to ${file}\n`);
            }
            if (coverage && options.coverageReport) {
              await writeCoverageReport(options.coverageReport, coverage.report(), 'proxy');
              io.stderr(`pacu proxy: coverage written to ${options.coverageReport}\n`);
            }
            const failing = proxy
              .findings()
              .some(
                (finding) =>
                  finding.side === 'provider' || (options.failOn === 'client' && finding.side === 'client'),
              );
            if (outcome.exitCode !== EXIT_USAGE) outcome.exitCode = failing ? EXIT_FINDINGS : EXIT_OK;
          } finally {
            if (scratch) rmSync(scratch, { recursive: true, force: true });
          }
        },
      },
      io,
    );
  });
}
