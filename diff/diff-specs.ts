import { ConfigError } from '../spec/index.ts';
import { CHECKS } from './checks.ts';
import type { Change, DescriptionInput, DiffOptions, DiffReport, ResolvedDiffOptions } from './glossary.ts';
import { DIFF_DEFAULTS } from './glossary.ts';
import { loadDescription } from './internal/description.ts';
import { diffDecisions, diffServers, diffWebhooks } from './internal/document-diff.ts';
import { createEmitter } from './internal/emitter.ts';
import { diffOperations } from './internal/operation-diff.ts';
import { diffSecuritySchemes } from './internal/security-diff.ts';
import { attachUsage } from './usage.ts';

const FAIL_ON = ['breaking', 'risky', 'used'] as const;
const PROFILES = ['documented', 'strict'] as const;

/** Options in, every field set: checked once here, read everywhere else. */
export function resolveDiffOptions(options: DiffOptions = {}): ResolvedDiffOptions {
  const resolved = { ...DIFF_DEFAULTS, ...options };
  if (!FAIL_ON.includes(resolved.failOn))
    throw new ConfigError(`pacu: --fail-on ${String(resolved.failOn)}: use breaking, risky or used`);
  if (!PROFILES.includes(resolved.profile))
    throw new ConfigError(`pacu: --profile ${String(resolved.profile)}: use documented or strict`);
  if (resolved.failOn === 'used' && resolved.usage.length === 0)
    throw new ConfigError(
      'pacu: --fail-on used needs consumers (--pacts DIR or --coverage FILE): with none known, nothing is "used" and the gate would pass unchecked',
    );
  return resolved;
}

/** Whether a change fails the run: at or above `failOn`, and the description's (or any, under `strict`). */
export function failsGate(change: Change, options: Pick<ResolvedDiffOptions, 'failOn' | 'profile'>): boolean {
  if (change.origin === 'decision' && options.profile !== 'strict') return false;
  if (options.failOn === 'risky') return change.severity !== 'safe';
  if (options.failOn === 'used') return change.severity === 'breaking' && (change.usedBy?.length ?? 0) > 0;
  return change.severity === 'breaking';
}

/**
 * Every change between two versions of an OpenAPI description, each judged `breaking`, `risky` or
 * `safe` for the clients of the old one, with the payment rules pacu knows (the idempotency key,
 * transaction statuses, amounts, webhooks, token scopes) and, given `usage`, who uses what changed.
 * Findings are data: only unreadable input throws (a {@link SpecError} or {@link ConfigError}).
 *
 * @example
 * const report = await diffSpecs('spec/openapi.yaml', 'docs/examples/openapi-next.yaml');
 * report.changes.filter((change) => change.severity === 'breaking');
 */
export async function diffSpecs(
  oldDescription: DescriptionInput,
  newDescription: DescriptionInput,
  options: DiffOptions = {},
): Promise<DiffReport> {
  const resolved = resolveDiffOptions(options);
  const [before, after] = await Promise.all([
    loadDescription(oldDescription),
    loadDescription(newDescription),
  ]);
  const out = createEmitter();
  diffServers(before.document, after.document, out);
  diffOperations(before.document, after.document, out);
  diffWebhooks(before.document, after.document, out);
  diffSecuritySchemes(before.document, after.document, out);
  diffDecisions(before, after, out);
  const unique = [
    ...new Map(out.changes.map((c) => [`${c.check} ${c.path} ${c.field} ${c.message}`, c])).values(),
  ];
  const changes = attachUsage(unique, resolved.usage, before.document);
  const count = (severity: Change['severity']): number =>
    changes.filter((c) => c.severity === severity).length;
  const consumersKnown = resolved.usage.length > 0;
  return {
    old: before.label,
    new: after.label,
    options: { failOn: resolved.failOn, profile: resolved.profile, consumersKnown },
    changes,
    summary: {
      breaking: count('breaking'),
      risky: count('risky'),
      safe: count('safe'),
      ...(consumersKnown
        ? { used: changes.filter((c) => c.severity === 'breaking' && (c.usedBy?.length ?? 0) > 0).length }
        : {}),
      gating: changes.filter((c) => failsGate(c, resolved)).length,
    },
    failed: changes.some((c) => failsGate(c, resolved)),
  };
}

/** How many checks `pacu diff` has, by area and by severity. */
export function checkCounts(): {
  byArea: Record<string, number>;
  bySeverity: Record<string, number>;
  total: number;
} {
  const byArea: Record<string, number> = {};
  const bySeverity: Record<string, number> = {};
  for (const entry of Object.values(CHECKS)) {
    byArea[entry.area] = (byArea[entry.area] ?? 0) + 1;
    bySeverity[entry.severity] = (bySeverity[entry.severity] ?? 0) + 1;
  }
  return { byArea, bySeverity, total: Object.keys(CHECKS).length };
}
