import { CommanderError } from 'commander';
import type { CliIo } from './cli-io.ts';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { createProgram } from './program.ts';

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The first line of `message`, with commander's "(Did you mean …?)" line kept on it. */
function oneLine(message: string): string {
  const lines = message.split('\n').filter((part) => part.trim() !== '');
  const line = lines[0] ?? message;
  const suggestion = lines.find((part) => /^\(Did you mean /.test(part));
  const joined = suggestion ? `${line} (did you mean ${suggestion.slice('(Did you mean '.length)}` : line;
  return joined.startsWith('pacu:') ? joined : `pacu: ${joined.replace(/^error: /, '')}`;
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
    // Commander's own messages become one line; what a command prints is its own business.
    const program = await createProgram(io, outcome, argv, (text) => {
      commanderPrinted = true;
      io.stderr(`${oneLine(text)}\n`);
    });
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
    // spec/ loads here, on the way out, not before every command: `pacu --help` never needs it.
    const { PacuError } = await import('../spec/index.ts');
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
