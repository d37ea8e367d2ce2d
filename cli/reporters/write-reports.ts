import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../spec/index.ts';
import type { Report } from '../../suites/index.ts';
import type { CliIo } from '../cli-io.ts';
import { renderConsole } from './console-reporter.ts';
import { renderHtml } from './html-reporter.ts';
import { renderJson } from './json-reporter.ts';
import { renderJunit } from './junit-reporter.ts';
import { renderMarkdown } from './markdown-reporter.ts';

/** Where a report goes: the console, or a file in one of four formats. */
export type ReporterSpec =
  | { readonly kind: 'console' }
  | { readonly kind: 'json' | 'junit' | 'html' | 'markdown'; readonly path: string };

const FILE_KINDS = ['json', 'junit', 'html', 'markdown'] as const;
const RENDER = { json: renderJson, junit: renderJunit, html: renderHtml, markdown: renderMarkdown } as const;

/** Parse `--reporter` values: `console`, `json:PATH`, `junit:PATH`, `html:PATH`, `markdown:PATH`. */
export function parseReporterSpecs(values: string[]): ReporterSpec[] {
  return values.map((value) => {
    if (value === 'console') return { kind: 'console' };
    const colon = value.indexOf(':');
    const kind = colon > 0 ? value.slice(0, colon) : value;
    const file = colon > 0 ? value.slice(colon + 1) : '';
    const known = FILE_KINDS.find((candidate) => candidate === kind);
    if (!known) {
      throw new ConfigError(
        `pacu: unknown reporter "${value}" (use console, json:PATH, junit:PATH, html:PATH or markdown:PATH)`,
      );
    }
    if (!file) throw new ConfigError(`pacu: reporter ${kind} needs a file: --reporter ${kind}:PATH`);
    return { kind: known, path: file };
  });
}

/** Write a report everywhere the specs say; file reporters create missing folders. */
export async function writeReports(report: Report, specs: ReporterSpec[], io: CliIo): Promise<void> {
  for (const spec of specs) {
    if (spec.kind === 'console') {
      io.stdout(renderConsole(report));
      continue;
    }
    try {
      await mkdir(path.dirname(path.resolve(spec.path)), { recursive: true });
      await writeFile(spec.path, RENDER[spec.kind](report), 'utf8');
    } catch (cause) {
      throw new ConfigError(
        `pacu: cannot write the ${spec.kind} report to ${spec.path}: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
  }
}
