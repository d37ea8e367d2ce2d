import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
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

const ERRNO_WORDS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'a read-only file system',
  ENOSPC: 'no space left',
};
const said = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return ERRNO_WORDS[code] ? `${ERRNO_WORDS[code]} (${code})` : code || (error as Error).message;
};

/**
 * Why a report could not be written to `file` after the run, or undefined. Missing folders are made
 * one at a time (a recursive mkdir never returns on some special file systems, such as /proc), and a
 * probe file shows the folder really takes files (root passes `access` checks that writes then fail).
 */
function reportPathProblem(file: string): string | undefined {
  const resolved = path.resolve(file);
  if (existsSync(resolved)) {
    if (statSync(resolved).isDirectory()) return 'it is a directory, not a file';
    // A write of no bytes changes nothing, and fails where a report's write would (EIO on /proc).
    let fd: number | undefined;
    try {
      fd = openSync(resolved, 'r+');
      writeSync(fd, Buffer.alloc(0));
      return undefined;
    } catch (error) {
      return fd === undefined ? said(error) : `it takes no writes: ${said(error)}`;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  const missing: string[] = [];
  let folder = path.dirname(resolved);
  // The same folder as the user spelled it, for the message.
  let spelled = path.dirname(file);
  while (!existsSync(folder)) {
    missing.unshift(folder);
    folder = path.dirname(folder);
    spelled = path.dirname(spelled);
  }
  if (!statSync(folder).isDirectory()) return `${spelled} is not a directory`;
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      return `cannot make the folder ${dir}: ${said(error)}`;
    }
  }
  const probe = path.join(path.dirname(resolved), `.pacu-write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
    return undefined;
  } catch (error) {
    return `the folder ${path.dirname(resolved)} takes no files: ${said(error)}`;
  }
}

/** Fail now, before a run, when a report could not be written afterwards (missing folders are made). */
function assertWritable(kind: string, file: string): void {
  const problem = reportPathProblem(file);
  if (problem) throw new ConfigError(`pacu: cannot write the ${kind} report to ${file}: ${problem}`);
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
      io.stdout(RENDER[spec.kind](report, console));
      continue;
    }
    try {
      await writeFile(spec.path, RENDER[spec.kind](report, console), 'utf8');
    } catch (cause) {
      throw new ConfigError(
        `pacu: cannot write the ${spec.kind} report to ${spec.path}: ${(cause as Error).message}`,
        { cause },
      );
    }
  }
  if (!console.quiet && !specs.some(writesToStdout)) io.stdout(`${summaryLine(report, console)}\n`);
}
