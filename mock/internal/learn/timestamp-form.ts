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
