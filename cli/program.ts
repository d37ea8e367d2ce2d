import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerCheckCommand } from './check-command.ts';
import { registerMockCommand } from './mock-command.ts';
import { registerSpecCommand } from './spec-command.ts';
import { registerVerifyCommand } from './verify-command.ts';
import { registerWebhooksCommand } from './webhooks-command.ts';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Output streams of the CLI, injectable so tests can run commands in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** The result a command's action leaves behind: the process exit code. */
export interface CommandOutcome {
  exitCode: number;
}

/** The `pacu` command tree. Each command lives in its own `*-command.ts` file and registers itself here. */
export function createProgram(io: CliIo, outcome: CommandOutcome): Command {
  const program = new Command('pacu')
    .description('Mock, property-check and contract-test kit for the Payments, Accounts, Cards and Users API')
    .version(packageJson.version, '-V, --version', 'print the pacu version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(false)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
  registerSpecCommand(program, io, outcome);
  registerMockCommand(program, io, outcome);
  registerCheckCommand(program, io, outcome);
  registerVerifyCommand(program, io, outcome);
  registerWebhooksCommand(program, io, outcome);
  return program;
}
