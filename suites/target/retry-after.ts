/**
 * How long a `Retry-After` header asks to wait, in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110 10.2.3), measured from `now`. undefined when the header is absent or unreadable; a date
 * in the past is 0.
 */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month; anything else Date.parse would read (a bare "-1") is not one.
  const at = /[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How a Retry-After header is written: delay-seconds, an HTTP date, or neither (absent, unreadable). */
export function retryAfterForm(header: string | undefined): 'seconds' | 'date' | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return 'seconds';
  return /[A-Za-z]/.test(value) && !Number.isNaN(Date.parse(value)) ? 'date' : undefined;
}

/**
 * The wait before the `attempt`-th resend (0 first) when the target gave no Retry-After: exponential
 * from `baseMs`, capped, with up to a quarter of jitter so parallel cases do not come back in step.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  const plain = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(plain * (0.75 + random() * 0.25));
}
