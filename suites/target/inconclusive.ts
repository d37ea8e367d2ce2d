/**
 * No answer came for a request pacu may not resend (a write: resending it blindly would be an
 * idempotency probe nobody asked for), or the target kept a request waiting past what pacu allows.
 * Neither a finding nor a usage error: the case that sent it is inconclusive.
 */
export class InconclusiveExchange extends Error {
  override readonly name = 'InconclusiveExchange';
}
