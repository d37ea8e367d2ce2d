import type { CliIo } from './cli-io.ts';

/** The signals that end a server command: Ctrl-C, and what CI runners and supervisors send. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export type StopSignal = (typeof STOP_SIGNALS)[number];

/** A server command's two halves: what starts it, and what stops it once a signal came. */
export interface ServedCommand<Server> {
  /** `mock` or `proxy`: the word its log lines start with. */
  readonly name: string;
  /** Start serving and print the ready line. */
  start(): Promise<Server>;
  /** Close gracefully (requests in flight are answered), then write the reports. */
  stop(server: Server, signal: StopSignal | 'halted'): Promise<void>;
  /** Resolves with why, when the server stops serving on its own (a recording it may not go on without). */
  halted?(server: Server): Promise<string>;
}

/**
 * Run a server command until SIGINT or SIGTERM, then stop it (once it is up, if the signal came
 * while it started). Later signals are absorbed: one Ctrl-C often arrives twice (the terminal, then
 * `npm exec`), and the second must not cut the answers in flight or the reports short.
 */
export async function serveUntilStopped<Server>(command: ServedCommand<Server>, io: CliIo): Promise<void> {
  let requested: StopSignal | undefined;
  let wake: (signal: StopSignal) => void = () => {};
  const stopRequested = new Promise<StopSignal>((resolve) => {
    wake = resolve;
  });
  const onSignal = (signal: StopSignal): void => {
    if (requested) {
      io.stderr(
        `pacu ${command.name}: ${signal} again: already stopping, answering the requests in flight\n`,
      );
      return;
    }
    requested = signal;
    wake(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    const server = await command.start();
    const halted = command.halted?.(server).then((why) => ({ why }));
    const stop = await (halted ? Promise.race([stopRequested, halted]) : stopRequested);
    if (typeof stop === 'string')
      io.stderr(`pacu ${command.name}: ${stop}: stopping (requests in flight are answered first)\n`);
    else io.stderr(`pacu ${command.name}: ${stop.why}: stopping\n`);
    await command.stop(server, typeof stop === 'string' ? stop : 'halted');
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}
