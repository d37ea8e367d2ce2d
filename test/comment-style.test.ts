// Comments say why, in a few lines (STYLE.md); figures live in docs/performance.md and the decision
// records, and an issue's number says nothing to the next reader. Comments are found by the
// TypeScript parser, so a `//` inside a string or a regular expression is not one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommentRange, Node } from 'typescript';
import { describe, expect, it } from 'vitest';
import { ts } from './helpers/typescript.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = [
  'spec',
  'http',
  'mock',
  'suites',
  'contracts',
  'proxy',
  'diff',
  'cli',
  'test',
  'scripts',
  'bench',
];
/** Lines of prose a comment block may have; an `@example` is code, and does not count. */
const MAX_LINES = 4;
/** A benchmark figure (a number in ms, us, % or req/s) or an issue's or finding's number. */
const FIGURE = /\d(?:[\d,.]*\d)?\s?(?:ms|µs|us|req\/s|requests\/s|%)(?![\w-])|\b(?:issue|finding)s? #?\d/i;
/** Files whose long comments are content, not commentary, with why. */
const EXCEPTIONS: Record<string, string> = {
  'test/providers/independent/bank-sandbox.ts':
    "the independent provider's own statement of its choices, each with the silence that allows it",
};

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(relative);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

interface CommentBlock {
  readonly line: number;
  readonly lines: string[];
  readonly ownLine: boolean;
}

/** Every comment of a file, consecutive `//` lines joined into one block. */
function commentBlocks(file: string): CommentBlock[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const ranges = new Map<number, CommentRange>();
  const reached = new Set<number>();
  // Nodes share boundaries: a position's comments are the same whichever node reached it first.
  const collect = (pos: number): void => {
    if (reached.has(pos)) return;
    reached.add(pos);
    for (const range of ts.getLeadingCommentRanges(text, pos) ?? []) ranges.set(range.pos, range);
    for (const range of ts.getTrailingCommentRanges(text, pos) ?? []) ranges.set(range.pos, range);
  };
  const visit = (node: Node): void => {
    collect(node.getFullStart());
    collect(node.getEnd());
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(source.endOfFileToken.getFullStart());
  const blocks: CommentBlock[] = [];
  let lastLine = -2;
  for (const range of [...ranges.values()].sort((a, b) => a.pos - b.pos)) {
    const line = source.getLineAndCharacterOfPosition(range.pos).line;
    const lines = text.slice(range.pos, range.end).split('\n');
    const previous = blocks.at(-1);
    // A `//` line joins the block above it when it starts its line; a trailing comment stands alone.
    const ownLine = /^\s*$/.test(text.slice(text.lastIndexOf('\n', range.pos - 1) + 1, range.pos));
    const joins =
      range.kind === ts.SyntaxKind.SingleLineCommentTrivia &&
      ownLine &&
      previous?.ownLine &&
      line === lastLine + 1;
    if (joins && previous) previous.lines.push(...lines);
    else blocks.push({ line: line + 1, lines, ownLine });
    lastLine = source.getLineAndCharacterOfPosition(range.end).line;
  }
  return blocks;
}

/** The prose of a block: its lines without delimiters, blank lines and `@example` code. */
function prose(block: CommentBlock): string[] {
  let example = false;
  return block.lines
    .map((line) =>
      line
        .trim()
        .replace(/^(?:\/\*\*?|\*\/|\*|\/\/)\s?/, '')
        .replace(/\*\/$/, '')
        .trim(),
    )
    .filter((line) => {
      if (line.startsWith('@')) example = line.startsWith('@example');
      return line !== '' && !example;
    });
}

const files = FOLDERS.flatMap(sources).filter((file) => !(file in EXCEPTIONS));
const parsed = new Map<string, CommentBlock[]>();
/** A file's comment blocks, parsed once for both rules below. */
function blocksOf(file: string): CommentBlock[] {
  const blocks = parsed.get(file) ?? commentBlocks(file);
  parsed.set(file, blocks);
  return blocks;
}

describe(`comments in ${FOLDERS.join(', ')}`, () => {
  it(`are at most ${MAX_LINES} lines of prose a block`, () => {
    const long = files.flatMap((file) =>
      blocksOf(file)
        .filter((block) => prose(block).length > MAX_LINES)
        .map((block) => `${file}:${block.line} (${prose(block).length} lines)`),
    );
    expect(long).toEqual([]);
  });

  it('carry no benchmark figure and no issue number', () => {
    const figures = files.flatMap((file) =>
      blocksOf(file).flatMap((block) =>
        block.lines.flatMap((line, index) =>
          FIGURE.test(line) ? [`${file}:${block.line + index}: ${line.trim()}`] : [],
        ),
      ),
    );
    expect(figures).toEqual([]);
  });

  it('list each exception with its reason, and each is a file that exists', () => {
    for (const [file, reason] of Object.entries(EXCEPTIONS)) {
      expect(readFileSync(path.join(root, file), 'utf8').length, file).toBeGreaterThan(0);
      expect(reason.length, file).toBeGreaterThan(20);
    }
  });
});
