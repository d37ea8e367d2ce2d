import { readFile } from 'node:fs/promises';
import { normaliseText, type Statement } from './description-statements.ts';
import { SpecError } from './errors.ts';
import { packageFile } from './package-files.ts';
import type { TracedConstraint } from './traceability.ts';

/** spec/statements.yaml: the curated reverse index, statement → what checks it or why nothing can. */
export const STATEMENTS_FILE: string = packageFile('spec/statements.yaml');

export const STATEMENT_STATUSES = ['checked', 'unobservable', 'not-shown', 'no-claim'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/** One entry of spec/statements.yaml. */
export interface StatementEntry {
  /** The statement verbatim, or a distinctive verbatim part of it: the key other tools use. */
  readonly quote: string;
  /** The heading it sits under, where the quote alone is found in more than one statement. */
  readonly section?: string;
  readonly status: StatementStatus;
  /** Documented constraints, `<operationId or *> <path> <keyword>` as documentedConstraints() lists them. */
  readonly constraints: readonly string[];
  /** `pacu check` rule ids. */
  readonly rules: readonly string[];
  /** JSON pointers of the x-pacu-decisions that fill a gap the description states. */
  readonly decisions: readonly string[];
  readonly why?: string;
}

const strings = (value: unknown, what: string): string[] => {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new SpecError(`spec/statements.yaml: ${what} must be a list of strings`);
};

/** The entries of spec/statements.yaml, shape-checked. */
export async function loadStatementIndex(file: string = STATEMENTS_FILE): Promise<StatementEntry[]> {
  // yaml loads here, not with spec/: every start imports spec/, and only tests and `generate` read this file.
  const { parse } = await import('yaml');
  const raw = parse(await readFile(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new SpecError(`${file} must be a list of entries`);
  return raw.map((item: Record<string, unknown>, index) => {
    const where = `entry ${index + 1}`;
    if (typeof item?.quote !== 'string' || item.quote.trim() === '')
      throw new SpecError(`${file}: ${where} has no quote`);
    if (!STATEMENT_STATUSES.includes(item.status as StatementStatus))
      throw new SpecError(`${file}: ${where} (${item.quote}) has status ${String(item.status)}`);
    return {
      quote: item.quote,
      ...(typeof item.section === 'string' ? { section: item.section } : {}),
      status: item.status as StatementStatus,
      constraints: strings(item.constraints, `${where} constraints`),
      rules: strings(item.rules, `${where} rules`),
      decisions: strings(item.decisions, `${where} decisions`),
      ...(typeof item.why === 'string' ? { why: item.why } : {}),
    };
  });
}

/** Whether an entry's quote (and section, if it names one) is found in the statement. */
export const entryMatches = (entry: StatementEntry, statement: Statement): boolean =>
  normaliseText(statement.text).includes(normaliseText(entry.quote)) &&
  (entry.section === undefined || entry.section === statement.section);

/** A documented constraint as an index entry names it. */
export const constraintKey = (constraint: TracedConstraint): string =>
  `${constraint.operation} ${constraint.path} ${constraint.keyword}`;

/** Whether `<operation or *> <path> <keyword>` names the constraint. */
export function refersTo(reference: string, constraint: TracedConstraint): boolean {
  const [operation, path, keyword] = reference.split(' ');
  return (
    (operation === '*' || operation === constraint.operation) &&
    path === constraint.path &&
    keyword === constraint.keyword
  );
}

/** Each statement with the entries that speak for it, in the description's order. */
export interface IndexedStatement {
  readonly statement: Statement;
  readonly entries: readonly StatementEntry[];
}

export function indexStatements(
  statements: readonly Statement[],
  entries: readonly StatementEntry[],
): IndexedStatement[] {
  return statements.map((statement) => ({
    statement,
    entries: entries.filter((entry) => entryMatches(entry, statement)),
  }));
}
