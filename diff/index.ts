export type { CheckId } from './checks.ts';
export { CHECKS } from './checks.ts';
export { checkCounts, diffSpecs, failsGate, resolveDiffOptions } from './diff-specs.ts';
export { descriptionAtRef } from './git-description.ts';
export type {
  Change,
  DescriptionInput,
  DiffOptions,
  DiffReport,
  DiffSummary,
  FailOn,
  OperationRef,
  Origin,
  ResolvedDiffOptions,
  Severity,
  Side,
  UsageRecord,
  Use,
} from './glossary.ts';
export { DIFF_DEFAULTS } from './glossary.ts';
export type { CoverageLike, PactInteractionLike } from './usage.ts';
export { usageFromCoverage, usageFromPacts } from './usage.ts';
