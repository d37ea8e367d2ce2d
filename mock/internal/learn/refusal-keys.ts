import type { OperationId } from '../../../spec/index.ts';
import type { LearnedRefusal, RefusalKind } from '../behaviour.ts';
import type { ReportDraft } from './learned-report.ts';
import { ANYWHERE, PACU_REFUSALS, REFUSAL_ABOUT } from './refusal-kinds.ts';

/** One refusal of the sandbox's that pacu's mock also makes: what was refused and how it was answered. */
export interface Refused {
  readonly operation: OperationId | undefined;
  readonly kind: RefusalKind;
  /** The field pacu's own message named first: what was refused. */
  readonly field: string | undefined;
  readonly status: number;
  readonly message: string | undefined;
  /** The message names a request field: it holds for that field only. */
  readonly specific: boolean;
  readonly entry: number;
}

/** The learned refusals: a status and a message by what was refused. */
export interface RefusalFacts {
  refusal(operation: OperationId | undefined, kind: RefusalKind, field?: string): LearnedRefusal | undefined;
}

const keyOf = (operation: OperationId | undefined, kind: RefusalKind, field = ''): string =>
  `${operation ?? ''}|${kind}|${field}`;

/** Of `items`, the status they all share, or undefined. */
function sharedStatus(items: readonly Refused[]): number | undefined {
  const statuses = new Set(items.map((item) => item.status));
  return statuses.size === 1 ? items[0]?.status : undefined;
}

/** Of `items`, the one message they all share (`{name}` for request values), or undefined. */
function sharedMessage(items: readonly Refused[]): string | undefined {
  const messages = new Set(items.map((item) => item.message));
  return messages.size === 1 ? items[0]?.message : undefined;
}

/**
 * Statuses and messages by what was refused: the operation, the kind, the field. A status holds for
 * its kind anywhere when every sample agrees (a token is refused alike everywhere); a message that
 * names a field holds for that field only, one that names none for every field of its kind.
 */
export function consolidate(refused: readonly Refused[], report: ReportDraft): RefusalFacts {
  const statuses = new Map<string, number>();
  const messages = new Map<string, string>();
  const groups = new Map<string, Refused[]>();
  const add = (key: string, item: Refused) => groups.set(key, [...(groups.get(key) ?? []), item]);
  for (const item of refused) {
    add(keyOf(item.operation, item.kind, item.field), item);
    add(keyOf(item.operation, item.kind), item);
    if (ANYWHERE.has(item.kind)) {
      add(keyOf(undefined, item.kind, item.field), item);
      add(keyOf(undefined, item.kind), item);
    } else if (item.status === 400 && !item.specific)
      // A body refused 400 is the description's own answer (Errors 1): its generic words hold anywhere.
      add(keyOf(undefined, item.kind), item);
  }
  for (const [key, items] of groups) {
    // One operation's body teaches no other's: generic words hold anywhere once two operations agree.
    if (key === keyOf(undefined, 'invalid-request') && new Set(items.map((item) => item.operation)).size < 2)
      continue;
    const status = sharedStatus(items);
    const [operation, , field] = key.split('|');
    if (status !== undefined) statuses.set(key, status);
    else if (operation !== '' && field !== '') {
      const [first] = items as [Refused];
      report.unlearned(
        items.filter((item) => item.status !== first.status).map((item) => item.entry),
        `${REFUSAL_ABOUT[first.kind]} was answered with another status than entry ${first.entry}'s ${first.status}: the first is learned`,
      );
      statuses.set(key, first.status);
    }
    // A message naming a field is that field's; one naming none is every field's of its kind.
    const withMessage = items.filter((item) => item.message !== undefined);
    const fitting = withMessage.filter((item) => item.specific === (field !== ''));
    const message =
      fitting.length > 0 && (field === '' || fitting.length === withMessage.length)
        ? sharedMessage(fitting)
        : undefined;
    if (message !== undefined) messages.set(key, message);
  }
  reportRefusals(refused, statuses, messages, report);
  const lookup = (operation: OperationId | undefined, kind: RefusalKind, field?: string) => {
    const keys = [
      ...(field ? [keyOf(operation, kind, field)] : []),
      keyOf(operation, kind),
      ...(field ? [keyOf(undefined, kind, field)] : []),
      keyOf(undefined, kind),
    ];
    const status = keys.map((key) => statuses.get(key)).find((found) => found !== undefined);
    if (status === undefined) return undefined;
    const message = keys.map((key) => messages.get(key)).find((found) => found !== undefined);
    return { status, message };
  };
  return { refusal: lookup };
}

const shownOf = (status: number | undefined, message: string | undefined): string =>
  `${status ?? "pacu's"}${message !== undefined ? ` "${message}"` : ''}`;

/** One choice per kind (anywhere), per operation where it is that operation's alone, per field refused. */
function reportRefusals(
  refused: readonly Refused[],
  statuses: ReadonlyMap<string, number>,
  messages: ReadonlyMap<string, string>,
  report: ReportDraft,
): void {
  for (const kind of Object.keys(PACU_REFUSALS) as RefusalKind[]) {
    const items = refused.filter((item) => item.kind === kind);
    if (items.length === 0) {
      report.kept(`refusal.${kind}`, REFUSAL_ABOUT[kind], PACU_REFUSALS[kind], `${PACU_REFUSALS[kind]}`);
      continue;
    }
    const anywhere = statuses.get(keyOf(undefined, kind));
    if (anywhere !== undefined) {
      const where = [...new Set(items.map((item) => item.operation ?? 'any path'))].join(', ');
      const message = messages.get(keyOf(undefined, kind));
      report.learned(
        `refusal.${kind}`,
        REFUSAL_ABOUT[kind],
        { status: anywhere, message },
        `${shownOf(anywhere, message)} (seen on ${where})`,
        items.map((item) => item.entry),
      );
    } else if (!ANYWHERE.has(kind))
      report.kept(
        `refusal.${kind}`,
        `${REFUSAL_ABOUT[kind]}, elsewhere`,
        PACU_REFUSALS[kind],
        `${PACU_REFUSALS[kind]}`,
      );
    const byField = new Map<string, Refused[]>();
    for (const item of items) {
      const name = `${item.operation ?? 'any'}.${kind}${item.field ? `.${item.field}` : ''}`;
      byField.set(name, [...(byField.get(name) ?? []), item]);
    }
    for (const [name, group] of byField) {
      const [first] = group as [Refused];
      const key = keyOf(first.operation, kind, first.field);
      const status = statuses.get(key) ?? statuses.get(keyOf(first.operation, kind));
      const message = messages.get(key) ?? messages.get(keyOf(first.operation, kind));
      report.learned(
        `refusal.${name}`,
        `${REFUSAL_ABOUT[kind]}, on ${first.operation ?? 'any path'}${first.field ? `, of ${first.field}` : ''}`,
        { status, message },
        shownOf(status, message),
        group.map((item) => item.entry),
      );
    }
  }
}
