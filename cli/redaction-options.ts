import { type Command, InvalidArgumentError } from 'commander';

/** What `--redact-header` and `--redact-field` gave: a team's own names of credentials. */
export interface RedactionNames {
  readonly redactHeader?: string[];
  readonly redactField?: string[];
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

/** The names as the libraries take them (`redactHeaders`, `redactFields`). */
export const redactionOf = (
  options: RedactionNames,
): { redactHeaders: string[]; redactFields: string[] } => ({
  redactHeaders: options.redactHeader ?? [],
  redactFields: options.redactField ?? [],
});
