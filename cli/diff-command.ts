import { readFile, writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import {
  collectPactFiles,
  fetchBrokerPacts,
  PACU_PROVIDER,
  type PactInteraction,
  readPactFile,
} from '../contracts/index.ts';
import {
  type CoverageLike,
  type DescriptionInput,
  DIFF_DEFAULTS,
  type DiffReport,
  descriptionAtRef,
  diffSpecs,
  type FailOn,
  failsGate,
  type UsageRecord,
  usageFromCoverage,
  usageFromPacts,
} from '../diff/index.ts';
import { ConfigError, DEFAULT_SPEC_FILE, jsonProblem } from '../spec/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_OK } from './exit-codes.ts';
import { collect } from './option-parsers.ts';
import { wantsColour } from './output-options.ts';
import { profileOption } from './profile-option.ts';
import {
  renderDiffConsole,
  renderDiffJson,
  renderDiffJunit,
  renderDiffMarkdown,
} from './reporters/diff-reporters.ts';
import { parseReporterSpecs, STDOUT } from './reporters/write-reports.ts';

type FileKind = 'json' | 'markdown' | 'junit';

/** `--reporter` values as every command reads them, less html: a diff has no matrix to draw. */
function diffReporters(values: string[]): Array<{ kind: 'console' } | { kind: FileKind; path: string }> {
  return parseReporterSpecs(values).map((spec) => {
    if (spec.kind === 'console') return spec;
    if (spec.kind === 'html')
      throw new ConfigError(
        'pacu: diff writes console, json:PATH, junit:PATH or markdown:PATH reports, not html',
      );
    return { kind: spec.kind as FileKind, path: spec.path };
  });
}

interface DiffCommandOptions {
  base?: string;
  pacts?: string[];
  brokerToken?: string;
  provider: string;
  coverage?: string;
  failOn: FailOn;
  profile: 'documented' | 'strict';
  reporter?: string[];
  quiet?: boolean;
}

/** OLD and NEW from the operands: two files, or `--base REF` and at most one file (default: pacu's own). */
async function descriptions(
  operands: string[],
  base: string | undefined,
): Promise<[DescriptionInput, DescriptionInput]> {
  if (base !== undefined) {
    if (operands.length > 1)
      throw new ConfigError('pacu: diff --base REF takes at most one file, the new description');
    const file = operands[0] ?? DEFAULT_SPEC_FILE;
    return [await descriptionAtRef(base, file), file];
  }
  if (operands.length !== 2)
    throw new ConfigError('pacu: diff needs two descriptions, OLD and NEW (or --base GIT_REF [NEW])');
  return [operands[0] as string, operands[1] as string];
}

/** The interactions of every `--pacts` value: a file, a folder of pact files, or a Pact Broker URL. */
async function readPacts(options: DiffCommandOptions): Promise<PactInteraction[]> {
  const values = options.pacts ?? [];
  const brokers = values.filter((value) => /^https?:\/\//.test(value));
  const files = await collectPactFiles(values.filter((value) => !brokers.includes(value)));
  const token = options.brokerToken ?? process.env.PACT_BROKER_TOKEN;
  const read = await Promise.all([
    ...files.map((file) => readPactFile(file)),
    ...brokers.map((url) => fetchBrokerPacts({ url, ...(token ? { token } : {}) }, options.provider)),
  ]);
  return read.flat();
}

async function readCoverage(file: string): Promise<UsageRecord[]> {
  let text: string;
  let coverage: CoverageLike;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    throw new ConfigError(`pacu: cannot read the coverage report ${file}: ${reason}`, { cause });
  }
  try {
    coverage = JSON.parse(text) as CoverageLike;
  } catch (cause) {
    throw new ConfigError(`pacu: ${file} is not a pacu coverage report: ${jsonProblem(text, cause)}`, {
      cause,
    });
  }
  if (!Array.isArray(coverage?.operations))
    throw new ConfigError(
      `pacu: ${file} is not a pacu coverage report (write one with pacu mock or pacu proxy --coverage-report FILE.json)`,
    );
  return usageFromCoverage(coverage, `recorded traffic (${file})`);
}

/** `pacu diff`: every change between two versions of an OpenAPI description, judged for the old one's clients. */
export function registerDiffCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  program
    .command('diff')
    .argument('[descriptions...]', 'OLD NEW: two OpenAPI descriptions (YAML or JSON); with --base, only NEW')
    .description(
      'compare two versions of an OpenAPI description: each change breaking, risky or safe, with the payment rules and who uses it',
    )
    .option('--base <git-ref>', 'take OLD from git: the NEW file as it was at this revision')
    .option(
      '--pacts <dir|url>',
      'pact files, folders or a Pact Broker URL: each breaking change lists which consumers use it (repeatable)',
      collect,
    )
    .option('--broker-token <token>', 'Pact Broker token for a --pacts URL (env PACT_BROKER_TOKEN)')
    .option('--provider <name>', 'the provider whose pacts a --pacts broker URL gives', PACU_PROVIDER)
    .option(
      '--coverage <file>',
      "the mock's coverage report (JSON): which operations and statuses traffic reached",
    )
    .addOption(
      new Option(
        '--fail-on <level>',
        'exit 1 on a change at or above: breaking, risky, or used (breaking and used by a known consumer)',
      )
        .choices(['breaking', 'risky', 'used'])
        .default(DIFF_DEFAULTS.failOn),
    )
    .addOption(
      profileOption(
        DIFF_DEFAULTS.profile,
        "documented: pacu's decisions are reported but do not fail; strict: they do",
      ),
    )
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, markdown:PATH; PATH - is stdout (repeatable)',
      collect,
    )
    .option('-q, --quiet', 'leave out the safe changes on the console')
    .action(async (operands: string[], options: DiffCommandOptions) => {
      const reporters = diffReporters(options.reporter ?? ['console']);
      const [before, after] = await descriptions(operands, options.base);
      const interactions = await readPacts(options);
      const usage = [
        ...usageFromPacts(interactions),
        ...(options.coverage ? await readCoverage(options.coverage) : []),
      ];
      const report = await diffSpecs(before, after, {
        failOn: options.failOn,
        profile: options.profile,
        usage,
      });
      const render: Record<FileKind, (r: DiffReport) => string> = {
        json: renderDiffJson,
        markdown: renderDiffMarkdown,
        junit: (r) => renderDiffJunit(r, (change) => failsGate(change, r.options)),
      };
      for (const spec of reporters) {
        if (spec.kind === 'console') {
          io.stdout(
            renderDiffConsole(report, {
              colour: wantsColour(process.env, process.stdout.isTTY === true),
              quiet: options.quiet === true,
            }),
          );
          continue;
        }
        const text = render[spec.kind](report);
        if (spec.path === STDOUT) io.stdout(text);
        else
          await writeFile(spec.path, text, 'utf8').catch((cause: unknown) => {
            throw new ConfigError(
              `pacu: cannot write the ${spec.kind} report to ${spec.path}: ${(cause as Error).message}`,
              { cause },
            );
          });
      }
      outcome.exitCode = report.failed ? EXIT_FINDINGS : EXIT_OK;
    });
}
