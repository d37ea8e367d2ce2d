// The README's code blocks, by fence language, as the package test runs them. A block opts out with
// the line `<!-- not run: WHY -->` right above its fence: visible in the source, and rare.

export interface ReadmeBlock {
  /** The fence's language: `js`, `ts`, `sh`… */
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the opening fence, to name the block in a failure. */
  readonly line: number;
  /** Why the block is not run, when it opted out. */
  readonly notRun?: string;
}

const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
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
      lang: open[1] ?? '',
      code: body.join('\n'),
      line: start + 1,
      ...(notRun ? { notRun } : {}),
    });
  }
  return blocks;
}

/** One `pacu` call of a shell block: its words after `npx pacu-kit`, and the README line it is on. */
export interface PacuCall {
  readonly args: string[];
  readonly text: string;
  readonly line: number;
}

/** Split a shell line into words, keeping quoted strings whole (no expansion: nothing here needs it). */
function words(text: string): string[] {
  return [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

/** Every `npx pacu-kit …` command of a shell block, continuation lines joined, comments dropped. */
export function pacuCalls(block: ReadmeBlock): PacuCall[] {
  const calls: PacuCall[] = [];
  const lines = block.code.split('\n');
  for (let index = 0; index < lines.length; index++) {
    let text = (lines[index] ?? '').replace(/\s+#.*$/, '').trim();
    const line = block.line + 1 + index;
    while (text.endsWith('\\') && index + 1 < lines.length)
      text = `${text.slice(0, -1).trim()} ${(lines[++index] ?? '').replace(/\s+#.*$/, '').trim()}`;
    const at = text.indexOf('npx pacu-kit');
    if (at < 0) continue;
    const command = text.slice(at);
    calls.push({ args: words(command).slice(2), text: command, line });
  }
  return calls;
}

/**
 * Whether a call can run here as written: it names no server of its own (a sandbox, a broker, a
 * receiver), no variable, no elided value (`whsec_…`) and no file the user brings (a `.har`
 * recording, a pact file, the OLD/NEW descriptions or a git ref of `pacu diff`). The others are
 * checked against the command's `--help`: every flag they use must be one the command takes.
 */
export function runsHere(call: PacuCall): boolean {
  // `webhooks check` always judges a receiver of the user's own.
  if (call.args[0] === 'webhooks') return false;
  if (/\.har\b|--pact \S+\.json|\bOLD\b|--base\b|docs\/examples\//.test(call.text)) return false;
  return !/https?:\/\/(?!127\.0\.0\.1:4010)|\$|…|\bURL\b/.test(call.text);
}
