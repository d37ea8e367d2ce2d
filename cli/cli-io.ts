/** Output streams of the CLI, injectable so tests can run commands in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** The result a command's action leaves behind: the process exit code. */
export interface CommandOutcome {
  exitCode: number;
}
