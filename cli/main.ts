import { CommanderError } from 'commander';
import { PacuError } from '../spec/index.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { createProgram } from './program.ts';

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

function oneLine(message: string): string {
  const line = message.split('\n').find((part) => part.trim() !== '') ?? message;
  return line.startsWith('pacu:') ? line : `pacu: ${line.replace(/^error: /, '')}`;
}

/**
 * Run the CLI on `args` (without node and script) and return the exit code. Usage errors become
 * one line on stderr and exit code 2; nothing here ever prints a stack trace.
 */
export async function main(args: readonly string[], io: CliIo = processIo): Promise<number> {
  const outcome = { exitCode: EXIT_OK };
  // Commander prints its own error line; we keep it and only swap its exit code for ours.
  let commanderPrinted = false;
  // A bare `pacu` asks what pacu can do: the full help, as `pacu --help` prints it.
  const argv = args.length === 0 ? ['--help'] : [...args];
  try {
    const program = await createProgram(
      {
        stdout: io.stdout,
        stderr: (text) => {
          commanderPrinted = true;
          io.stderr(`${oneLine(text)}\n`);
        },
      },
      outcome,
      argv,
    );
    await program.parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_OK;
      // `pacu help [command]` is a request, not a mistake; help shown after an error exits 1.
      if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      if (!commanderPrinted) io.stderr(`${oneLine(error.message)}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof PacuError) {
      io.stderr(`${oneLine(error.message)}\n`);
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`pacu: unexpected error: ${oneLine(message).replace(/^pacu: /, '')} (please report it)\n`);
    if (process.env.PACU_DEBUG) io.stderr(`${(error as Error)?.stack ?? ''}\n`);
    return EXIT_USAGE;
  }
}
