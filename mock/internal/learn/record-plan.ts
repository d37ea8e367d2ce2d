import { type IdForm, idFormOf, idMaker } from './id-form.ts';
import { isUtcTimestamp, type TimestampForm, timestampWriter } from './timestamp-form.ts';

/** Samples that must show a field alike before the mock makes it so (one sample makes no rule). */
export const SAMPLES_FOR_A_RULE = 2;

type Json = Record<string, unknown>;

/** How a sandbox makes one field of a record it answers. */
export type FieldMaking =
  | { readonly how: 'echo'; readonly from: string; readonly transform: 'same' | 'lower' | 'upper' }
  | { readonly how: 'constant'; readonly value: unknown }
  | { readonly how: 'timestamp' }
  | { readonly how: 'id'; readonly form: IdForm };

/** What a recording showed of one record kind beyond pacu's own shape. */
export interface RecordPlan {
  /** Fields pacu's record does not have, and how each is made; or documented ones made otherwise. */
  readonly fields: ReadonlyArray<readonly [string, FieldMaking]>;
  /** Echoed fields that are absent from the record when the request leaves them out. */
  readonly omitWhenAbsent: readonly string[];
  /** The order of the recorded record's fields. */
  readonly order: readonly string[];
  /** How this kind writes its timestamps, where two or more samples agree; else pacu's. */
  readonly stamp?: TimestampForm;
  /** Its documented timestamp fields, written in `stamp`. */
  readonly stampFields?: readonly string[];
  /** One plan per kind (a transfer's transfer_type): nothing learned of one kind is made for another. */
  readonly byKind?: { readonly field: string; readonly plans: Readonly<Record<string, RecordPlan>> };
}

/** A field of a record kind the samples showed too little of, or disagreed on: left as pacu makes it. */
export interface FreeChoice {
  readonly field: string;
  readonly why: string;
  readonly entries: readonly number[];
}

/** One recorded answer of a record kind: what the request carried (body and path) and the record. */
export interface RecordSample {
  readonly entry: number;
  readonly request: Json;
  readonly data: Json;
}

/** What the plan learned, field by field, for the learned report. */
export interface PlanChoice {
  readonly field: string;
  readonly value: string;
  readonly entries: readonly number[];
}

export interface FieldFacts {
  /** Fields the record documents. */
  readonly documented: readonly string[];
  /** Documented fields that repeat a request field of the same name (the echo pacu makes). */
  readonly echoed: readonly string[];
  /** Documented fields pacu fills with one of a few values (statuses, types): a sandbox may spell them otherwise. */
  readonly enumerated: ReadonlyMap<string, readonly unknown[]>;
  /** Fields pacu leaves out of the plan because it learns them elsewhere (token lifetime and type). */
  readonly elsewhere: readonly string[];
}

const TRANSFORMS = {
  same: (value: unknown) => value,
  lower: (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value),
  upper: (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value),
} as const;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The transform under which `field` repeats request field `from` in every sample that has both. */
function echoTransform(
  samples: readonly RecordSample[],
  field: string,
  from: string,
): FieldMaking | undefined {
  const both = samples.filter((sample) => field in sample.data && sample.request[from] !== undefined);
  // A field present while the request left `from` out is no echo of it.
  if (
    both.length === 0 ||
    samples.some((sample) => field in sample.data && sample.request[from] === undefined)
  )
    return undefined;
  for (const transform of ['same', 'lower', 'upper'] as const) {
    if (both.every((sample) => same(sample.data[field], TRANSFORMS[transform](sample.request[from]))))
      return { how: 'echo', from, transform };
  }
  return undefined;
}

/** How an undocumented field is made, judged from every sample that has it; or why it stays free. */
function extraMaking(samples: readonly RecordSample[], field: string): FieldMaking | string {
  const own = samples.filter((sample) => field in sample.data);
  const values = own.map((sample) => sample.data[field]);
  if (own.length < SAMPLES_FOR_A_RULE) return `seen in ${own.length} answer: too few`;
  const named = echoTransform(samples, field, field);
  if (named) return named;
  const names = new Set(own.flatMap((sample) => Object.keys(sample.request)));
  for (const from of names) {
    const echo = echoTransform(samples, field, from);
    // A one-character or boolean match is a coincidence, not an echo.
    if (echo && own.every((sample) => String(sample.request[from]).length > 1)) return echo;
  }
  if (values.every(isUtcTimestamp)) return { how: 'timestamp' };
  const strings = values.every((value): value is string => typeof value === 'string');
  const equal = values.every((value) => same(value, values[0]));
  if (equal) return { how: 'constant', value: values[0] };
  const form = strings ? idFormOf(values) : undefined;
  if (form) return { how: 'id', form };
  return `values differ (${[...new Set(values.map((value) => JSON.stringify(value)))].slice(0, 3).join(', ')}) and follow no request field`;
}

export function describeMaking(making: FieldMaking): string {
  switch (making.how) {
    case 'echo':
      return `${making.transform === 'same' ? 'echoes' : `echoes, ${making.transform}-cased,`} the request's ${making.from}`;
    case 'constant':
      return `always ${JSON.stringify(making.value)}`;
    case 'timestamp':
      return 'the time it was made';
    case 'id':
      return 'a fresh id';
  }
}

/**
 * How a sandbox makes a record kind, from its recorded answers: the fields pacu's record lacks
 * (echoed from the request, constant, or generated as recorded), documented fields echoed with
 * another case or spelled otherwise, and echoed fields left out when the request left them out.
 * Each from two samples or more that agree; a field seen less, or disagreeing, is `free`.
 */
export function learnRecordPlan(
  samples: readonly RecordSample[],
  facts: FieldFacts,
): { plan: RecordPlan | undefined; choices: PlanChoice[]; free: FreeChoice[] } {
  if (samples.length === 0) return { plan: undefined, choices: [], free: [] };
  const order = [...new Set(samples.flatMap((sample) => Object.keys(sample.data)))];
  const fields: Array<readonly [string, FieldMaking]> = [];
  const choices: PlanChoice[] = [];
  const free: FreeChoice[] = [];
  const entriesWith = (field: string) =>
    samples.filter((sample) => field in sample.data).map((sample) => sample.entry);
  for (const field of order) {
    if (facts.elsewhere.includes(field)) continue;
    let making: FieldMaking | string | undefined;
    if (!facts.documented.includes(field)) making = extraMaking(samples, field);
    else if (facts.echoed.includes(field)) {
      const echo = echoTransform(samples, field, field);
      if (echo?.how === 'echo' && echo.transform !== 'same')
        making =
          entriesWith(field).length >= SAMPLES_FOR_A_RULE
            ? echo
            : `echoed ${echo.transform}-cased in 1 answer: too few`;
    } else {
      const choicesOf = facts.enumerated.get(field);
      const values = samples.filter((sample) => field in sample.data).map((sample) => sample.data[field]);
      const [first] = values;
      if (choicesOf && values.every((value) => same(value, first)) && !choicesOf.includes(first))
        making =
          values.length >= SAMPLES_FOR_A_RULE
            ? { how: 'constant', value: first }
            : `${JSON.stringify(first)} in 1 answer: too few`;
    }
    if (making === undefined) continue;
    if (typeof making === 'string') {
      free.push({ field, why: making, entries: entriesWith(field) });
      continue;
    }
    fields.push([field, making]);
    choices.push({ field, value: describeMaking(making), entries: entriesWith(field) });
  }
  // An undocumented echo is absent anyway when its source is (made undefined); pacu's own
  // documented echoes are '' when left out, unless the sandbox leaves them out.
  const omitWhenAbsent: string[] = [];
  for (const field of facts.echoed) {
    const left = samples.filter((sample) => sample.request[field] === undefined);
    if (left.length === 0 || !left.every((sample) => !(field in sample.data))) continue;
    const entries = left.map((sample) => sample.entry);
    if (left.length < SAMPLES_FOR_A_RULE) {
      free.push({ field, why: 'left out when the request left it out, in 1 answer: too few', entries });
      continue;
    }
    omitWhenAbsent.push(field);
    choices.push({ field, value: 'left out when the request leaves it out', entries });
  }
  return { plan: { fields, omitWhenAbsent, order }, choices, free };
}

/** Makes the fields of a plan for one record: fresh ids and times each time. */
export interface Makers {
  stamp(): string;
  /** The mock's clock, for a kind that writes its timestamps in its own form. */
  now?(): number;
}

const idMakers = new WeakMap<IdForm, () => string>();
const writers = new WeakMap<TimestampForm, (ms: number) => string>();

function writerOf(form: TimestampForm): (ms: number) => string {
  let writer = writers.get(form);
  if (!writer) {
    writer = timestampWriter(form);
    writers.set(form, writer);
  }
  return writer;
}

function make(making: FieldMaking, request: Json, stamp: () => string): unknown {
  switch (making.how) {
    case 'echo':
      return TRANSFORMS[making.transform](request[making.from]);
    case 'constant':
      return typeof making.value === 'object' && making.value !== null
        ? structuredClone(making.value)
        : making.value;
    case 'timestamp':
      return stamp();
    case 'id': {
      let maker = idMakers.get(making.form);
      if (!maker) {
        maker = idMaker(making.form);
        idMakers.set(making.form, maker);
      }
      return maker();
    }
  }
}

/** `record` as the sandbox would have made it for `request`: a new object in the recorded order. */
export function applyPlan<T extends object>(whole: RecordPlan, record: T, request: Json, makers: Makers): T {
  const kind = whole.byKind ? whole.byKind.plans[String(request[whole.byKind.field])] : undefined;
  const plan = kind ?? whole;
  const made: Json = { ...(record as Json) };
  const { stamp: form } = plan;
  const stamp = form && makers.now ? () => writerOf(form)((makers.now as () => number)()) : makers.stamp;
  if (form && makers.now)
    for (const field of plan.stampFields ?? []) if (field in made) made[field] = stamp();
  for (const [field, making] of plan.fields) {
    const value = make(making, request, stamp);
    if (value === undefined) delete made[field];
    else made[field] = value;
  }
  for (const field of plan.omitWhenAbsent) if (request[field] === undefined) delete made[field];
  const ordered: Json = {};
  for (const field of plan.order.length > 0 ? plan.order : whole.order)
    if (field in made) ordered[field] = made[field];
  for (const field in made) if (!(field in ordered)) ordered[field] = made[field];
  return ordered as T;
}
