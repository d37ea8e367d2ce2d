import { writeFile } from 'node:fs/promises';
import type { LearnedChoice, LearnedReport } from '../../mock/index.ts';
import { ConfigError } from '../../spec/index.ts';

/** Choices the recording taught whose name starts with `prefix`. */
const learnedOnes = (report: LearnedReport, prefix: string): LearnedChoice[] =>
  report.choices.filter((choice) => choice.from === 'recording' && choice.choice.startsWith(prefix));

const shownOf = (report: LearnedReport, name: string): string | undefined =>
  report.choices.find((choice) => choice.choice === name)?.shown;

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The refusals learned, `kind status` each; an operation's own (`usdTransfer.invalid-request 400`)
 * only where no status holds for its kind everywhere, or the operation's differs.
 */
function refusals(report: LearnedReport): string {
  const status = (choice: LearnedChoice) => (choice.value as { status?: number }).status;
  const learned = learnedOnes(report, 'refusal.');
  const anywhere = new Map(
    learned
      .filter((choice) => choice.choice.split('.').length === 2)
      .map((choice) => [choice.choice.slice(8), status(choice)]),
  );
  const shown = new Set<string>();
  for (const choice of learned) {
    const [, first = '', kind] = choice.choice.split('.');
    const name = kind === undefined ? first : `${first}.${kind}`;
    if (kind !== undefined && anywhere.get(kind) === status(choice)) continue;
    shown.add(`${name} ${status(choice) ?? ''}`.trim());
  }
  return [...shown].join(', ');
}

/** Record kinds and what the sandbox does beyond pacu's shape: `+field` made, `-field` left out. */
function records(report: LearnedReport): string {
  const byOperation = new Map<string, string[]>();
  for (const choice of learnedOnes(report, 'record.')) {
    // `record.usdTransfer.ACH.fee`: the kind is all but the first and last parts.
    const parts = choice.choice.split('.');
    const field = parts.length > 2 ? parts.at(-1) : undefined;
    const operation = parts.slice(1, -1).join('.');
    if (!field) continue;
    const mark = choice.shown.startsWith('left out') ? `-${field}` : `+${field}`;
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), mark]);
  }
  return [...byOperation].map(([operation, fields]) => `${operation} ${fields.join(' ')}`).join('; ');
}

/** An amount range in a few words: `WIRE refused ≤ 0.99`, `ACH refused ≥ 100000.01`. */
function rangeWords(choice: LearnedChoice): string {
  const type = choice.choice.split(':').at(-1) ?? '';
  const range = choice.value as { refusedAtOrBelow?: number; refusedFrom?: number };
  const sides = [
    range.refusedAtOrBelow !== undefined ? `refused ≤ ${range.refusedAtOrBelow.toFixed(2)}` : undefined,
    range.refusedFrom !== undefined ? `refused ≥ ${range.refusedFrom.toFixed(2)}` : undefined,
  ].filter(Boolean);
  return `${type} ${sides.length > 0 ? sides.join(' and ') : 'no bound seen'}`;
}

/** What the teaching session explored: amount bounds per payment type, paging limits, path variants. */
function limits(report: LearnedReport): string {
  const parts = [
    ...learnedOnes(report, 'bounds.').map(rangeWords),
    ...learnedOnes(report, 'paging.limits').map(
      (choice) => `users ${choice.shown.replace(/; refused beyond$/, '')}`,
    ),
    ...learnedOnes(report, 'paths.')
      .filter((choice) => choice.value === true)
      .map((choice) => `${choice.about} served`),
  ];
  return parts.join('; ');
}

/** The scopes each operation needs, where single-scope tokens showed them. */
function scopes(report: LearnedReport): string {
  return learnedOnes(report, 'scopes.')
    .map((choice) => `${choice.choice.slice('scopes.'.length)} ${choice.shown}`)
    .join(', ');
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
    ['scopes', scopes(report)],
    ['paging', shownOf(report, 'paging') ?? ''],
    ['limits', limits(report)],
    [
      'time',
      learnedOnes(report, 'lifecycle.').length > 0
        ? learnedOnes(report, 'lifecycle.')
            .map((choice) => `${choice.choice.split('.').at(-1)} ${choice.shown}`)
            .join('; ')
        : "pacu's scenario (not followed: pacu record --follow 5m)",
    ],
  ];
  const problems = [
    report.unlearned.length > 0 ? `${plural(report.unlearned.length, 'remark')} on what was not learned` : '',
    report.contradictions.length > 0
      ? `${plural(report.contradictions.length, 'answer')} contradicting the description (not learned)`
      : '',
  ].filter(Boolean);
  return [
    `Learned from ${report.recording} (${plural(report.exchanges, 'exchange')}): ${learned} choices from the recording, ${kept} left free (pacu's default)`,
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
  const table = (choices: readonly LearnedChoice[]): string[] => [
    '| choice | about | value | from exchanges |',
    '|---|---|---|---|',
    ...choices.map(
      (choice) =>
        `| \`${choice.choice}\` | ${cell(choice.about)} | ${cell(choice.shown)} | ${ranges(choice.entries)} |`,
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
    ...table(report.choices.filter((choice) => choice.from === 'recording')),
    '',
    "## Left free, at pacu's default (the recording shows nothing of them, or too little, or disagrees)",
    '',
    ...table(report.choices.filter((choice) => choice.from === 'default')),
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
