import { type Command, InvalidArgumentError } from 'commander';

/** What `--redact-header` and `--redact-field` gave: a team's own names of credentials; and `--keep-card-data`. */
export interface RedactionNames {
  readonly redactHeader?: string[];
  readonly redactField?: string[];
  readonly keepCardData?: boolean;
}

/** A header or field name: one token, no spaces or separators (a usage error names the flag). */
function nameOf(flag: string): (value: string, previous?: string[]) => string[] {
  return (value, previous = []) => {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(value))
      throw new InvalidArgumentError(
        `${flag} takes one header or field name, e.g. ${flag} x-team-key, not "${value}"`,
      );
    return [...previous, value];
  };
}

/**
 * `--redact-header NAME` and `--redact-field NAME` (repeatable), on every command that writes what
 * it saw (reports, recordings, the control API): names whose values are credentials, beside those
 * the redactor knows (Authorization, Cookie, names that say secret, password, token or key).
 */
export function addRedactionOptions(command: Command): Command {
  return command
    .option(
      '--redact-header <name>',
      'a header whose value is a credential, beside those pacu knows (repeatable)',
      nameOf('--redact-header'),
    )
    .option(
      '--redact-field <name>',
      'a JSON or form field whose value is a credential, beside those pacu knows (repeatable)',
      nameOf('--redact-field'),
    );
}

/**
 * `--keep-card-data`, on the commands that record traffic (`pacu mock`, `proxy`, `record`): card
 * numbers and CVVs are shown as they came, for a team whose test cards must stay readable. By
 * default a CVV is removed and a card number masked to its first six and last four digits.
 */
export function addCardDataOption(command: Command): Command {
  return command.option(
    '--keep-card-data',
    'keep card numbers and CVVs in clear in the recording, reports and control API (default: CVV removed, card number masked to its first six and last four digits)',
  );
}

/** The names as the libraries take them (`redactHeaders`, `redactFields`), and `keepCardData` when given. */
export const redactionOf = (
  options: RedactionNames,
): { redactHeaders: string[]; redactFields: string[]; keepCardData?: boolean } => ({
  redactHeaders: options.redactHeader ?? [],
  redactFields: options.redactField ?? [],
  ...(options.keepCardData ? { keepCardData: true } : {}),
});
