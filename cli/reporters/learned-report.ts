import { writeFile } from 'node:fs/promises';
import type { LearnedChoice, LearnedReport } from '../../mock/index.ts';
import { ConfigError } from '../../spec/index.ts';

const learnedOnes = (report: LearnedReport, prefix: string): LearnedChoice[] =>
  report.choices.filter((choice) => choice.from === 'recording' && choice.choice.startsWith(prefix));

const shownOf = (report: LearnedReport, name: string): string | undefined =>
  report.choices.find((choice) => choice.choice === name)?.shown;

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The refusals learned, `kind status` each, per operation where it is that operation's alone. */
function refusals(report: LearnedReport): string {
  return learnedOnes(report, 'refusal.')
    .map((choice) => {
      const name = choice.choice.slice('refusal.'.length);
      return `${name} ${(choice.value as { status: number }).status}`;
    })
    .join(', ');
}

/** Record kinds and what the sandbox does beyond pacu's shape: `+field` made, `-field` left out. */
function records(report: LearnedReport): string {
  const byOperation = new Map<string, string[]>();
  for (const choice of learnedOnes(report, 'record.')) {
    const [, operation = '', field] = choice.choice.split('.');
    if (!field) continue;
    const mark = choice.shown.startsWith('left out') ? `-${field}` : `+${field}`;
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), mark]);
  }
  return [...byOperation].map(([operation, fields]) => `${operation} ${fields.join(' ')}`).join('; ');
}

/** What the sandbox let be that pacu refuses. */
function leniency(report: LearnedReport): string {
  const parts = [
    ...learnedOnes(report, 'bearer.').map((choice) => `${choice.choice.slice(7)} without a token`),
    ...learnedOnes(report, 'scope.').map((choice) => `${choice.choice.slice(6)} with any scope`),
    ...learnedOnes(report, 'request.contentType').map(() => 'JSON under any Content-Type'),
    ...learnedOnes(report, 'required.').map((choice) => {
      const [, operation, field] = choice.choice.split('.');
      return `${operation} without ${field}`;
    }),
    ...learnedOnes(report, 'reusedReference').map(
      () => 'a reused reference answered with its original record',
    ),
  ];
  return parts.join('; ');
}

/**
 * A few lines that say what a mock made from a recording learned, for `pacu mock --from-recording`
 * to print as it starts (the whole list is `--learned FILE`).
 */
export function learnedSummary(report: LearnedReport): string[] {
  const learned = report.choices.filter((choice) => choice.from === 'recording').length;
  const kept = report.choices.length - learned;
  const headers = learnedOnes(report, 'header.').map((choice) => choice.choice.slice('header.'.length));
  const ids = learnedOnes(report, 'id.').map((choice) => `${choice.choice.slice(3)} ${choice.shown}`);
  const lines: Array<[string, string]> = [
    [
      'served under',
      `${shownOf(report, 'basePath')} (${shownOf(report, 'contentType')}${headers.length > 0 ? `; headers ${headers.join(', ')}` : ''})`,
    ],
    ['tokens', `${shownOf(report, 'token.lifetime')}, ${shownOf(report, 'token.type')}`],
    [
      'forms',
      [
        ids.length > 0 ? `ids ${ids.join(', ')}` : undefined,
        `timestamps ${shownOf(report, 'timestamps')}`,
        `amounts ${shownOf(report, 'money')}`,
      ]
        .filter(Boolean)
        .join('; '),
    ],
    ['records', records(report)],
    ['refusals', refusals(report)],
    ['let be', leniency(report)],
    ['paging', shownOf(report, 'paging') ?? ''],
  ];
  const problems = [
    report.unlearned.length > 0 ? `${plural(report.unlearned.length, 'remark')} on what was not learned` : '',
    report.contradictions.length > 0
      ? `${plural(report.contradictions.length, 'answer')} contradicting the description (not learned)`
      : '',
  ].filter(Boolean);
  return [
    `Learned from ${report.recording} (${plural(report.exchanges, 'exchange')}): ${learned} choices from the recording, ${kept} left at pacu's default`,
    ...lines.filter(([, text]) => text !== '').map(([label, text]) => `  ${label.padEnd(13)} ${text}`),
    ...(problems.length > 0 ? [`  ${'see --learned'.padEnd(13)} ${problems.join('; ')}`] : []),
  ];
}

/** How many choices were learned and kept, and how many remarks: for `pacu mock --json`. */
export function learnedCounts(report: LearnedReport): Record<string, number> {
  const fromRecording = report.choices.filter((choice) => choice.from === 'recording').length;
  return {
    fromRecording,
    defaults: report.choices.length - fromRecording,
    contradictions: report.contradictions.length,
    unlearned: report.unlearned.length,
  };
}

/** `1-13, 15-27`: runs of consecutive exchange numbers. */
function ranges(entries: readonly number[]): string {
  const runs: string[] = [];
  for (let index = 0; index < entries.length; ) {
    let end = index;
    while (end + 1 < entries.length && (entries[end + 1] as number) === (entries[end] as number) + 1) end++;
    runs.push(
      end - index >= 2 ? `${entries[index]}-${entries[end]}` : entries.slice(index, end + 1).join(', '),
    );
    index = end + 1;
  }
  return runs.join(', ');
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The learned report as Markdown: each choice with its value and the exchanges it came from. */
export function learnedMarkdown(report: LearnedReport): string {
  const table = (choices: readonly LearnedChoice[], withEntries: boolean): string[] => [
    withEntries ? '| choice | about | value | from exchanges |' : '| choice | about | value |',
    withEntries ? '|---|---|---|---|' : '|---|---|---|',
    ...choices.map((choice) =>
      withEntries
        ? `| \`${choice.choice}\` | ${cell(choice.about)} | ${cell(choice.shown)} | ${ranges(choice.entries)} |`
        : `| \`${choice.choice}\` | ${cell(choice.about)} | ${cell(choice.shown)} |`,
    ),
  ];
  const notes = (title: string, list: LearnedReport['unlearned']): string[] =>
    list.length === 0
      ? []
      : ['', `## ${title}`, '', ...list.map((note) => `- exchange ${ranges(note.entries)}: ${note.what}`)];
  return [
    `# What pacu's mock learned from ${report.recording}`,
    '',
    `${plural(report.exchanges, 'recorded exchange')}, numbered from 1 in recorded order.`,
    '',
    '## Learned from the recording',
    '',
    ...table(
      report.choices.filter((choice) => choice.from === 'recording'),
      true,
    ),
    '',
    "## Left at pacu's default (the recording shows nothing of them)",
    '',
    ...table(
      report.choices.filter((choice) => choice.from === 'default'),
      false,
    ),
    ...notes('Contradicts the description (reported, not learned)', report.contradictions),
    ...notes('Not learned', report.unlearned),
    '',
  ].join('\n');
}

/** Write the learned report: Markdown for a `.md` file, else JSON. */
export async function writeLearnedReport(file: string, report: LearnedReport): Promise<void> {
  const text = file.endsWith('.md') ? learnedMarkdown(report) : `${JSON.stringify(report, null, 2)}\n`;
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new ConfigError(`pacu: cannot write --learned ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
