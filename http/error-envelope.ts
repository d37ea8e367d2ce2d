import { isControlPath } from './control-protocol.ts';

// The one builder of the error envelope pacu's own answers send: the mock's refusals, the front
// door's, the proxy's 502 and 504. The description's Errors (1): `success` false and a `message`.

/** The interface's error envelope. */
export interface ErrorEnvelope {
  readonly success: false;
  readonly message: string;
}

/** The error envelope of `message`. */
export const errorEnvelope = (message: string): ErrorEnvelope => ({ success: false, message });

/** Its JSON text, as it goes on the wire. */
export const errorEnvelopeText = (message: string): string => JSON.stringify(errorEnvelope(message));

/**
 * The JSON text of a refusal at `path`: the interface's error envelope, or the control API's
 * `{ error }` under /__pacu, so nobody mistakes one for the other.
 */
export function refusalText(path: string, message: string): string {
  return isControlPath(path) ? JSON.stringify({ error: message }) : errorEnvelopeText(message);
}
