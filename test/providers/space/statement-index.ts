import { parse } from 'yaml';

interface Statement {
  readonly quote: string;
  readonly status: string;
}

/** Runs of white space count as one, as spec/statements.yaml says of its quotes. */
export const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The quotes of the statements spec/statements.yaml classifies as `checked`. */
export function checkedStatements(yaml: string): string[] {
  const entries = parse(yaml) as Statement[];
  return entries.filter((entry) => entry.status === 'checked').map((entry) => squeeze(entry.quote));
}
