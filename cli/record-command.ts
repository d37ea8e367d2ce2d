import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { runTeachingSession, TEACHING_DEFAULTS, type TeachingOutcome } from '../contracts/index.ts';
import { createRedactor, readHar } from '../http/index.ts';
import { createMock } from '../mock/index.ts';
import { startProxy } from '../proxy/index.ts';
import { ConfigError } from '../spec/index.ts';
import { assertTargetReachable } from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_OK } from './exit-codes.ts';
import { openTarget, type TargetFlags } from './open-target.ts';
import { duration, wholeNumber } from './option-parsers.ts';
import { addCardDataOption } from './redaction-options.ts';
import { learnedSummary, writeLearnedReport } from './reporters/learned-report.ts';
import { addTargetOptions } from './target-options.ts';

/**
 * The values of `--header` (a sandbox's API key) out of the recording, by the one redactor: the
 * proxy is told the client's secret only. Written beside and renamed over, so the file is whole.
 */
async function redactHeaders(
  file: string,
  headers: Readonly<Record<string, string>>,
  keepCardData: boolean,
): Promise<void> {
  const redactor = createRedactor({ others: Object.values(headers), keepCardData });
  const redacted = redactor.redact(await readHar(file));
  await writeFile(`${file}.tmp`, JSON.stringify(redacted), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

interface RecordCommandOptions extends TargetFlags {
  out: string;
  learned?: string;
  keepCardData?: boolean;
  budget?: number;
  follow?: number;
}

/** The longest `--follow`: an hour of reading a sandbox is a soak test, not a teaching session. */
const MAX_FOLLOW_MS = 3_600_000;

/** What the session left out, and what following showed, in a line each. */
function outcomeLines(outcome: TeachingOutcome): string[] {
  const lines: string[] = [];
  if (outcome.skipped.length > 0)
    lines.push(
      `  budget ${outcome.budget} requests: left out ${outcome.skipped.join('; ')} (a larger --budget explores them)`,
    );
  if (outcome.follow)
    lines.push(
      `  followed ${outcome.follow.followed} transfers for up to ${Math.round(outcome.follow.ms / 1000)} s: ${outcome.follow.finished} reached a final status`,
    );
  return lines;
}

/**
 * `pacu record --target URL --out FILE.har`: send the teaching session through `pacu proxy` to a
 * sandbox and keep the recording, for a team that has no client yet; then say what a mock made
 * from it learns.
 */
export function registerRecordCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  addCardDataOption(addTargetOptions(program.command('record')))
    .description(
      'send the few requests that show a sandbox its choices through pacu proxy, record them, and say what pacu mock --from-recording learns from them',
    )
    .requiredOption('--out <file.har>', 'where to write the recording (HAR 1.2, credentials redacted)')
    .option('--learned <file>', 'also write every choice the mock learns, with its exchanges (.json, or .md)')
    .option(
      '--budget <n>',
      `requests the session may send at most (default ${TEACHING_DEFAULTS.budget}, ${TEACHING_DEFAULTS.budgetWithFollow} with --follow)`,
      wholeNumber('--budget', 10, 10_000),
    )
    .option(
      '--follow <time>',
      'read each transfer made again until its status is final or the time is over (e.g. 5m): the mock then replays the lifecycle timings seen',
      duration('--follow', MAX_FOLLOW_MS),
    )
    .action(async (options: RecordCommandOptions) => {
      const { out, learned: learnedFile, keepCardData = false, budget, follow, ...flags } = options;
      if (existsSync(out))
        throw new ConfigError(
          `pacu: --out ${out} exists; a recording is never overwritten: give another file`,
        );
      const opened = await openTarget(flags);
      try {
        if (opened.mock)
          throw new ConfigError(
            'pacu: record needs the sandbox to learn: --target URL (or PACU_TARGET, or target in the config file)',
          );
        const { target } = opened;
        if (!target.clientId || !target.clientSecret)
          throw new ConfigError(
            'pacu: record gets tokens with client credentials: give --client-id and --client-secret (or PACU_CLIENT_ID and PACU_CLIENT_SECRET)',
          );
        await assertTargetReachable({
          baseUrl: target.baseUrl,
          ...(target.timeoutMs !== undefined ? { timeoutMs: target.timeoutMs } : {}),
          ...(target.headers ? { headers: target.headers } : {}),
        });
        const proxy = await startProxy({
          upstream: target.baseUrl,
          record: out,
          keepCardData,
          clientId: target.clientId,
          clientSecret: target.clientSecret,
          control: false,
          log: (line) => io.stderr(`${line}\n`),
        });
        let taught: TeachingOutcome;
        try {
          taught = await runTeachingSession({
            ...(budget !== undefined ? { budget } : {}),
            ...(follow !== undefined ? { followMs: follow } : {}),
            baseUrl: proxy.url,
            clientId: target.clientId,
            clientSecret: target.clientSecret,
            ids: target.ids,
            ...(target.headers ? { headers: target.headers } : {}),
            ...(target.timeoutMs !== undefined ? { timeoutMs: target.timeoutMs } : {}),
          });
        } finally {
          await proxy.close();
        }
        if (target.headers && Object.keys(target.headers).length > 0)
          await redactHeaders(out, target.headers, keepCardData);
        const { steps } = taught;
        io.stdout(`pacu record: ${steps.length} exchanges with ${target.baseUrl}, recorded in ${out}\n`);
        for (const step of steps)
          io.stdout(
            `  ${String(step.status).padEnd(4)}${`${step.method} ${step.path}`.padEnd(48)} ${step.teaches}\n`,
          );
        for (const line of outcomeLines(taught)) io.stdout(`${line}\n`);
        const mock = await createMock({ fromRecording: out, log: () => {} });
        try {
          if (mock.learned) {
            for (const line of learnedSummary(mock.learned)) io.stdout(`${line}\n`);
            if (learnedFile) await writeLearnedReport(learnedFile, mock.learned);
          }
        } finally {
          await mock.close();
        }
        io.stdout(
          `Next: pacu mock --from-recording ${out}${learnedFile ? ` (all it learned: ${learnedFile})` : ''}\n`,
        );
        outcome.exitCode = EXIT_OK;
      } finally {
        await opened.close();
      }
    });
}
