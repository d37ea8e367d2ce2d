import {
  type JSONSchema7,
  type OperationId,
  propertiesOf,
  recordFields,
  requestFieldNames,
  type Spec,
} from '../../../spec/index.ts';
import type { ReportDraft } from './learned-report.ts';
import { type FieldFacts, learnRecordPlan, type RecordPlan } from './record-plan.ts';
import { dataOf, entryOf, requestFieldsOf, type Samples } from './samples.ts';

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

/**
 * How the sandbox makes the records pacu makes too (new transfers, payouts and accounts, tokens,
 * the user list's paging fields, p2p statuses), from their recorded answers; and the p2p statuses it
 * answered, per user.
 */
export function learnRecords(spec: Spec, samples: Samples, report: ReportDraft): RecordFacts {
  const plans: Partial<Record<OperationId, RecordPlan>> = {};
  for (const [operation, elsewhere] of MADE) {
    const recorded = (samples.success.get(operation) ?? []).flatMap((exchange) => {
      const data = dataOf(exchange);
      return data ? [{ entry: entryOf(exchange), request: requestOf(exchange), data }] : [];
    });
    const { plan, choices } = learnRecordPlan(recorded, factsOf(spec, operation, elsewhere));
    const about = `the record ${operation} answers`;
    if (!plan) {
      report.kept(`record.${operation}`, about, undefined, "pacu's shape");
      continue;
    }
    plans[operation] = plan;
    for (const choice of choices)
      report.learned(
        `record.${operation}.${choice.field}`,
        `${choice.field} of ${about}`,
        choice.value,
        choice.value,
        choice.entries,
      );
    if (choices.length === 0)
      report.learned(
        `record.${operation}`,
        about,
        'as pacu makes it',
        "pacu's fields, in the recorded order",
        recorded.map(({ entry }) => entry),
      );
  }
  const p2p = new Map<string, Readonly<Record<string, unknown>>>();
  for (const exchange of samples.success.get('getP2pStatus') ?? []) {
    const user = exchange.params.user_id;
    const data = dataOf(exchange);
    if (user !== undefined && data && !p2p.has(user)) p2p.set(user, data);
  }
  return { plans, p2p };
}
