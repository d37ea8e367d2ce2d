import type { Command, Option } from 'commander';
import type { CliIo } from '../../cli/cli-io.ts';
import { createProgram } from '../../cli/program.ts';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** Every command of the tree under `command`, itself first, with its full name (`webhooks check`). */
function walk(command: Command, prefix: string[] = []): Array<{ name: string; command: Command }> {
  const name = [...prefix, command.name()];
  return [
    { name: name.join(' '), command },
    ...command.commands.filter((sub) => sub.name() !== 'help').flatMap((sub) => walk(sub, name)),
  ];
}

function defaultOf(option: Option): string {
  const value = option.defaultValue as unknown;
  if (value === undefined || value === false) return '';
  if (Array.isArray(value) && value.length === 0) return '';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

function optionRow(option: Option): string {
  const notes = [
    option.mandatory ? 'required' : '',
    option.argChoices ? `one of ${option.argChoices.map((choice) => `\`${choice}\``).join(', ')}` : '',
    option.envVar ? `env \`${option.envVar}\`` : '',
  ].filter(Boolean);
  return `| \`${cell(option.flags)}\` | ${cell(option.description)} | ${defaultOf(option)} | ${notes.join('; ')} |`;
}

function renderCommand(name: string, command: Command): string[] {
  const options = command.options.filter((option) => !option.hidden);
  const lines = [
    `## pacu ${name}`,
    '',
    cell(command.description()),
    '',
    '```text',
    `pacu ${name} ${command.usage()}`.trim(),
    '```',
  ];
  const operands = command.registeredArguments;
  if (operands.length > 0) {
    lines.push('', '| argument | description |', '|---|---|');
    for (const operand of operands)
      lines.push(`| \`${operand.name()}${operand.variadic ? '…' : ''}\` | ${cell(operand.description)} |`);
  }
  if (options.length > 0) {
    lines.push('', '| flag | what it does | default | notes |', '|---|---|---|---|');
    for (const option of options) lines.push(optionRow(option));
  }
  const subcommands = command.commands.filter((sub) => sub.name() !== 'help');
  if (subcommands.length > 0)
    lines.push(
      '',
      `Subcommands: ${subcommands.map((sub) => `[\`${name} ${sub.name()}\`](#pacu-${name}-${sub.name()})`).join(', ')}.`,
    );
  return lines;
}

/** docs/reference/commands.md: every command and flag, read from the commander definitions. */
export async function renderCommands(): Promise<string> {
  const quiet: CliIo = { stdout: () => {}, stderr: () => {} };
  const outcome = { exitCode: 0 };
  const names = (await createProgram(quiet, outcome)).commands.map((command) => command.name());
  const lines = [
    '# Commands and flags',
    '',
    '<!-- Generated from the commander definitions (cli/program.ts, cli/*-command.ts) by `npm run generate`. Do not edit. -->',
    '',
    'Every `pacu` command with every flag it takes, as `pacu <command> --help` prints them. Exit codes: 0 pass, 1 findings',
    '(a rule, an interaction or a change at or above the gate failed), 2 a usage error (one line on stderr), 3 a replay that',
    'does not reproduce (`--replay`).',
    '',
    names.map((name) => `[\`${name}\`](#pacu-${name})`).join(' · '),
  ];
  for (const top of names) {
    // Each command is registered in full only when it is the one selected (cli/program.ts).
    const program = await createProgram(quiet, outcome, [top]);
    const command = program.commands.find((candidate) => candidate.name() === top);
    if (!command) throw new Error(`cli/program.ts lists no command ${top}`);
    for (const { name, command: each } of walk(command)) lines.push('', ...renderCommand(name, each));
  }
  return `${lines.join('\n')}\n`;
}
