import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../spec/index.ts';
import type { Report } from '../../suites/index.ts';
import type { CliIo } from '../cli-io.ts';
import { type ConsoleOptions, renderConsole, summaryLine } from './console-reporter.ts';
import { renderHtml } from './html-reporter.ts';
import { renderJson } from './json-reporter.ts';
import { renderJunit } from './junit-reporter.ts';
import { renderMarkdown } from './markdown-reporter.ts';

/** Where a report goes: the console, or one of four formats in a file or (`-`) on stdout. */
export type ReporterSpec =
  | { readonly kind: 'console' }
  | { readonly kind: 'json' | 'junit' | 'html' | 'markdown'; readonly path: string };

/** The path that means "stdout": `--reporter json:-`. */
export const STDOUT = '-';

const FILE_KINDS = ['json', 'junit', 'html', 'markdown'] as const;
const RENDER = { json: renderJson, junit: renderJunit, html: renderHtml, markdown: renderMarkdown } as const;

/** Fail now, before a run, when a report could not be written afterwards (missing folders are made). */
function assertWritable(kind: string, file: string): void {
  const resolved = path.resolve(file);
  try {
    if (existsSync(resolved) && statSync(resolved).isDirectory())
      throw new Error('it is a directory, not a file');
    mkdirSync(path.dirname(resolved), { recursive: true });
    accessSync(existsSync(resolved) ? resolved : path.dirname(resolved), constants.W_OK);
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    throw new ConfigError(`pacu: cannot write the ${kind} report to ${file}: ${reason}`, { cause });
  }
}

/**
 * Parse `--reporter` values: `console`, `json:PATH`, `junit:PATH`, `html:PATH`, `markdown:PATH`, where
 * PATH `-` is stdout. Checks up front that every file can be written and that at most one report
 * takes stdout (the console report counts), so a bad path never costs a whole run.
 */
export function parseReporterSpecs(values: string[]): ReporterSpec[] {
  const specs = values.map((value): ReporterSpec => {
    if (value === 'console') return { kind: 'console' };
    const colon = value.indexOf(':');
    const kind = colon > 0 ? value.slice(0, colon) : value;
    const file = colon > 0 ? value.slice(colon + 1) : '';
    const known = FILE_KINDS.find((candidate) => candidate === kind);
    if (!known) {
      throw new ConfigError(
        `pacu: unknown reporter "${value}" (use console, json:PATH, junit:PATH, html:PATH or markdown:PATH; PATH - is stdout)`,
      );
    }
    if (!file) throw new ConfigError(`pacu: reporter ${kind} needs a file: --reporter ${kind}:PATH`);
    if (file !== STDOUT) assertWritable(kind, file);
    return { kind: known, path: file };
  });
  if (specs.filter(writesToStdout).length > 1)
    throw new ConfigError('pacu: only one reporter can write to stdout (console or one KIND:-)');
  return specs;
}

/** Whether `spec` prints on stdout, so nothing else may (a `json:-` stream must stay parseable). */
function writesToStdout(spec: ReporterSpec): boolean {
  return spec.kind === 'console' || spec.path === STDOUT;
}

/**
 * Write a report everywhere the specs say. When every report goes to a file, the terminal still
 * gets the verdict: the console's summary line (not with --quiet).
 */
export async function writeReports(
  report: Report,
  specs: ReporterSpec[],
  io: CliIo,
  console: ConsoleOptions = {},
): Promise<void> {
  for (const spec of specs) {
    if (spec.kind === 'console') {
      io.stdout(renderConsole(report, console));
      continue;
    }
    if (spec.path === STDOUT) {
      io.stdout(RENDER[spec.kind](report));
      continue;
    }
    try {
      await writeFile(spec.path, RENDER[spec.kind](report), 'utf8');
    } catch (cause) {
      throw new ConfigError(
        `pacu: cannot write the ${spec.kind} report to ${spec.path}: ${(cause as Error).message}`,
        { cause },
      );
    }
  }
  if (!console.quiet && !specs.some(writesToStdout)) io.stdout(`${summaryLine(report, console)}\n`);
}
