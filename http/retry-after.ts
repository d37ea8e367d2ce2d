// The one reader of Retry-After (RFC 9110 10.2.3) for the mock's webhook lane, the proxy and the
// remote checks' pacing: delay-seconds, or an HTTP date in any of the three forms a recipient
// must accept (RFC 9110 5.6.7), always read as GMT.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i');
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, 'i');
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`, 'i');

/** A two-digit year more than 50 years ahead is in the past century (RFC 9110 5.6.7). */
function fullYear(twoDigits: number, now: number): number {
  const century = Math.floor(new Date(now).getUTCFullYear() / 100) * 100;
  const year = century + twoDigits;
  return year > new Date(now).getUTCFullYear() + 50 ? year - 100 : year;
}

function utc(year: number, month: string, day: number, h: string, m: string, s: string): number | undefined {
  const index = MONTHS.indexOf(month.toLowerCase());
  const [hours, minutes, seconds] = [Number(h), Number(m), Number(s)];
  if (day < 1 || day > 31 || hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const at = Date.UTC(year, index, day, hours, minutes, Math.min(seconds, 59));
  // 31 Feb is no date, whatever Date.UTC makes of it.
  return new Date(at).getUTCDate() === day ? at : undefined;
}

/** An HTTP date (any of the three forms) in ms since the epoch, or undefined. */
export function httpDateMs(text: string, now: number = Date.now()): number | undefined {
  const value = text.trim();
  const fix = IMF_FIXDATE.exec(value);
  if (fix)
    return utc(
      Number(fix[3]),
      fix[2] as string,
      Number(fix[1]),
      fix[4] as string,
      fix[5] as string,
      fix[6] as string,
    );
  const old = RFC_850.exec(value);
  if (old)
    return utc(
      fullYear(Number(old[3]), now),
      old[2] as string,
      Number(old[1]),
      old[4] as string,
      old[5] as string,
      old[6] as string,
    );
  const asc = ASCTIME.exec(value);
  if (asc)
    return utc(
      Number(asc[6]),
      asc[1] as string,
      Number(asc[2]),
      asc[3] as string,
      asc[4] as string,
      asc[5] as string,
    );
  return undefined;
}

/**
 * How long a `Retry-After` value asks to wait, in ms from `now`: delay-seconds, or the time until an
 * HTTP date (0 for one in the past). undefined when absent or unreadable; of a repeated header, the
 * first value counts.
 *
 * @example
 * retryAfterMs('120'); // 120000
 * retryAfterMs('Thu, 01 Jan 2026 12:00:03 GMT', Date.UTC(2026, 0, 1, 12)); // 3000
 */
export function retryAfterMs(
  header: string | readonly string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const value = (typeof header === 'string' ? header : header?.[0])?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = httpDateMs(value, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}

/** How a Retry-After header is written: delay-seconds, an HTTP date, or neither (absent, unreadable). */
export function retryAfterForm(
  header: string | readonly string[] | undefined,
): 'seconds' | 'date' | undefined {
  const value = (typeof header === 'string' ? header : header?.[0])?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return 'seconds';
  return httpDateMs(value) === undefined ? undefined : 'date';
}
