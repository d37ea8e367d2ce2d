import type { Command } from 'commander';
import type { ProgressEvent } from '../suites/index.ts';
import type { CliIo } from './cli-io.ts';
import type { ConsoleOptions } from './reporters/console-reporter.ts';
import { type ReporterSpec, STDOUT } from './reporters/write-reports.ts';

/** The flags that say how much a run prints: shared by every command that writes reports. */
export interface OutputFlags {
  readonly quiet?: boolean;
  readonly verbose?: boolean;
}

/** How a run prints, decided once from the flags, the reporters, the terminal and the environment. */
export interface Output {
  /** Progress and notes on stdout; false with --quiet or when a report streams to stdout. */
  readonly chatter: boolean;
  /** A report streams to stdout: anything else the run says goes to stderr. */
  readonly streaming: boolean;
  readonly console: ConsoleOptions;
  readonly onProgress?: (event: ProgressEvent) => void;
}

export function addOutputOptions(command: Command): Command {
  return command
    .option('-q, --quiet', 'print only failures and the summary line')
    .option('-v, --verbose', 'print a line per finished check, also when stdout is not a terminal');
}

/**
 * Colour when stdout is a terminal, unless NO_COLOR is set; FORCE_COLOR (not `0`) turns it on
 * anywhere, as https://no-color.org and https://force-color.org ask.
 */
export function wantsColour(env: Readonly<Record<string, string | undefined>>, isTerminal: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTerminal;
}

/** In a CI log, a progress line this often on a run that lasts. */
const HEARTBEAT_MS = 5000;

/** `done/total checks, N requests (T throttled), R req/s, ETA S s`: what a person waiting wants to know. */
export function progressLine(event: Extract<ProgressEvent, { kind: 'tick' }>): string {
  const { done, total, traffic, elapsedMs } = event;
  const perSecond = elapsedMs > 0 ? Math.round((traffic.sent * 1000) / elapsedMs) : 0;
  const eta =
    done > 0 && done < total ? `, ETA ${Math.ceil(((elapsedMs / done) * (total - done)) / 1000)} s` : '';
  const throttled = traffic.throttled > 0 ? ` (${traffic.throttled} throttled)` : '';
  const lost = traffic.inconclusive > 0 ? `, ${traffic.inconclusive} inconclusive` : '';
  return `${done}/${total} checks, ${traffic.sent} requests${throttled}, ${perSecond} req/s${lost}${eta}`;
}

/**
 * On a terminal one line rewritten in place (the check that ended, the requests, the rate, an ETA);
 * elsewhere (CI logs) a line per finished check with --verbose, else a progress line every few
 * seconds of a long run. On stdout: the CLI's stderr is reserved for the one-line usage errors.
 */
function progressPrinter(io: CliIo, mode: 'live' | 'lines' | 'heartbeat'): (event: ProgressEvent) => void {
  let latest = '';
  let nextBeatMs = HEARTBEAT_MS;
  return (event) => {
    if (event.kind === 'tick') {
      latest = progressLine(event);
      if (mode === 'live') io.stdout(`\r\u001b[2K${latest}`);
      if (mode === 'heartbeat' && event.elapsedMs >= nextBeatMs) {
        nextBeatMs = event.elapsedMs + HEARTBEAT_MS;
        io.stdout(`pacu check: ${latest}\n`);
      }
      return;
    }
    if (mode === 'heartbeat') return;
    const counter = `[${event.index + 1}/${event.total}]`;
    if (event.kind === 'start') {
      if (mode === 'live')
        io.stdout(`\r\u001b[2K${latest || `${counter} ${event.rule} ${event.operation}…`}`);
      return;
    }
    const { result } = event;
    const line = `${result.status.padEnd(7)} ${result.id} ${result.operation}${result.status === 'skipped' ? ` (${result.skipReason})` : ` (${result.runs} runs)`}`;
    if (mode === 'lines') return io.stdout(`${line}\n`);
    io.stdout(`\r\u001b[2K${latest ? `${latest} · ` : `${counter} `}${line}`);
    if (event.index + 1 === event.total) io.stdout('\r\u001b[2K');
  };
}

export function resolveOutput(
  flags: OutputFlags,
  reporters: readonly ReporterSpec[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
  isTerminal: boolean = process.stdout.isTTY === true,
): Output {
  const streaming = reporters.some((spec) => spec.kind !== 'console' && spec.path === STDOUT);
  const chatter = !flags.quiet && !streaming;
  const mode = isTerminal && !flags.verbose ? 'live' : flags.verbose ? 'lines' : 'heartbeat';
  return {
    chatter,
    streaming,
    console: { colour: wantsColour(env, isTerminal), quiet: flags.quiet === true },
    ...(chatter ? { onProgress: progressPrinter(io, mode) } : {}),
  };
}
