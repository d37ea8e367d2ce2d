import { Command } from 'commander';
import type { CliIo, CommandOutcome } from './cli-io.ts';

type Register = (program: Command, io: CliIo, outcome: CommandOutcome) => void;

interface CommandEntry {
  readonly name: string;
  /** The line in `pacu --help`; the command's own help has its longer description. */
  readonly summary: string;
  /** Imported only when this command runs or its help is asked for: `pacu --help` loads no Prism, no Pact. */
  readonly load: () => Promise<Register>;
}

/** Every `pacu` command, in the order `pacu --help` lists them. */
const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'spec',
    summary: "summarise pacu's OpenAPI description: operations, security, webhooks, decisions",
    load: async () => (await import('./spec-command.ts')).registerSpecCommand,
  },
  {
    name: 'mock',
    summary: 'run the stateful mock of the whole interface',
    load: async () => (await import('./mock-command.ts')).registerMockCommand,
  },
  {
    name: 'check',
    summary: 'check a provider against the rules (default: an embedded pacu mock)',
    load: async () => (await import('./check-command.ts')).registerCheckCommand,
  },
  {
    name: 'rules',
    summary: 'list the rules of pacu check: id, category, profile, title',
    load: async () => (await import('./rules-command.ts')).registerRulesCommand,
  },
  {
    name: 'verify',
    summary: 'verify Pact contracts against a provider, or against the spec',
    load: async () => (await import('./verify-command.ts')).registerVerifyCommand,
  },
  {
    name: 'replay',
    summary: 'send a recording (HAR) to a provider again and report drift',
    load: async () => (await import('./replay-command.ts')).registerReplayCommand,
  },
  {
    name: 'diff',
    summary: 'compare two versions of an OpenAPI description: breaking, risky or safe, and who it breaks',
    load: async () => (await import('./diff-command.ts')).registerDiffCommand,
  },
  {
    name: 'proxy',
    summary: 'stand between a client and the provider: judge and record every exchange',
    load: async () => (await import('./proxy-command.ts')).registerProxyCommand,
  },
  {
    name: 'record',
    summary: 'record the few requests that teach pacu mock --from-recording a sandbox, through pacu proxy',
    load: async () => (await import('./record-command.ts')).registerRecordCommand,
  },
  {
    name: 'webhooks',
    summary: "test your side of the API's webhooks (webhooks check)",
    load: async () => (await import('./webhooks-command.ts')).registerWebhooksCommand,
  },
];

/** The command `args` select: the first operand, or the one after `help`. */
function selectedCommand(args: readonly string[]): string | undefined {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/**
 * The `pacu` command tree for `args`. Each command lives in its own `*-command.ts` file; only the
 * one `args` select is imported and registered in full, the others are listed by name and summary.
 */
export async function createProgram(
  io: CliIo,
  outcome: CommandOutcome,
  args: readonly string[] = [],
  commanderErr: (text: string) => void = io.stderr,
): Promise<Command> {
  // The version (spec/ reads it from package.json) is looked up only when it is asked for.
  const version = args.some((arg) => arg === '-V' || arg === '--version')
    ? (await import('../spec/index.ts')).PACU_VERSION
    : '';
  const program = new Command('pacu')
    .description('Mock, property-check and contract-test kit for the Payments, Accounts, Cards and Users API')
    .version(version, '-V, --version', 'print the pacu version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .configureOutput({ writeOut: io.stdout, writeErr: commanderErr })
    .exitOverride();
  const selected = selectedCommand(args);
  for (const entry of COMMANDS) {
    if (entry.name === selected) {
      (await entry.load())(program, io, outcome);
      program.commands.at(-1)?.summary(entry.summary);
    } else program.command(entry.name).summary(entry.summary);
  }
  return program;
}
