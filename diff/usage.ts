import type { Change, UsageRecord, Use } from './glossary.ts';
import { asNode, type Node } from './internal/description.ts';
import { childPath } from './internal/schema-facts.ts';

/** The parts of a pact interaction `pacu diff` reads; contracts' `PactInteraction` has them. */
export interface PactInteractionLike {
  readonly consumer: string;
  readonly description: string;
  readonly request: { readonly method: string; readonly path: string; readonly body: unknown };
  readonly response: { readonly status: number; readonly body: unknown };
}

/** The parts of the mock's coverage report (`pacu mock --coverage-report FILE.json`) `pacu diff` reads. */
export interface CoverageLike {
  readonly operations: ReadonlyArray<{
    readonly operationId: string;
    readonly statuses: Readonly<Record<string, number>>;
  }>;
  readonly events?: ReadonlyArray<{
    readonly type: string;
    readonly emitted: number;
    readonly delivered: number;
  }>;
}

/** Every leaf of a JSON body, as the field paths `pacu diff` names (`$.data.items[*].email`). */
function leaves(value: unknown, at = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) out.push(`${at}[*]`);
    for (const item of value) leaves(item, `${at}[*]`, out);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) out.push(at);
    for (const [name, child] of entries) leaves(child, childPath(at, name), out);
  } else out.push(at);
  return [...new Set(out)];
}

/** What each pact interaction uses: its operation (by method and path), status and body fields. */
export function usageFromPacts(interactions: readonly PactInteractionLike[]): UsageRecord[] {
  return interactions.map((interaction) => ({
    source: 'pact',
    consumer: interaction.consumer,
    detail: interaction.description,
    target: { method: interaction.request.method.toUpperCase(), path: interaction.request.path },
    status: String(interaction.response.status),
    requestFields: interaction.request.body === undefined ? [] : leaves(interaction.request.body),
    responseFields: interaction.response.body === undefined ? [] : leaves(interaction.response.body),
  }));
}

/** What recorded traffic reached: each operation and status answered, each webhook event emitted. Fields are not recorded, so any field counts. */
export function usageFromCoverage(coverage: CoverageLike, label: string): UsageRecord[] {
  const answered = coverage.operations.flatMap((row) =>
    Object.entries(row.statuses)
      .filter(([, count]) => count > 0)
      .map(
        ([status, count]): UsageRecord => ({
          source: 'coverage',
          consumer: label,
          detail: `${row.operationId} answered ${status} ×${count}`,
          target: { operationId: row.operationId },
          status,
        }),
      ),
  );
  const events = (coverage.events ?? [])
    .filter((row) => row.emitted > 0)
    .map(
      (row): UsageRecord => ({
        source: 'coverage',
        consumer: label,
        detail: `${row.type} emitted ×${row.emitted}, acknowledged ×${row.delivered}`,
        target: { webhook: row.type },
      }),
    );
  return [...answered, ...events];
}

const normalise = (template: string): string => template.replace(/\{[^}]+\}/g, '{}');

/** `METHOD /path/{}` of each record, resolved against the OLD description: the one its consumers were built on. */
function operationKeys(records: readonly UsageRecord[], before: Node): Array<string | undefined> {
  const paths = Object.keys(asNode(before.paths));
  const ids = new Map<string, string>();
  for (const template of paths)
    for (const [method, operation] of Object.entries(asNode(asNode(before.paths)[template])))
      if (typeof asNode(operation).operationId === 'string')
        ids.set(String(asNode(operation).operationId), `${method.toUpperCase()} ${normalise(template)}`);
  const server = String(asNode((before.servers as unknown[] | undefined)?.[0]).url ?? '');
  const base = /^[a-z]+:\/\//i.test(server)
    ? new URL(server).pathname.replace(/\/$/, '')
    : server.replace(/\/$/, '');
  const patterns = paths.map((template) => ({
    template,
    pattern: new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ),
  }));
  return records.map(({ target }) => {
    if ('webhook' in target) return `webhook ${target.webhook}`;
    if ('operationId' in target) return ids.get(target.operationId);
    const bare = target.path.split('?')[0] ?? target.path;
    const relative = base && bare.startsWith(`${base}/`) ? bare.slice(base.length) : bare;
    const found = patterns.find(({ pattern }) => pattern.test(relative));
    return found ? `${target.method} ${normalise(found.template)}` : undefined;
  });
}

// Checks that touch every caller of the operation, not only those using the field: a new required
// field, a new scope, a new status are met by clients that never sent or read the field.
const EVERY_CALLER = new Set<string>([
  'new-required-request-property',
  'request-property-became-required',
  'idempotency-key-optional',
  'request-property-closed',
  'response-status-added',
]);

const under = (leaf: string, field: string): boolean =>
  leaf === field || leaf.startsWith(`${field}.`) || leaf.startsWith(`${field}[`);

function uses(change: Change, record: UsageRecord): boolean {
  const field = change.field;
  if (field?.startsWith('$') && !EVERY_CALLER.has(change.check)) {
    const fields = change.side === 'request' ? record.requestFields : record.responseFields;
    if (
      change.side === 'response' &&
      change.status !== undefined &&
      record.status !== undefined &&
      record.status !== change.status
    )
      return false;
    return fields === undefined || fields.some((leaf) => under(leaf, field));
  }
  if (change.status !== undefined && change.check !== 'response-status-added')
    return record.status === undefined || record.status === change.status;
  return true;
}

/** Each breaking or risky change with the consumers that use what it touches (none known: left as is). */
export function attachUsage(
  changes: readonly Change[],
  records: readonly UsageRecord[],
  before: Node,
): Change[] {
  if (records.length === 0) return [...changes];
  const keys = operationKeys(records, before);
  const everyone = [...new Map(records.map((r) => [`${r.source} ${r.consumer}`, r])).values()];
  return changes.map((change) => {
    if (change.severity === 'safe') return change;
    let users: readonly UsageRecord[] = [];
    if (change.operation) {
      const key =
        change.operation.kind === 'webhook'
          ? `webhook ${change.operation.event}`
          : `${change.operation.method} ${normalise(change.operation.path)}`;
      users = records.filter((record, index) => keys[index] === key && uses(change, record));
    } else if (/^(security-scheme|token-scope)-|^server-base-path-changed$/.test(change.check))
      users = everyone.map((r) => ({
        ...r,
        detail: r.source === 'pact' ? 'calls the API' : 'recorded traffic',
      }));
    const usedBy: Use[] = [
      ...new Map(
        users.map((r) => [
          `${r.source} ${r.consumer} ${r.detail}`,
          { source: r.source, consumer: r.consumer, detail: r.detail },
        ]),
      ).values(),
    ];
    return { ...change, usedBy };
  });
}
