// The code blocks of the README and the guides, by fence language, as the package test runs them. A
// block opts out with the line `<!-- not run: WHY -->` right above its fence: visible, and rare.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export interface ReadmeBlock {
  /** The file it is in, relative to the repository root (README.md, docs/guides/…). */
  readonly file: string;
  /** The fence's language: `js`, `ts`, `sh`… */
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the opening fence, to name the block in a failure. */
  readonly line: number;
  /** Why the block is not run, when it opted out. */
  readonly notRun?: string;
}

const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

export function readmeBlocks(markdown: string, file = 'README.md'): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\w+)\s*$/.exec(lines[index] ?? '');
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index] ?? ''); index++)
      body.push(lines[index] ?? '');
    const notRun = NOT_RUN.exec((lines[start - 1] ?? '').trim())?.[1];
    blocks.push({
      file,
      lang: open[1] ?? '',
      code: body.join('\n'),
      line: start + 1,
      ...(notRun ? { notRun } : {}),
    });
  }
  return blocks;
}

/** The files users copy examples from: the README and every guide, relative to `root`. */
export function documentedFiles(root: string): string[] {
  const guides = readdirSync(path.join(root, 'docs/guides'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/guides/${name}`);
  return ['README.md', ...guides];
}

/** Every block of the README and the guides. */
export function documentedBlocks(root: string): ReadmeBlock[] {
  return documentedFiles(root).flatMap((file) =>
    readmeBlocks(readFileSync(path.join(root, file), 'utf8'), file),
  );
}

/** `file:line`, the way a failure names a block or a line. */
export const where = (file: string, line: number): string => `${file}:${line}`;

/** One `pacu` call of a shell block: its words after `npx pacu-kit` (or `pacu`), and its line. */
export interface PacuCall {
  readonly file: string;
  readonly args: string[];
  /** The command as run: `npx pacu-kit …`, without a trailing `&` or redirections. */
  readonly text: string;
  readonly line: number;
}

/** Split a shell line into words, keeping quoted strings whole (no expansion: nothing here needs it). */
function words(text: string): string[] {
  return [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

/** `npx pacu-kit …`, or `pacu …` as an installed devDependency runs it, after any `VAR=value`. */
const CALL = /(?:^|[;&|(]\s*|^(?:[A-Z_]+=\S*\s+)+)(?:npx pacu-kit|pacu)(?=\s|$)/;

/** Every `run:` of a YAML block (a GitHub Actions step list), its folded lines joined. */
function runsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(runsOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'run' && typeof inner === 'string' ? [inner.replace(/\s*\n\s*/g, ' ')] : runsOf(inner),
  );
}

/**
 * Every pacu command of a shell block, or of the `run:` steps of a YAML block, continuation lines
 * joined, comments and job control dropped.
 */
export function pacuCalls(block: ReadmeBlock): PacuCall[] {
  const calls: PacuCall[] = [];
  const lines = block.lang === 'yaml' ? runsOf(parse(block.code)) : block.code.split('\n');
  for (let index = 0; index < lines.length; index++) {
    let text = (lines[index] ?? '').replace(/\s+#.*$/, '').trim();
    // A YAML block's steps are named by the block's line.
    const line = block.lang === 'yaml' ? block.line : block.line + 1 + index;
    while (text.endsWith('\\') && index + 1 < lines.length)
      text = `${text.slice(0, -1).trim()} ${(lines[++index] ?? '').replace(/\s+#.*$/, '').trim()}`;
    const found = CALL.exec(text);
    if (!found) continue;
    const command = text
      .slice(found.index + found[0].length)
      .replace(/\s+\d?>&?\s*\S+/g, '')
      .replace(/\s*&\s*$/, '')
      .trim();
    const args = words(command);
    calls.push({ file: block.file, args, text: `npx pacu-kit ${command}`.trim(), line });
  }
  return calls;
}

/**
 * Whether a call can run here as written: it names no server of its own, no variable, no elided
 * value (`whsec_…`) and no file the user brings (a recording but the test's `sandbox.har`, a pact
 * file, OLD/NEW or a git ref of `pacu diff`). Every call's flags are checked against its `--help`.
 */
export function runsHere(call: PacuCall): boolean {
  // `webhooks check` always judges a receiver of the user's own; a proxy stands before an upstream.
  if (call.args[0] === 'webhooks' || call.args[0] === 'proxy') return false;
  const har = call.text.match(/\S+\.har\b/g) ?? [];
  if (har.some((file) => file !== 'sandbox.har' && !call.text.includes(`--record ${file}`))) return false;
  if (call.args[0] === 'replay' || call.args[0] === 'record') return false;
  if (/--pact \S+\.json|\bOLD\b|--base\b|docs\/examples\//.test(call.text)) return false;
  return !/https?:\/\/(?!127\.0\.0\.1:4010)|\$|…|\bURL\b/.test(call.text);
}
