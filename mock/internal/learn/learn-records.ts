import {
  type JSONSchema7,
  type OperationId,
  propertiesOf,
  recordFields,
  requestFieldNames,
  type Spec,
} from '../../../spec/index.ts';
import type { ReportDraft } from './learned-report.ts';
import { type FieldFacts, learnRecordPlan, type RecordPlan, type RecordSample } from './record-plan.ts';
import { dataOf, entryOf, requestFieldsOf, type Samples } from './samples.ts';
import type { TimestampForm } from './timestamp-form.ts';

/** The record kinds pacu makes itself, and what learning leaves to other choices. */
const MADE: ReadonlyArray<readonly [OperationId, readonly string[]]> = [
  ['usdTransfer', []],
  ['walletPayout', []],
  ['createAccount', []],
  ['getAccessToken', ['access_token', 'expires_in_seconds', 'token_type']],
  ['listUsers', ['items']],
  ['getP2pStatus', []],
];

/** The values pacu's strict view allows a documented field, where it names them. */
function enumerated(spec: Spec, operation: OperationId): Map<string, readonly unknown[]> {
  const schema = spec.operation(operation).responses.get(200)?.schema;
  const data = schema ? propertiesOf(schema).data : undefined;
  const found = new Map<string, readonly unknown[]>();
  for (const [name, property] of Object.entries(data ? propertiesOf(data) : {})) {
    const members = [property, ...((property.allOf ?? []) as JSONSchema7[])];
    const values = members.flatMap((member) => member.enum ?? []);
    if (values.length > 0) found.set(name, values);
  }
  return found;
}

function factsOf(spec: Spec, operation: OperationId, elsewhere: readonly string[]): FieldFacts {
  const spec0 = spec.operation(operation);
  const documented = recordFields(spec0);
  const requested = requestFieldNames(spec0);
  return {
    documented,
    echoed: documented.filter((field) => requested.includes(field)),
    // A p2p status is the user's own, answered as recorded per user: no one spelling for all.
    enumerated: operation === 'getP2pStatus' ? new Map() : enumerated(spec, operation),
    elsewhere,
  };
}

/** What a recorded request carried, its query included (paging names echoed in a list). */
function requestOf(exchange: Samples['all'][number]): Record<string, unknown> {
  const query = Object.fromEntries(new URL(exchange.entry.request.url).searchParams);
  return { ...query, ...requestFieldsOf(exchange) };
}

export interface RecordFacts {
  readonly plans: Partial<Record<OperationId, RecordPlan>>;
  /** Recorded p2p answers by user id, served as recorded. */
  readonly p2p: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/** The record kinds of an operation: a transfer's by its transfer_type; one for the others. */
const KIND_FIELD: Partial<Record<OperationId, string>> = { usdTransfer: 'transfer_type' };

/** One kind's plan, its choices in the report as learned, its free fields as kept. */
function planOf(
  recorded: readonly RecordSample[],
  facts: FieldFacts,
  name: string,
  stamps: StampFacts,
  report: ReportDraft,
): RecordPlan | undefined {
  const { plan, choices, free } = learnRecordPlan(recorded, facts);
  const about = `the record ${name.replace('.', ' (')}${name.includes('.') ? ')' : ''} answers`;
  if (!plan) {
    report.kept(`record.${name}`, about, undefined, "pacu's shape");
    return undefined;
  }
  for (const choice of choices)
    report.learned(
      `record.${name}.${choice.field}`,
      `${choice.field} of ${about}`,
      choice.value,
      choice.value,
      choice.entries,
    );
  for (const field of free)
    report.kept(
      `record.${name}.${field.field}`,
      `${field.field} of ${about}`,
      undefined,
      `left free: ${field.why}`,
      field.entries,
    );
  if (choices.length === 0 && free.length === 0)
    report.learned(
      `record.${name}`,
      about,
      'as pacu makes it',
      "pacu's fields, in the recorded order",
      recorded.map(({ entry }) => entry),
    );
  const stamp = stamps.forms.get(name);
  return stamp ? { ...plan, stamp, stampFields: stamps.fields } : plan;
}

/** The timestamp forms learned per record kind (`usdTransfer.ACH`), and the spec's timestamp fields. */
export interface StampFacts {
  readonly forms: ReadonlyMap<string, TimestampForm>;
  readonly fields: readonly string[];
}

/**
 * How the sandbox makes the records pacu makes too (new transfers, payouts and accounts, tokens,
 * the user list's paging fields, p2p statuses), from their recorded answers, per kind (a transfer
 * per transfer type); and the p2p statuses it answered, per user.
 */
export function learnRecords(
  spec: Spec,
  samples: Samples,
  stamps: StampFacts,
  report: ReportDraft,
): RecordFacts {
  const plans: Partial<Record<OperationId, RecordPlan>> = {};
  for (const [operation, elsewhere] of MADE) {
    const distinct = new Set<string>();
    const recorded = (samples.success.get(operation) ?? []).flatMap((exchange) => {
      const data = dataOf(exchange);
      // The same record answered again is one sample, not two that agree.
      const text = `${JSON.stringify(requestOf(exchange))}${JSON.stringify(data)}`;
      if (!data || distinct.has(text)) return [];
      distinct.add(text);
      return [{ entry: entryOf(exchange), request: requestOf(exchange), data }];
    });
    const facts = factsOf(spec, operation, elsewhere);
    const field = KIND_FIELD[operation];
    if (!field) {
      const plan = planOf(recorded, facts, operation, stamps, report);
      if (plan) plans[operation] = plan;
      continue;
    }
    const kinds = [...new Set(recorded.map(({ request }) => String(request[field])))];
    const byKind: Record<string, RecordPlan> = {};
    for (const kind of kinds) {
      const plan = planOf(
        recorded.filter(({ request }) => String(request[field]) === kind),
        facts,
        `${operation}.${kind}`,
        stamps,
        report,
      );
      if (plan) byKind[kind] = plan;
    }
    if (kinds.length === 0)
      report.kept(`record.${operation}`, `the record ${operation} answers`, undefined, "pacu's shape");
    else {
      const order = [...new Set(Object.values(byKind).flatMap((plan) => plan.order))];
      plans[operation] = { fields: [], omitWhenAbsent: [], order, byKind: { field, plans: byKind } };
    }
  }
  const p2p = new Map<string, Readonly<Record<string, unknown>>>();
  for (const exchange of samples.success.get('getP2pStatus') ?? []) {
    const user = exchange.params.user_id;
    const data = dataOf(exchange);
    if (user !== undefined && data && !p2p.has(user)) p2p.set(user, data);
  }
  return { plans, p2p };
}
