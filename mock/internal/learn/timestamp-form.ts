/** How a sandbox writes an instant in UTC ("ISO 8601 UTC form" leaves both open). */
export interface TimestampForm {
  /** `Z`, or a zero offset as written (`+00:00`, `+0000`). */
  readonly offset: string;
  /** Digits after the seconds: 0, 3 (milliseconds), 6 (microseconds)… */
  readonly fraction: number;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d+))?(Z|[+-]00:?00)$/;

/** Whether `value` is an ISO 8601 UTC timestamp pacu can learn the form of. */
export const isUtcTimestamp = (value: unknown): value is string =>
  typeof value === 'string' && TIMESTAMP.test(value);

/**
 * The form every sample shares, or undefined when the offsets disagree or a sample is no UTC
 * timestamp. Fraction digits are the most any sample shows: Python's isoformat drops `.000000`
 * on a whole second, so fewer digits on some samples are no other form.
 */
export function timestampFormOf(samples: readonly string[]): TimestampForm | undefined {
  let offset: string | undefined;
  let fraction = 0;
  for (const sample of samples) {
    const match = TIMESTAMP.exec(sample);
    if (!match) return undefined;
    const written = match[2] as string;
    if (offset !== undefined && written !== offset) return undefined;
    offset = written;
    fraction = Math.max(fraction, match[1]?.length ?? 0);
  }
  return offset === undefined ? undefined : { offset, fraction };
}

/** The form in words: `Z, whole seconds`, `+00:00, 6 fraction digits`. */
export function describeTimestampForm(form: TimestampForm): string {
  return `${form.offset}, ${form.fraction === 0 ? 'whole seconds' : `${form.fraction} fraction digits`}`;
}

/** A writer of instants (ms since the epoch) in `form`. */
export function timestampWriter(form: TimestampForm): (ms: number) => string {
  return (ms) => {
    const iso = new Date(ms).toISOString();
    const seconds = iso.slice(0, 19);
    const millis = iso.slice(20, 23);
    const fraction =
      form.fraction === 0
        ? ''
        : `.${(millis + '0'.repeat(Math.max(0, form.fraction - 3))).slice(0, form.fraction)}`;
    return `${seconds}${fraction}${form.offset}`;
  };
}

/** Agreeing samples needed before a record kind's timestamps are written in its own form. */
const SAMPLES_FOR_A_FORM = 2;

/**
 * The form every sample of one record kind shares, offset and fraction digits alike, from two
 * samples or more; else why it stays free (`0 or 3 fraction digits seen`, `1 sample`).
 */
export function agreedTimestampForm(samples: readonly string[]): { form?: TimestampForm; why?: string } {
  const forms = samples.map((sample) => timestampFormOf([sample]));
  if (forms.some((form) => form === undefined)) return { why: 'not all are ISO 8601 UTC timestamps' };
  const shown = [...new Set(forms.map((form) => JSON.stringify(form)))].map(
    (text) => JSON.parse(text) as TimestampForm,
  );
  if (shown.length > 1) {
    const digits = [...new Set(shown.map((form) => form.fraction))].sort((a, b) => a - b);
    const offsets = [...new Set(shown.map((form) => form.offset))];
    return {
      why:
        offsets.length > 1
          ? `offsets ${offsets.join(' and ')} seen`
          : `${digits.join(' or ')} fraction digits seen`,
    };
  }
  if (samples.length < SAMPLES_FOR_A_FORM)
    return {
      why: `${samples.length} sample${samples.length === 1 ? '' : 's'} (${describeTimestampForm(shown[0] as TimestampForm)}): too few`,
    };
  return { form: shown[0] as TimestampForm };
}
