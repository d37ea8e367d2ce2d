import { CHECK_CATEGORIES, type Report, type RuleCategory, type RuleResult } from '../../suites/index.ts';

export type CellStatus = 'passed' | 'failed' | 'skipped' | 'none';

export interface Matrix {
  /** What the rows are: operations, or webhook events for `pacu webhooks check`. */
  readonly rowLabel: 'operation' | 'event';
  readonly operations: readonly string[];
  readonly categories: readonly RuleCategory[];
  cell(operation: string, category: RuleCategory): { status: CellStatus; rules: readonly RuleResult[] };
}

const CATEGORY_ORDER: readonly RuleCategory[] = [
  'client',
  ...CHECK_CATEGORIES,
  'contract',
  'delivery',
  'signature',
  'timestamp',
];

/**
 * The operations × categories view of a report: a cell failed when any of its rules failed, passed
 * when at least one passed and none failed, skipped when all were skipped. Only the categories
 * present in the report appear, so `pacu verify`'s contract results render the same way.
 */
export function buildMatrix(report: Report): Matrix {
  const operations = [...new Set(report.rules.map((rule) => rule.operation))];
  const categories = CATEGORY_ORDER.filter((category) =>
    report.rules.some((rule) => rule.category === category),
  );
  return {
    rowLabel: report.command === 'webhooks check' ? 'event' : 'operation',
    operations,
    categories,
    cell(operation, category) {
      const rules = report.rules.filter((rule) => rule.operation === operation && rule.category === category);
      const status: CellStatus = rules.some((rule) => rule.status === 'failed')
        ? 'failed'
        : rules.some((rule) => rule.status === 'passed')
          ? 'passed'
          : rules.length > 0
            ? 'skipped'
            : 'none';
      return { status, rules };
    },
  };
}

/** Results by category, for charts and summaries. */
export function countByCategory(
  report: Report,
): Array<{ category: RuleCategory; passed: number; failed: number; skipped: number }> {
  return buildMatrix(report).categories.map((category) => {
    const rules = report.rules.filter((rule) => rule.category === category);
    return {
      category,
      passed: rules.filter((rule) => rule.status === 'passed').length,
      failed: rules.filter((rule) => rule.status === 'failed').length,
      skipped: rules.filter((rule) => rule.status === 'skipped').length,
    };
  });
}

/** The failures of a report, in report order. */
export function failuresOf(report: Report): RuleResult[] {
  return report.rules.filter((rule) => rule.status === 'failed' && rule.failure);
}

/** Whether the report's seed means something: only `pacu check` draws its cases from one. */
export function hasSeed(report: Report): boolean {
  return report.command === 'check';
}

/** The profile and seed of a run, each formatted by `show`; empty where they do not apply. */
export function runParameters(report: Report, show: (name: string, value: string) => string): string {
  const profile = report.command === 'webhooks check' ? '' : show('profile', report.profile);
  return `${profile}${hasSeed(report) ? show('seed', String(report.seed)) : ''}`;
}

/** The heading of the matrix: its rows are operations, or events for `pacu webhooks check`. */
export function matrixTitle(report: Report): string {
  return report.command === 'webhooks check' ? 'Events × categories' : 'Operations × categories';
}
