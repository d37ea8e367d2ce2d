/**
 * The wait before the `attempt`-th resend (0 first) when the target gave no Retry-After: exponential
 * from `baseMs`, capped, with up to a quarter of jitter so parallel cases do not come back in step.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  const plain = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(plain * (0.75 + random() * 0.25));
}
