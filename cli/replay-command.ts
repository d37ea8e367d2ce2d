import type { Command } from 'commander';
import { REPLAY_DEFAULTS, replayRecording } from '../contracts/index.ts';
import { readHar } from '../http/index.ts';
import { ConfigError, type Profile } from '../spec/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { EXIT_FINDINGS, EXIT_OK } from './exit-codes.ts';
import { openTarget, type TargetFlags } from './open-target.ts';
import { collect } from './option-parsers.ts';
import { addOutputOptions, type OutputFlags, resolveOutput } from './output-options.ts';
import { profileOption } from './profile-option.ts';
import { parseReporterSpecs, writeReports } from './reporters/write-reports.ts';
import { addTargetOptions } from './target-options.ts';

interface ReplayCommandOptions extends TargetFlags, OutputFlags {
  sameReferences?: boolean;
  profile: Profile;
  reporter?: string[];
}

/** `pacu replay FILE.har --target URL`: send a recording again and report how the answers drifted. */
export function registerReplayCommand(program: Command, io: CliIo, outcome: CommandOutcome): void {
  addOutputOptions(addTargetOptions(program.command('replay')))
    .argument('<recording>', 'a HAR recording (pacu proxy --record)')
    .description(
      'send the requests of a recording to a target again (fresh tokens, fresh references) and report drift: status, documented shape, echoed fields, the replayed reference',
    )
    .option('--same-references', 'send the recorded references as they are (the target knows them)')
    .addOption(profileOption(REPLAY_DEFAULTS.profile))
    .option(
      '--reporter <spec>',
      'console, json:PATH, junit:PATH, html:PATH, markdown:PATH (repeatable)',
      collect,
    )
    .action(async (file: string, options: ReplayCommandOptions) => {
      const reporters = parseReporterSpecs(options.reporter ?? ['console']);
      const recording = await readHar(file);
      const output = resolveOutput(options, reporters, io);
      const {
        profile,
        sameReferences,
        reporter: _reporter,
        quiet: _q,
        verbose: _v,
        ...targetFlags
      } = options;
      const opened = await openTarget(targetFlags);
      try {
        // A replay against pacu's own seeded mock would only find the recording's ids missing.
        if (opened.mock)
          throw new ConfigError(
            "pacu: replay needs a target: --target URL (or PACU_TARGET, or target in the config file); for pacu's mock of the recording start `pacu mock --from-recording FILE` first",
          );
        const report = await replayRecording({
          recording,
          target: opened.target,
          profile,
          sameReferences: sameReferences ?? REPLAY_DEFAULTS.sameReferences,
          source: file,
        });
        await writeReports(report, reporters, io, output.console);
        outcome.exitCode = report.summary.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
      } finally {
        await opened.close();
      }
    });
}
